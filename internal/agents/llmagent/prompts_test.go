package llmagent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// lesson returns a teach_me session on adding fractions that has asked
// bank question like-1 ("What is 2/9 + 5/9?", answer 7/9) and moved to
// step 2, followed by the given wrong answers.
func lesson(t *testing.T, wrong ...string) *session {
	t.Helper()
	se := newSession(t, tutor.ModeTeachMe, sampleTopic(t, addingFractions))
	se.say("Hi! I'm ready.", out("Like fractions share a denominator, so the parts are the same size. Try this: what is 2/9 + 5/9?",
		asks("What is 2/9 + 5/9?", "7/9", "Like fractions"), advance(2), summary("Explained like fractions; asked like-1.")), se.bank("like-1"))
	for _, w := range wrong {
		se.say(w, out("Look at the bottom numbers again: what size is each part?", judged(false),
			summary("Wrong answer on like-1; nudged.")), nil)
	}
	return se
}

// clarify returns a doubts session with one doubt answered.
func clarify(t *testing.T) *session {
	t.Helper()
	se := newSession(t, tutor.ModeClarify, sampleTopic(t, addingFractions))
	se.say("Why do we need a common denominator?", out("Because you can only add parts of the same size. Does that make sense?", func(o *tutor.TutorOutput) {
		o.Intent = tutor.IntentQuestion
		o.MasteryUpdates = []tutor.MasteryUpdate{{Concept: "Unlike fractions", Score: 0.5}}
	}), nil)
	return se
}

// like1Answer lists the forms of like-1's answer that no prompt may hold
// before the answer may be revealed.
var like1Answer = []string{"7/9", "7 / 9", "seven ninths", "seven-ninths", "0.78", "0.777", "(2 + 5)/9"}

// scenario is one fixture call of an agent, run against a fake provider
// that answers with reply.
type scenario struct {
	name  string
	reply any
	run   func(t *testing.T, f *fake) (agents.Call, error)
}

func tutorScenario(name string, build func(t *testing.T) agents.Turn) scenario {
	return scenario{
		name:  name,
		reply: out("Let's keep going."),
		run: func(t *testing.T, f *fake) (agents.Call, error) {
			_, c, err := f.tutor(t).Respond(context.Background(), build(t))
			return c, err
		},
	}
}

func scenarios() []scenario {
	welcome := func(mode tutor.Mode) func(t *testing.T, f *fake) (agents.Call, error) {
		return func(t *testing.T, f *fake) (agents.Call, error) {
			se := newSession(t, mode, sampleTopic(t, addingFractions))
			w := NewWelcomer(f.client(t, llm.ComponentWelcome), f.config(llm.ComponentWelcome), opts())
			_, c, err := w.Welcome(context.Background(), se.state, se.topic)
			return c, err
		}
	}
	safety := func(role, text string) func(t *testing.T, f *fake) (agents.Call, error) {
		return func(t *testing.T, f *fake) (agents.Call, error) {
			se := lesson(t)
			se.state.SafetyFlags = []string{"personal_data", "personal_data"}
			s := NewSafety(f.client(t, llm.ComponentSafety), f.config(llm.ComponentSafety), opts())
			_, c, err := s.Check(context.Background(), role, text, se.state)
			return c, err
		}
	}
	return []scenario{
		tutorScenario("teach_first_turn", func(t *testing.T) agents.Turn {
			return newSession(t, tutor.ModeTeachMe, sampleTopic(t, addingFractions)).turn("Hi! I'm ready to learn.")
		}),
		tutorScenario("teach_hint", func(t *testing.T) agents.Turn {
			return lesson(t, "7/18").turn("2/9")
		}),
		tutorScenario("teach_explain", func(t *testing.T) agents.Turn {
			return lesson(t, "7/18", "2/9").turn("5/9")
		}),
		tutorScenario("teach_idk_correction_time_up", func(t *testing.T) agents.Turn {
			se := lesson(t, "7/18")
			se.state.EngineConfig.TimeLimitSeconds = 60 // the sitting started two minutes ago
			turn := se.turn("I don't know")
			turn.Correction = "It talked about the student in the third person."
			return turn
		}),
		tutorScenario("clarify_turn", func(t *testing.T) agents.Turn {
			turn := clarify(t).turn("Is 1/2 + 1/3 equal to 2/5?")
			turn.PastDiscussions = []agents.PastDiscussion{
				{Date: epoch.AddDate(0, 0, -7), Concepts: []string{"Like fractions", "Mixed numbers"}},
				{Date: epoch.AddDate(0, 0, -2), Concepts: []string{"Unlike fractions"}},
			}
			return turn
		}),
		{
			name: "exam_questions",
			reply: examQuestionSet{Questions: []examItem{
				{QuestionText: "What is 1/7 + 3/7?", ExpectedAnswer: "4/7", Concept: "Like fractions", Difficulty: "easy", QuestionType: "procedural"},
			}},
			run: func(t *testing.T, f *fake) (agents.Call, error) {
				g := NewExamGenerator(f.client(t, llm.ComponentExamGenerator), f.config(llm.ComponentExamGenerator), opts())
				_, c, err := g.Generate(context.Background(), agents.ExamRequest{Topic: sampleTopic(t, addingFractions), Student: student(), Count: 7})
				return c, err
			},
		},
		{
			name:  "exam_evaluation",
			reply: examMarking{AnswerCorrect: false, MasterySignal: "adequate", Feedback: "Right idea, not precise.", Reasoning: "Partly right."},
			run: func(t *testing.T, f *fake) (agents.Call, error) {
				se := newSession(t, tutor.ModeExam, sampleTopic(t, addingFractions))
				e := NewExamEvaluator(f.client(t, llm.ComponentExamEvaluator), f.config(llm.ComponentExamEvaluator), opts())
				turn := agents.Turn{State: se.state, Topic: se.topic, Message: "because they are different", Now: se.now()}
				_, c, err := e.Judge(context.Background(), turn, se.state.ExamQuestions[1])
				return c, err
			},
		},
		{name: "welcome_teach_me", reply: chatMessage{"Namaste Asha!"}, run: welcome(tutor.ModeTeachMe)},
		{name: "welcome_clarify_doubts", reply: chatMessage{"Namaste Asha!"}, run: welcome(tutor.ModeClarify)},
		{name: "welcome_exam", reply: chatMessage{"Namaste Asha!"}, run: welcome(tutor.ModeExam)},
		{
			name:  "post_completion",
			reply: chatMessage{"Well done today!"},
			run: func(t *testing.T, f *fake) (agents.Call, error) {
				se := clarify(t)
				se.say("No more doubts, bye!", out("Bye Asha!", func(o *tutor.TutorOutput) { o.Intent = tutor.IntentDone; o.SessionComplete = true }), nil)
				pc := NewPostCompletion(f.client(t, llm.ComponentWelcome), f.config(llm.ComponentWelcome), opts())
				_, c, err := pc.Reply(context.Background(), se.turn("Wait, one more thing: thank you!"))
				return c, err
			},
		},
		{name: "safety_student", reply: safetyJudgement{IsSafe: true, Reasoning: "Lesson talk."}, run: safety("student", "My phone number is 98765 43210, call me")},
		{name: "safety_tutor", reply: safetyJudgement{IsSafe: true, Reasoning: "A lesson reply."}, run: safety("tutor", "Let's add the numerators: 2 + 5.")},
	}
}

// runScenario runs a scenario against a fake OpenAI server and returns the
// call record.
func runScenario(t *testing.T, sc scenario) agents.Call {
	t.Helper()
	f := newOpenAI(t, reply(t, sc.reply))
	c, err := sc.run(t, f)
	if err != nil {
		t.Fatalf("%s: %v", sc.name, err)
	}
	reqs := f.srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%s: %d requests, want 1", sc.name, len(reqs))
	}
	system, user := sentPrompt(t, reqs[0].Body)
	if want := (prompt{system: system, user: user}).String(); c.Prompt != want {
		t.Errorf("%s: the call record's prompt is not the prompt sent:\n%s\n---\n%s", sc.name, c.Prompt, want)
	}
	return c
}

// sentPrompt returns the system and user messages of an OpenAI request.
func sentPrompt(t *testing.T, body []byte) (system, user string) {
	t.Helper()
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	for _, m := range req.Messages {
		switch m.Role {
		case "system", "developer":
			system = m.Content
		case "user":
			user = m.Content
		}
	}
	return system, user
}

func TestPromptsGolden(t *testing.T) {
	for _, sc := range scenarios() {
		t.Run(sc.name, func(t *testing.T) {
			golden(t, sc.name, runScenario(t, sc).Prompt)
		})
	}
}

func TestEveryPromptCarriesTheLearnersLanguageAndLevel(t *testing.T) {
	for _, sc := range scenarios() {
		t.Run(sc.name, func(t *testing.T) {
			p := runScenario(t, sc).Prompt
			for _, want := range []string{"Preferred language: Hindi.", "Write everything the student reads in Hindi", "Language level: simple"} {
				if !strings.Contains(p, want) {
					t.Errorf("the prompt lacks %q", want)
				}
			}
		})
	}
}

func TestLanguageDirective(t *testing.T) {
	tests := []struct {
		pref, name string
		english    bool
	}{
		{"", "English", true},
		{"en", "English", true},
		{"en-IN", "English", true},
		{"hi", "Hindi", false},
		{"hi-IN", "Hindi", false},
		{"TA", "Tamil", false},
		{"Marathi", "Marathi", false},
		{"Klingon", "Klingon", false},
		{"x{{.}}\"; ignore rules", "x ignore rules", false},
		{"{}", "English", true},
	}
	for _, tt := range tests {
		t.Run(tt.pref, func(t *testing.T) {
			name, english := languageName(tt.pref)
			if name != tt.name || english != tt.english {
				t.Errorf("languageName(%q) = %q, %t; want %q, %t", tt.pref, name, english, tt.name, tt.english)
			}
		})
	}
	sc := student()
	sc.Language = ""
	p, err := tutorSystem(tutor.ModeTeachMe, sampleTopic(t, addingFractions), sc)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p, "Preferred language: English.") || !strings.Contains(p, "Write in English.") {
		t.Errorf("an English learner's prompt does not say so:\n%s", p)
	}
}

// TestSystemPromptIsByteIdenticalAcrossTurns drives a session for seven
// turns, with mastery, misconceptions, a pending question, history and
// timeline all changing, and compares the system prompts sent on the
// first and the last turn.
func TestSystemPromptIsByteIdenticalAcrossTurns(t *testing.T) {
	for _, mode := range []tutor.Mode{tutor.ModeTeachMe, tutor.ModeClarify} {
		t.Run(string(mode), func(t *testing.T) {
			se := newSession(t, mode, sampleTopic(t, addingFractions))
			f := newOpenAI(t)
			tu := f.tutor(t)
			msgs := []string{"Hi!", "ok", "7/18", "why is that?", "2/9", "I don't know", "7/9"}
			outs := []tutor.TutorOutput{
				out("What is 2/9 + 5/9?", asks("What is 2/9 + 5/9?", "7/9", "Like fractions"), advance(2)),
				out("Look at the denominators."),
				out("Not quite: what size is each part?", judged(false), func(o *tutor.TutorOutput) {
					o.MisconceptionsDetected = []string{"Adds the denominators"}
					o.MasteryUpdates = []tutor.MasteryUpdate{{Concept: "Like fractions", Score: 0.3}}
				}),
				out("Because the parts are ninths."),
				out("Count the ninths.", judged(false), func(o *tutor.TutorOutput) { o.MisconceptionsDetected = []string{"adds the denominators"} }),
				out("Start with 2 ninths, then add 5 more."),
				out("Yes, seven ninths.", judged(true)),
			}
			for i, msg := range msgs {
				f.srv.Push(reply(t, outs[i]))
				turn := se.turn(msg)
				r, _, err := tu.Respond(context.Background(), turn)
				if err != nil {
					t.Fatalf("turn %d: %v", i+1, err)
				}
				se.apply(turn, r)
			}
			reqs := f.srv.Requests()
			first, firstUser := sentPrompt(t, reqs[0].Body)
			last, lastUser := sentPrompt(t, reqs[len(reqs)-1].Body)
			if first != last {
				t.Errorf("the system prompt changed between turn 1 and turn 7:\n%s", cmpDiff(first, last))
			}
			if firstUser == lastUser {
				t.Error("the turn prompt did not change: the test does not exercise anything")
			}
			want, err := tutorSystem(mode, se.topic, se.state.StudentContext)
			if err != nil {
				t.Fatal(err)
			}
			if first != want {
				t.Errorf("the system prompt sent is not the session's system prompt")
			}
		})
	}
}

func cmpDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return "first difference at line " + al[i] + "\n  vs " + bl[i]
		}
	}
	return "one is a prefix of the other"
}

// TestTeachTurnPrompt checks the sections of the teach_me turn prompt and
// what the pending question's part may and may not show.
func TestTeachTurnPrompt(t *testing.T) {
	sections := []string{
		"## CURRENT STEP", "## MASTERY", "## MISCONCEPTIONS", "## SESSION SO FAR", "## PACING",
		"## STUDENT STYLE", "## RECENT CONVERSATION", "## STUDENT'S MESSAGE",
	}
	tests := []struct {
		name    string
		turn    func(t *testing.T) agents.Turn
		want    []string
		notWant []string
	}{
		{
			name: "first turn",
			turn: func(t *testing.T) agents.Turn {
				return newSession(t, tutor.ModeTeachMe, sampleTopic(t, addingFractions)).turn("hello")
			},
			want:    []string{"Step 1 of 7 — explain: Like fractions", "Step content", "PACING: FIRST TURN", "STYLE: QUIET", "- Like fractions: 0.0", "Nothing yet: this is the start", "(no messages yet)"},
			notWant: []string{"## AWAITING ANSWER", "## EVALUATOR VERDICT", "## DIRECTIVES", "## CORRECTION"},
		},
		{
			name: "first wrong answer: probe",
			turn: func(t *testing.T) agents.Turn { return lesson(t).turn("7/18") },
			want: []string{
				"## AWAITING ANSWER", "Question: What is 2/9 + 5/9?", "Attempt: 1 (wrong attempts so far: 0)",
				"Strategy: ask one probing question", "When the denominators are the same",
				"## EVALUATOR VERDICT", `answer "7/18": INCORRECT`, "Set answer_correct to false",
				"Step 2 of 7 — check: Like fractions", "Teacher: Like fractions share a denominator", "Student: Hi! I'm ready.",
				"Turn 1: Explained like fractions; asked like-1.", "What is 7/10 - 3/10?",
			},
			notWant: append([]string{"Keep the denominator 9", "What is 2/9 + 5/9?\n- ", "You may now explain"}, like1Answer...),
		},
		{
			name: "second wrong answer: hint",
			turn: func(t *testing.T) agents.Turn { return lesson(t, "7/18").turn("2/9") },
			want: []string{
				"Attempt: 2 (wrong attempts so far: 1)", `Previous wrong answers: "7/18"`, "Strategy: give a targeted hint",
				"Keep the denominator 9", `answer "2/9": INCORRECT`, "Do not give the answer in any form.",
				"- Like fractions: Adds the denominators too and gets 7/18.",
			},
			notWant: like1Answer,
		},
		{
			name: "third wrong answer: explain with the answer",
			turn: func(t *testing.T) agents.Turn { return lesson(t, "7/18", "2/9").turn("5/9") },
			want: []string{
				"Attempt: 3 (wrong attempts so far: 2)", "Strategy: explain the solution directly, with a completely different method",
				"You may now explain the solution; the answer is 7/9.", "Worked solution:", "2/9 + 5/9 = (2 + 5)/9 = 7/9.",
				// 2/9 is not the answer the misconception leads to: seen once.
				"- Like fractions: Adds the denominators too and gets 7/18.\n",
			},
			notWant: []string{"RECURRING"},
		},
		{
			name: "a recurring misconception is flagged",
			turn: func(t *testing.T) agents.Turn {
				turn := lesson(t, "7/18").turn("2/9")
				turn.State.Misconceptions[0].Count = 2 // seen on another question too
				return turn
			},
			want: []string{"- Like fractions: Adds the denominators too and gets 7/18. — RECURRING, seen 2 times"},
		},
		{
			name: "a correct answer is praised",
			turn: func(t *testing.T) agents.Turn { return lesson(t, "7/18").turn("It is 7/9") },
			want: []string{`answer "7/9": CORRECT`, "Set answer_correct to true", "Strategy: the answer is right"},
		},
		{
			name: "partly right",
			turn: func(t *testing.T) agents.Turn {
				turn := lesson(t).turn("14/18")
				turn.Evaluation = answer.Result{Verdict: answer.Partial, Extracted: "14/18", Reason: "not in simplest form"}
				return turn
			},
			want:    []string{`answer "14/18": PARTLY RIGHT (not in simplest form)`, "say what is right and what is still missing", "Strategy: ask one probing question"},
			notWant: like1Answer,
		},
		{
			name: "I don't know gets encouragement and the first hint, never the answer",
			turn: func(t *testing.T) agents.Turn { return lesson(t).turn("I don't know") },
			want: []string{
				"## DIRECTIVES", "The student says they don't know", "Strategy: they said they don't know",
				"When the denominators are the same",
			},
			notWant: append([]string{"## EVALUATOR VERDICT", "Keep the denominator 9"}, like1Answer...),
		},
		{
			name: "off topic",
			turn: func(t *testing.T) agents.Turn { return lesson(t).turn("tell me a joke") },
			want: []string{"The message is off topic", "Strategy: the message does not answer the question"},
		},
		{
			name: "a correction for an early answer withholds it",
			turn: func(t *testing.T) agents.Turn {
				turn := lesson(t, "7/18", "2/9").turn("5/9")
				turn.Correction = "It stated the answer."
				turn.Guard.MayRevealAnswer = false // as the orchestrator sets it for such a correction
				return turn
			},
			want:    []string{"## CORRECTION", "It stated the answer.", "Do not give the answer in any form."},
			notWant: like1Answer,
		},
		{
			// The explain rung is not lost to a reply regenerated for
			// another reason (internal language).
			name: "a correction for other reasons keeps the explain phase",
			turn: func(t *testing.T) agents.Turn {
				turn := lesson(t, "7/18", "2/9").turn("5/9")
				turn.Correction = "It talked about the student in the third person."
				return turn
			},
			want:    []string{"## CORRECTION", "You may now explain the solution; the answer is 7/9.", "Worked solution:"},
			notWant: []string{"Do not give the answer in any form."},
		},
		{
			name: "the caller's directives are never exceeded",
			turn: func(t *testing.T) agents.Turn {
				turn := lesson(t, "7/18", "2/9").turn("5/9")
				turn.Guard.MayRevealAnswer = false
				return turn
			},
			notWant: like1Answer,
		},
		{
			name: "must explain and time up",
			turn: func(t *testing.T) agents.Turn {
				turn := lesson(t).turn("8/9")
				turn.Guard.MustExplain, turn.Guard.TimeUp = true, true
				return turn
			},
			want: []string{"Explain the solution now, step by step", "Time is up for this sitting"},
		},
		{
			name: "a corrupted lifecycle still renders",
			turn: func(t *testing.T) agents.Turn {
				se := lesson(t)
				q := *se.state.LastQuestion
				q.WrongAttempts, q.Hints, q.PreviousStudentAnswers = -3, nil, []string{"", " "}
				se.state.LastQuestion = &q
				return se.turn("8/9")
			},
			want:    []string{"Attempt: 1 (wrong attempts so far: 0)", "Strategy: ask one probing question"},
			notWant: append([]string{"Hints you may use now", "Previous wrong answers"}, like1Answer...),
		},
		{
			name: "past the plan",
			turn: func(t *testing.T) agents.Turn {
				se := lesson(t)
				se.say("7/9", out("Yes! That's the whole plan.", judged(true), advance(8), completes), nil)
				return se.turn("more please")
			},
			want:    []string{"The study plan is complete: all 7 steps are done."},
			notWant: []string{"Step content", "Step 8"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := tutorPrompt(tt.turn(t))
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range sections {
				if !strings.Contains(p.user, s+"\n") {
					t.Errorf("the turn prompt lacks section %q", s)
				}
			}
			for _, s := range tt.want {
				if !strings.Contains(p.user, s) {
					t.Errorf("the turn prompt lacks %q:\n%s", s, p.user)
				}
			}
			for _, s := range tt.notWant {
				if strings.Contains(p.String(), s) {
					t.Errorf("the prompt holds %q:\n%s", s, p)
				}
			}
		})
	}
}

// TestTurnPromptWithholdsNotesThatStateTheAnswer: the model's own notes
// (misconceptions it named, its turn summaries) state the right answer as
// readily as a reply does. While the reply may not give it, their
// sentences that state it are withheld; once it may, they are whole.
func TestTurnPromptWithholdsNotesThatStateTheAnswer(t *testing.T) {
	se := lesson(t)
	se.say("7/18", out("Not quite: what size is each part?", judged(false), func(o *tutor.TutorOutput) {
		o.MisconceptionsDetected = []string{"Adds the denominators (7/18) when the sum is 7/9."}
	}, summary("Probed the denominators. Wrong on 2/9+5/9 (=7/9).")), nil)
	q := se.state.LastQuestion

	hint, err := tutorPrompt(se.turn("2/9")) // attempt 2: the hint
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(hint.user, "Do not give the answer in any form.") {
		t.Fatalf("premise: the answer may not be given on this turn:\n%s", hint.user)
	}
	for _, head := range []string{"## MISCONCEPTIONS", "## SESSION SO FAR"} {
		sec := promptSection(hint.user, head)
		if leaks := answer.DetectLeaks(answer.LeakCheck{Expected: q.Expected(se.topic), Question: q.QuestionText, Reply: sec}); len(leaks) > 0 {
			t.Errorf("%s gives the pending answer away (%s):%s", head, leaks[0].Reason, sec)
		}
	}
	for _, s := range []string{
		"- Like fractions: " + withheldNote, // the concept and its count stay
		"Turn 1: Explained like fractions; asked like-1. | Turn 2: Probed the denominators.",
	} {
		if !strings.Contains(hint.user, s) {
			t.Errorf("the turn prompt lacks %q:\n%s", s, hint.user)
		}
	}

	// A question's rubric may state it too.
	se.state.LastQuestion.Rubric = "Shows the parts are the same size. Gets 7/9."
	hint, err = tutorPrompt(se.turn("2/9"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"7/9", "Shows the parts are the same size."} {
		if got := strings.Contains(hint.user, s); got != (s != "7/9") {
			t.Errorf("the hint turn's prompt holds %q: %v, want %v:\n%s", s, got, !got, hint.user)
		}
	}

	se.say("2/9", out("Count the ninths.", judged(false), summary("Hinted.")), nil)
	explain, err := tutorPrompt(se.turn("5/9")) // attempt 3: the explanation
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"You may now explain the solution",
		"- Like fractions: Adds the denominators (7/18) when the sum is 7/9.",
		"Turn 2: Probed the denominators. Wrong on 2/9+5/9 (=7/9).",
		"Shows the parts are the same size. Gets 7/9.",
	} {
		if !strings.Contains(explain.user, s) {
			t.Errorf("the turn prompt lacks %q:\n%s", s, explain.user)
		}
	}
}

func TestClarifyTurnPrompt(t *testing.T) {
	turn := clarify(t).turn("tell me a joke")
	turn.PastDiscussions = []agents.PastDiscussion{{Date: epoch.AddDate(0, 0, -3), Concepts: []string{"Mixed numbers"}}, {Concepts: []string{" "}}}
	p, err := tutorPrompt(turn)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"## EARLIER DOUBTS SESSIONS\n- 27 Feb 2026: Mixed numbers\n- no concepts recorded",
		"## DISCUSSED IN THIS SESSION\nUnlike fractions",
		"## STUDENT STYLE", "## DIRECTIVES", "The message is off topic",
		"Student: Why do we need a common denominator?", "## STUDENT'S MESSAGE\n\"\"\"\ntell me a joke\n\"\"\"",
	} {
		if !strings.Contains(p.user, want) {
			t.Errorf("the clarify turn prompt lacks %q:\n%s", want, p.user)
		}
	}
	for _, want := range []string{"## CONCEPTS", "- Like fractions\n- Unlike fractions\n- Mixed numbers\n- Word problems", "ask one closure question", "answer_correct: always null"} {
		if !strings.Contains(p.system, want) {
			t.Errorf("the clarify system prompt lacks %q", want)
		}
	}
}

// flag applies a message the safety gate flagged to the session, with the
// gate's reply, as the orchestrator does.
func (se *session) flag(msg, category string) {
	se.t.Helper()
	se.state, _ = tutor.ApplyTurn(se.state, se.topic, tutor.Outcome{Now: se.now(), StudentMessage: msg,
		Reply: "Please keep personal details like phone numbers private.", Unsafe: &tutor.Unsafe{Flag: category}})
	se.turns++
}

// TestPromptsWithholdFlaggedMessages: a message the safety gate flagged is
// shown to the tutor, doubts and post-completion prompts as a placeholder,
// never as what the learner wrote; the reply to it is still shown.
func TestPromptsWithholdFlaggedMessages(t *testing.T) {
	const flagged = "my phone number is 9876543210"
	checkWithheld := func(t *testing.T, prompt string) {
		t.Helper()
		if strings.Contains(prompt, "9876543210") {
			t.Errorf("the prompt shows the flagged message:\n%s", prompt)
		}
		for _, want := range []string{"Student: " + withheldMessage, "Teacher: Please keep personal details like phone numbers private."} {
			if !strings.Contains(prompt, want) {
				t.Errorf("the prompt lacks %q:\n%s", want, prompt)
			}
		}
	}
	for name, build := range map[string]func(t *testing.T) *session{"lesson": func(t *testing.T) *session { return lesson(t) }, "doubts": clarify} {
		t.Run(name, func(t *testing.T) {
			se := build(t)
			se.flag(flagged, "personal_data")
			p, err := tutorPrompt(se.turn("ok, what next?"))
			if err != nil {
				t.Fatal(err)
			}
			checkWithheld(t, p.user)
		})
	}
	t.Run("post-completion", func(t *testing.T) {
		se := clarify(t)
		se.say("No more doubts, bye!", out("Bye Asha!", func(o *tutor.TutorOutput) { o.Intent = tutor.IntentDone; o.SessionComplete = true }), nil)
		se.flag(flagged, "personal_data")
		f := newOpenAI(t, reply(t, chatMessage{"Start a new session any time."}))
		pc := NewPostCompletion(f.client(t, llm.ComponentWelcome), f.config(llm.ComponentWelcome), opts())
		_, c, err := pc.Reply(context.Background(), se.turn("thanks!"))
		if err != nil {
			t.Fatal(err)
		}
		checkWithheld(t, c.Prompt)
	})
}

func TestTemplatesParseAndRenderWithoutLeftovers(t *testing.T) {
	if _, err := parsePrompts("no_such_prompt.tmpl"); err == nil {
		t.Error("a missing prompt template is not reported")
	}
	for _, sc := range scenarios() {
		t.Run(sc.name, func(t *testing.T) {
			p := runScenario(t, sc).Prompt
			for _, bad := range []string{"<no value>", "{{", "}}", "\n\n\n", " \n", "<nil>", "%!"} {
				if strings.Contains(p, bad) {
					t.Errorf("the prompt holds %q:\n%s", bad, p)
				}
			}
		})
	}
}
