package orchestrator_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/llm/llmtest"
	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/store"
	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// The end-to-end flows of the rules-engine tests (teach_me, clarify_doubts,
// exam, pause/resume, a message after completion), run with model-backed
// agents over the scripted fake provider.

// modelFlow drives one session turn by turn against the fake provider. It
// checks that each turn uses exactly the replies scripted for it, keeps
// the transcript the learner saw, and collects the prompts the model got.
type modelFlow struct {
	t    *testing.T
	f    *fixture
	fake *llmtest.Server
	id   uuid.UUID
	last orchestrator.Session
	// transcript is the conversation as the learner saw it, welcome first.
	transcript []flowMessage
	// prompts are the user messages of the model requests, per turn.
	prompts [][]string
}

type flowMessage struct{ Role, Content string }

func newModelFlow(t *testing.T, f *fixture, fake *llmtest.Server, c orchestrator.Created) *modelFlow {
	return &modelFlow{t: t, f: f, fake: fake, id: c.Session.Row.ID, last: c.Session,
		transcript: []flowMessage{{"teacher", c.Welcome}}}
}

// turn pushes replies, sends msg and checks that the turn made exactly
// one model request per scripted reply, and that the reply gives away no
// pending answer before the explain phase.
func (m *modelFlow) turn(msg string, replies ...llmtest.Reply) orchestrator.TurnResult {
	m.t.Helper()
	before := m.last
	n := len(m.fake.Requests())
	m.fake.Push(replies...)
	r := m.f.turn(m.t, m.id, msg)
	reqs := m.fake.Requests()[n:]
	if len(reqs) != len(replies) {
		m.t.Fatalf("turn %q made %d model requests, %d replies were scripted for it", msg, len(reqs), len(replies))
	}
	var ps []string
	for _, req := range reqs {
		ps = append(ps, userPrompt(m.t, req))
	}
	m.prompts = append(m.prompts, ps)
	checkReply(m.t, r.Reply)
	checkNoPendingLeak(m.t, before, r)
	m.transcript = append(m.transcript, flowMessage{"student", msg}, flowMessage{"teacher", r.Reply})
	m.last = r.Session
	return r
}

// lastPrompt returns the user message of the turn's last model request.
func (m *modelFlow) lastPrompt() string {
	m.t.Helper()
	ps := m.prompts[len(m.prompts)-1]
	if len(ps) == 0 {
		m.t.Fatal("the turn made no model request")
	}
	return ps[len(ps)-1]
}

// checkNoPendingLeak asserts that a teach_me reply states neither the
// answer of the question that was pending before the turn (unless this
// turn answered it correctly or reached its explain phase) nor that of the
// question the reply asks.
func checkNoPendingLeak(t *testing.T, before orchestrator.Session, r orchestrator.TurnResult) {
	t.Helper()
	s, tp := r.Session.State, r.Session.Topic
	var qs []tutor.Question
	if q := before.State.LastQuestion; q != nil {
		answered := s.LastAnswerResult != nil && *s.LastAnswerResult == tutor.ResultCorrect
		explain := s.LastQuestion != nil && s.LastQuestion.QuestionText == q.QuestionText && s.LastQuestion.Phase == tutor.PhaseExplain
		if !answered && !explain && q.Phase != tutor.PhaseExplain {
			qs = append(qs, *q)
		}
	}
	if q := s.LastQuestion; q != nil && q.Phase != tutor.PhaseExplain {
		qs = append(qs, *q)
	}
	for _, q := range qs {
		checkNoLeak(t, r.Reply, q.Expected(tp), q.QuestionText)
	}
}

func checkNoLeak(t *testing.T, reply string, expected answer.Expected, question string) {
	t.Helper()
	if leaks := answer.DetectLeaks(answer.LeakCheck{Expected: expected, Question: question, Reply: reply}); len(leaks) > 0 {
		t.Fatalf("the reply gives away %q, the answer to %q: %q", expected.Answer, question, reply)
	}
}

// userPrompt returns the user message of a request: the turn prompt.
func userPrompt(t *testing.T, r llmtest.Request) string {
	t.Helper()
	return requestMessage(t, r, "user")
}

func requestMessage(t *testing.T, r llmtest.Request, role string) string {
	t.Helper()
	body, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	msgs, _ := body["messages"].([]any)
	for i := len(msgs) - 1; i >= 0; i-- {
		if m, _ := msgs[i].(map[string]any); m["role"] == role {
			return fmt.Sprint(m["content"])
		}
	}
	t.Fatalf("the request has no %s message: %s", role, r.Body)
	return ""
}

// promptSection returns the body of a prompt's "## heading" section,
// without surrounding space, and whether the prompt has it.
func promptSection(p, heading string) (string, bool) {
	h := "## " + heading + "\n"
	i := strings.Index(p, h)
	if i < 0 {
		return "", false
	}
	rest := p[i+len(h):]
	if j := strings.Index(rest, "\n## "); j >= 0 {
		rest = rest[:j]
	}
	return strings.TrimSpace(rest), true
}

// templateHeadings returns the "## " headings a prompt template defines.
func templateHeadings(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile("../agents/llmagent/prompts/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var hs []string
	for _, m := range regexp.MustCompile(`(?m)^## (.+)$`).FindAllStringSubmatch(string(b), -1) {
		hs = append(hs, strings.TrimSpace(m[1]))
	}
	return hs
}

// Mutators of a scripted tutor output (see out).

func asking(question, expected, concept string) func(map[string]any) {
	return func(m map[string]any) {
		m["intent"], m["question_asked"], m["expected_answer"], m["question_concept"] = "question", question, expected, concept
	}
}

func advancing(step int) func(map[string]any) {
	return func(m map[string]any) { m["advance_to_step"] = step }
}

func judging(correct bool) func(map[string]any) {
	return func(m map[string]any) { m["intent"], m["answer_correct"] = "answer", correct }
}

func reporting(misconception string) func(map[string]any) {
	return func(m map[string]any) { m["misconceptions_detected"] = []string{misconception} }
}

func completing(m map[string]any) { m["session_complete"] = true }

func summarised(s string) func(map[string]any) {
	return func(m map[string]any) { m["turn_summary"] = s }
}

func discussing(intent string, concepts ...string) func(map[string]any) {
	return func(m map[string]any) {
		us := []any{}
		for _, c := range concepts {
			us = append(us, map[string]any{"concept": c, "score": 0.5})
		}
		m["intent"], m["mastery_updates"] = intent, us
	}
}

func message(text string) llmtest.Reply {
	b, _ := json.Marshal(map[string]string{"message": text})
	return llmtest.Reply{Text: string(b)}
}

// A doubts session with a model-backed tutor: three doubts, each answered
// and closed with a closure question, then "no, I'm done" ends it with the
// tutor's goodbye; the next message gets the model's post-completion
// reply and counts no turn.
func TestClarifyDoubtsWithModelBackedTutor(t *testing.T) {
	ctx := context.Background()
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentTutor)
	c := f.create(t, doubling, tutor.ModeClarify)
	id := c.Session.Row.ID
	m := newModelFlow(t, f, fake, c)

	doubts := []struct {
		msg, reply string
		concepts   []string
		discussed  string // the prompt's DISCUSSED IN THIS SESSION
	}{
		{"Why does doubling mean two equal groups?",
			"Doubling means taking the same number twice, like two plates with 6 laddoos each: 6 + 6 = 12. Does that make sense? Any other doubts?",
			[]string{"Doubling"}, "nothing yet"},
		{"Is halving the opposite of doubling?",
			"Yes! Halving splits a number into two equal groups, so it undoes doubling: double 5 is 10 and half of 10 is 5. Any other doubts?",
			[]string{"Halving", "doubling"}, "Doubling"},
		{"What happens when you halve an odd number like 7?",
			"Then the two groups are 3 and a half each, because 7 cannot be shared into two equal whole groups. Do you have any other doubts?",
			[]string{"Halving", "Odd numbers"}, "Doubling, Halving"},
	}
	for i, d := range doubts {
		r := m.turn(d.msg, out(d.reply, discussing("question", d.concepts...), summarised(fmt.Sprintf("doubt %d", i+1))))
		if r.Reply != d.reply {
			t.Fatalf("doubt %d: the learner got %q, the tutor wrote %q", i+1, r.Reply, d.reply)
		}
		if r.Session.State.ClarifyComplete || r.Session.Row.Summary.IsComplete {
			t.Fatalf("the session ended after doubt %d", i+1)
		}
		p := m.lastPrompt()
		for _, h := range []string{"EARLIER DOUBTS SESSIONS", "DISCUSSED IN THIS SESSION", "STUDENT STYLE", "RECENT CONVERSATION", "STUDENT'S MESSAGE"} {
			if _, ok := promptSection(p, h); !ok {
				t.Errorf("doubt %d: the clarify turn prompt lacks ## %s", i+1, h)
			}
		}
		if got, _ := promptSection(p, "DISCUSSED IN THIS SESSION"); got != d.discussed {
			t.Errorf("doubt %d: the prompt says discussed %q, want %q", i+1, got, d.discussed)
		}
		if got, _ := promptSection(p, "STUDENT'S MESSAGE"); !strings.Contains(got, d.msg) {
			t.Errorf("doubt %d: the prompt's message is %q", i+1, got)
		}
		if i > 0 {
			if got, _ := promptSection(p, "RECENT CONVERSATION"); !strings.Contains(got, doubts[i-1].reply) {
				t.Errorf("doubt %d: the prompt's conversation lacks the previous answer:\n%s", i+1, got)
			}
		}
	}

	// The closure question is answered with "no, I'm done": the tutor says
	// goodbye, and the session ends.
	const goodbye = "Great work today! Come back whenever a new doubt pops up."
	r := m.turn("no, I'm done", out(goodbye, discussing("done"), completing, summarised("said goodbye")))
	if r.Reply != goodbye {
		t.Fatalf("the goodbye was %q, the tutor wrote %q", r.Reply, goodbye)
	}
	if got, _ := promptSection(m.lastPrompt(), "STUDENT'S MESSAGE"); !strings.Contains(got, "no, I'm done") {
		t.Fatalf("the goodbye was not written for the learner's message: %q", got)
	}
	var resp orchestrator.StepResponse
	if err := json.Unmarshal(r.Response, &resp); err != nil {
		t.Fatal(err)
	}
	wantDiscussed := []string{"Doubling", "Halving", "Odd numbers"}
	if !resp.NextTurn.IsComplete || resp.NextTurn.ConceptsDiscussed == nil || !cmp.Equal(*resp.NextTurn.ConceptsDiscussed, wantDiscussed) {
		t.Fatalf("step response %s", r.Response)
	}
	se, err := f.o.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !se.State.ClarifyComplete || !se.Row.Summary.IsComplete || se.State.TurnCount != 4 {
		t.Fatalf("stored: complete %v (column %v), %d turns", se.State.ClarifyComplete, se.Row.Summary.IsComplete, se.State.TurnCount)
	}
	// Every concept the tutor named is discussed, in the plan's spelling;
	// only the plan's concepts count as covered.
	if diff := cmp.Diff(wantDiscussed, se.State.ConceptsDiscussed); diff != "" {
		t.Errorf("concepts discussed (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Doubling", "Halving"}, se.State.ConceptsCovered); diff != "" {
		t.Errorf("concepts covered (-want +got):\n%s", diff)
	}

	// After the end: the post-completion agent (on the tutor's model)
	// answers, knowing what was discussed; no turn is counted.
	const after = "You're welcome! Start a new session whenever you have another doubt."
	r = m.turn("one more thing: thank you!", message(after))
	if r.Reply != after || r.Intent != orchestrator.IntentSessionComplete || r.Session.State.TurnCount != 4 {
		t.Fatalf("after completion: %q, intent %s, %d turns", r.Reply, r.Intent, r.Session.State.TurnCount)
	}
	p := m.lastPrompt()
	if got, _ := promptSection(p, "SITUATION"); got != "The student's doubts session has ended. It covered: Doubling, Halving, Odd numbers." {
		t.Fatalf("the post-completion prompt's situation is %q", got)
	}
	if got, _ := promptSection(p, "STUDENT'S MESSAGE"); !strings.Contains(got, "one more thing: thank you!") {
		t.Fatalf("the post-completion prompt's message is %q", got)
	}
	msgs, err := f.o.Messages(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(m.transcript, flowMessages(msgs)); diff != "" {
		t.Errorf("stored conversation (-shown +stored):\n%s", diff)
	}
	if _, err := f.o.EndClarify(ctx, id); !errors.Is(err, tutor.ErrAlreadyEnded) {
		t.Fatalf("end-clarify after the end: %v", err)
	}
	if fake.Pending() != 0 {
		t.Fatalf("%d canned replies unused", fake.Pending())
	}
}

// A lesson with a model-backed tutor through the four steps of the
// doubling plan: an early session_complete is refused, a wrong answer
// walks the ladder (with a leaking reply regenerated), "I don't know"
// earns no answer, the lesson is paused and resumed in the middle, and it
// completes only on the final step. Each turn prompt holds every section
// its template always renders, with the misconceptions and the session so
// far as the model reported them; across the lesson every section of the
// template appears.
func TestTeachMeLessonWithModelBackedTutor(t *testing.T) {
	ctx := context.Background()
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentTutor)
	c := f.create(t, doubling, tutor.ModeTeachMe)
	id := c.Session.Row.ID
	m := newModelFlow(t, f, fake, c)
	total := c.Session.Topic.TotalSteps()
	if total != 4 {
		t.Fatalf("the doubling lesson has %d steps, want 4", total)
	}
	const misconception = "Adds 2 instead of doubling"
	step := func(r orchestrator.TurnResult, want int) {
		t.Helper()
		if got := r.Session.State.CurrentStep; got != want {
			t.Fatalf("step %d, want %d", got, want)
		}
	}
	phase := func(r orchestrator.TurnResult, want tutor.Phase) {
		t.Helper()
		if q := r.Session.State.LastQuestion; q == nil || q.QuestionID != "double-1" || q.Phase != want {
			t.Fatalf("pending question %+v, want double-1 in phase %s", q, want)
		}
	}

	// Turn 1, step 1: the tutor explains and moves to the check step.
	r := m.turn("yes, ready", out("Doubling means making two equal groups of a number: double 6 is 6 + 6. Shall we try one?",
		advancing(2), summarised("explained doubling")))
	step(r, 2)
	p := m.lastPrompt()
	if got, _ := promptSection(p, "MISCONCEPTIONS"); got != "- none so far" {
		t.Errorf("turn 1: misconceptions %q", got)
	}
	if got, _ := promptSection(p, "SESSION SO FAR"); got != "Nothing yet: this is the start of the lesson." {
		t.Errorf("turn 1: session so far %q", got)
	}

	// Turn 2: session_complete on step 2 of 4 is refused.
	r = m.turn("doubling is easy, I know it all", out("Great, you've finished the whole lesson!", completing, summarised("claimed done")))
	step(r, 2)
	if r.Session.State.IsComplete(r.Session.Topic) || r.Session.Row.Summary.IsComplete || r.Session.State.PostCompletion(r.Session.Topic) {
		t.Fatal("the session completed on step 2 of 4")
	}
	var resp orchestrator.StepResponse
	if err := json.Unmarshal(r.Response, &resp); err != nil || resp.NextTurn.IsComplete {
		t.Fatalf("step response %s (%v)", r.Response, err)
	}

	// Turn 3: the tutor asks the bank's question; the domain tracks it.
	r = m.turn("ok", out("Let's check. What is double 7?", asking("What is double 7?", "14", "Doubling"), summarised("asked double 7")))
	phase(r, tutor.PhaseAsked)

	// Turn 4: a wrong answer showing the misconception. The first reply
	// gives the answer away and is regenerated with a correction.
	const probe = "Not quite. Doubling means two equal groups of 7, not adding 2. What do you get?"
	r = m.turn("9",
		out("Not quite, double 7 is 14, not 9.", judging(false), reporting(misconception), summarised("wrong: 9")),
		out(probe, judging(false), reporting(misconception), summarised("wrong: 9, added 2")))
	if r.Reply != probe {
		t.Fatalf("turn 4: the learner got %q, want the regenerated %q", r.Reply, probe)
	}
	phase(r, tutor.PhaseProbe)
	ps := m.prompts[len(m.prompts)-1]
	if got, _ := promptSection(ps[0], "EVALUATOR VERDICT"); !strings.Contains(got, `"9"`) || !strings.Contains(got, "INCORRECT") {
		t.Errorf("turn 4: the verdict section is %q", got)
	}
	if _, ok := promptSection(ps[0], "CORRECTION"); ok {
		t.Error("turn 4: the first prompt already has a correction")
	}
	if _, ok := promptSection(ps[1], "CORRECTION"); !ok {
		t.Error("turn 4: the regeneration has no correction")
	}

	// Turn 5: "I don't know" is encouraged, never answered. The
	// misconception the model reported is in the prompt.
	r = m.turn("I don't know", out("That's okay! Picture 7 apples on one plate and 7 on another. How many apples is that?", summarised("encouraged")))
	phase(r, tutor.PhaseProbe)
	p = m.lastPrompt()
	if got, _ := promptSection(p, "MISCONCEPTIONS"); got != "- Doubling: "+misconception {
		t.Errorf("turn 5: misconceptions %q", got)
	}
	if got, _ := promptSection(p, "DIRECTIVES"); !strings.Contains(got, "don't know") {
		t.Errorf("turn 5: directives %q", got)
	}

	// Turn 6: the same mistake again: the hint rung.
	r = m.turn("it's 9", out("Close, but look again: write 7 twice and add the two together.", judging(false), reporting(misconception), summarised("wrong again: 9")))
	phase(r, tutor.PhaseHint)

	// Pause and resume in the middle. Resume returns the whole stored
	// conversation, longer than the state's window of recent messages.
	paused, err := f.o.Pause(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if paused.Coverage != 50 || !cmp.Equal(paused.ConceptsCovered, []string{"Doubling"}) {
		t.Fatalf("pause summary %+v", paused)
	}
	if se, _ := f.o.Load(ctx, id); !se.State.IsPaused || !se.Row.Summary.IsPaused {
		t.Fatal("not paused")
	}
	res, err := f.o.Resume(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if res.Session.State.IsPaused || res.Session.Row.Summary.IsPaused {
		t.Fatal("still paused after Resume")
	}
	if diff := cmp.Diff(m.transcript, flowMessages(res.Messages)); diff != "" {
		t.Fatalf("Resume's history (-shown +returned):\n%s", diff)
	}
	if len(res.Messages) <= len(res.Session.State.History) {
		t.Fatalf("%d messages, %d in the state's window: the test does not tell them apart", len(res.Messages), len(res.Session.State.History))
	}
	m.last = res.Session

	// Turn 7: the right answer; the tutor moves to step 3. The recurring
	// misconception and the last five turns are in the prompt.
	r = m.turn("14", out("Yes! 7 + 7 = 14: two equal groups of 7. On to halving.", judging(true), advancing(3), summarised("right: 14")))
	step(r, 3)
	if r.Session.State.LastQuestion != nil {
		t.Fatalf("the answered question is still pending: %+v", r.Session.State.LastQuestion)
	}
	p = m.lastPrompt()
	if got, _ := promptSection(p, "MISCONCEPTIONS"); got != "- Doubling: "+misconception+" — RECURRING, seen 2 times: tackle it head-on with a new explanation." {
		t.Errorf("turn 7: misconceptions %q", got)
	}
	if got, _ := promptSection(p, "SESSION SO FAR"); got != "Turn 2: claimed done | Turn 3: asked double 7 | Turn 4: wrong: 9, added 2 | Turn 5: encouraged | Turn 6: wrong again: 9" {
		t.Errorf("turn 7: session so far %q", got)
	}
	if got, _ := promptSection(p, "EVALUATOR VERDICT"); !strings.Contains(got, "CORRECT") || strings.Contains(got, "INCORRECT") {
		t.Errorf("turn 7: verdict %q", got)
	}

	// Turn 8, step 3: the tutor teaches halving, moves to the practice
	// step and asks a bank question; the first reply gives its answer away.
	const ask = "Halving means splitting a number into two equal groups: half of 10 is 5, because 5 + 5 = 10. Now you: what is half of 16?"
	halfOf16 := asking("What is half of 16?", "8", "Halving")
	r = m.turn("ok",
		out(ask+" It's 8, of course.", advancing(4), halfOf16, summarised("asked half of 16")),
		out(ask, advancing(4), halfOf16, summarised("asked half of 16")))
	if r.Reply != ask {
		t.Fatalf("turn 8: the learner got %q, want the regenerated %q", r.Reply, ask)
	}
	step(r, 4)
	if q := r.Session.State.LastQuestion; q == nil || q.QuestionID != "half-1" {
		t.Fatalf("turn 8: pending question %+v, want half-1", q)
	}

	// Turn 9, the final step: session_complete is honoured.
	r = m.turn("8", out("Exactly: 8 + 8 = 16. You've finished the lesson on doubling and halving!", judging(true), completing, summarised("right: 8, done")))
	step(r, total+1)
	if !r.Session.State.IsComplete(r.Session.Topic) || !r.Session.Row.Summary.IsComplete || r.Session.Row.Summary.Coverage != 100 {
		t.Fatalf("not complete after the final step: %+v", r.Session.Row.Summary)
	}
	if err := json.Unmarshal(r.Response, &resp); err != nil || !resp.NextTurn.IsComplete || resp.NextTurn.StepIdx != total+1 {
		t.Fatalf("step response %s (%v)", r.Response, err)
	}
	se, err := f.o.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !se.State.IsComplete(se.Topic) || se.State.TurnCount != 9 {
		t.Fatalf("stored: step %d, %d turns", se.State.CurrentStep, se.State.TurnCount)
	}

	// The turn prompts: the sections the template always renders are in
	// every one, and every section it defines is in some.
	always := []string{"CURRENT STEP", "MASTERY", "MISCONCEPTIONS", "SESSION SO FAR", "PACING", "STUDENT STYLE", "RECENT CONVERSATION", "STUDENT'S MESSAGE"}
	defined := templateHeadings(t, "tutor_turn.tmpl")
	for _, h := range always {
		if !slices.Contains(defined, h) {
			t.Fatalf("tutor_turn.tmpl defines %q, no longer ## %s", defined, h)
		}
	}
	seen := map[string]bool{}
	for i, ps := range m.prompts {
		for _, p := range ps {
			for _, h := range always {
				if _, ok := promptSection(p, h); !ok {
					t.Errorf("turn %d: the prompt lacks ## %s", i+1, h)
				}
			}
			for _, h := range defined {
				if _, ok := promptSection(p, h); ok {
					seen[h] = true
				}
			}
		}
	}
	for _, h := range defined {
		if !seen[h] {
			t.Errorf("no turn prompt of the lesson has ## %s", h)
		}
	}
	// The system prompt is byte-identical on every call, across the pause.
	reqs := fake.Requests()
	system := requestMessage(t, reqs[0], "system")
	for i, req := range reqs[1:] {
		if requestMessage(t, req, "system") != system {
			t.Fatalf("request %d: the system prompt changed", i+2)
		}
	}
	if fake.Pending() != 0 {
		t.Fatalf("%d canned replies unused", fake.Pending())
	}
}

// An exam with a model-backed generator, evaluator and welcome: seven
// generated questions, a correct, a wrong and a partly right answer (the
// last judged by the model, which sees the question and its expected
// answer), then an early end with its results and feedback.
func TestExamFlowWithModelBackedAgents(t *testing.T) {
	ctx := context.Background()
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentExamGenerator, llm.ComponentExamEvaluator, llm.ComponentWelcome)
	type q struct{ text, expected, concept, difficulty, kind string }
	qs := []q{
		{"What is double 8?", "16", "Doubling", "easy", "procedural"},
		{"What is half of 18?", "9", "Halving", "easy", "procedural"},
		{"Explain what halving means.", "Splitting a number into two equal groups", "Halving", "medium", "conceptual"},
		{"What is double 25?", "50", "Doubling", "medium", "procedural"},
		{"Why is double 6 the same as 6 + 6?", "Doubling means two equal groups of 6", "Doubling", "medium", "conceptual"},
		{"What is half of 50?", "25", "Halving", "medium", "procedural"},
		{"A box holds 12 eggs. How many eggs are in two boxes?", "24", "Doubling", "hard", "application"},
	}
	var items []any
	for _, x := range qs {
		items = append(items, map[string]any{"question_text": x.text, "expected_answer": x.expected, "concept": x.concept, "difficulty": x.difficulty, "question_type": x.kind})
	}
	b, _ := json.Marshal(map[string]any{"questions": items})
	// The welcome gives the first answer away; it is repaired.
	fake.Push(llmtest.Reply{Text: string(b)}, message("Let's see what you know about doubling and halving! Here is a warm-up: double 8 is 16. Good luck!"))
	c := f.create(t, doubling, tutor.ModeExam)
	id := c.Session.Row.ID
	if reqs := fake.Requests(); len(reqs) != 2 || !strings.Contains(userPrompt(t, reqs[0]), "Write 7 questions: 2 easy, 4 medium and 1 hard") {
		t.Fatalf("%d requests at creation; the generator was not asked for 7 questions", len(reqs))
	}
	got := c.Session.State.ExamQuestions
	if len(got) != 7 {
		t.Fatalf("%d exam questions, want 7", len(got))
	}
	for i, x := range qs {
		if got[i].QuestionText != x.text || got[i].ExpectedAnswer != x.expected || got[i].Concept != x.concept || string(got[i].Difficulty) != x.difficulty {
			t.Fatalf("question %d is %+v, generated %+v", i+1, got[i], x)
		}
	}
	if !strings.HasSuffix(c.Welcome, "\n\n**Question 1:** What is double 8?") || !strings.Contains(c.Welcome, "Let's see what you know about doubling and halving!") {
		t.Fatalf("welcome %q", c.Welcome)
	}
	for _, x := range got {
		checkNoLeak(t, c.Welcome, x.Expected(c.Session.Topic), x.QuestionText)
	}
	if storedWelcome(t, f, id) != c.Welcome {
		t.Fatal("the stored welcome is not the one sent")
	}

	answers := []struct {
		msg    string
		judge  *llmtest.Reply
		result tutor.Result
	}{
		{"16", nil, tutor.ResultCorrect},
		{"10", nil, tutor.ResultIncorrect},
		{"you cut it in two", &llmtest.Reply{Text: `{"answer_correct": false, "mastery_signal": "adequate", "feedback": "Names cutting, not equal groups.", "reasoning": "half right"}`}, tutor.ResultPartial},
	}
	var r orchestrator.TurnResult
	for i, a := range answers {
		n := len(fake.Requests())
		if a.judge != nil {
			fake.Push(*a.judge)
		}
		r = f.turn(t, id, a.msg)
		reqs := fake.Requests()[n:]
		if a.judge == nil && len(reqs) != 0 {
			t.Fatalf("answer %d: a checkable answer went to the model", i+1)
		}
		if a.judge != nil {
			if len(reqs) != 1 {
				t.Fatalf("answer %d: %d evaluator requests", i+1, len(reqs))
			}
			p := userPrompt(t, reqs[0])
			if got, _ := promptSection(p, "QUESTION 3"); !strings.HasPrefix(got, qs[2].text) {
				t.Errorf("the evaluator's question section is %q", got)
			}
			if got, _ := promptSection(p, "EXPECTED ANSWER"); got != qs[2].expected {
				t.Errorf("the evaluator's expected answer is %q", got)
			}
			if got, _ := promptSection(p, "STUDENT'S ANSWER"); !strings.Contains(got, a.msg) {
				t.Errorf("the evaluator's answer section is %q", got)
			}
		}
		s := r.Session.State
		if s.ExamCurrentIdx != i+1 || s.ExamQuestions[i].Result == nil || *s.ExamQuestions[i].Result != a.result {
			t.Fatalf("answer %d: index %d, result %v, want %s", i+1, s.ExamCurrentIdx, s.ExamQuestions[i].Result, a.result)
		}
		// The reply asks the next question and reveals neither correctness
		// nor an answer.
		next := s.ExamQuestions[i+1]
		if !strings.HasSuffix(r.Reply, next.Prompt()) || strings.Contains(r.Reply, "Correct") || strings.Contains(r.Reply, "Incorrect") {
			t.Fatalf("answer %d: reply %q", i+1, r.Reply)
		}
		checkNoLeak(t, r.Reply, s.ExamQuestions[i].Expected(r.Session.Topic), s.ExamQuestions[i].QuestionText)
		checkNoLeak(t, r.Reply, next.Expected(r.Session.Topic), next.QuestionText)
	}
	if fb := r.Session.State.ExamQuestions[2].Feedback; fb != "Names cutting, not equal groups." {
		t.Errorf("the evaluator's feedback was not recorded: %q", fb)
	}

	// End early: results of the answered questions, every question in the
	// total, feedback by concept.
	score, err := f.o.EndExam(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	want := tutor.ExamScore{Score: 1, Total: 7, Percentage: 14.3, WeightedScore: 1.5, Feedback: &tutor.ExamFeedback{
		Score: 1, Total: 7, Percentage: 14.3, Strengths: []string{"Doubling"}, WeakAreas: []string{"Halving"}, Patterns: []string{},
		NextSteps: []string{"Review these concepts in Teach Me: Halving", "Clarify your understanding of: Halving",
			"Retake the exam to answer every question: 4 were left unanswered."},
		WeightedScore: 1.5, WeightedPercentage: 21.4,
	}}
	if diff := cmp.Diff(want, score); diff != "" {
		t.Fatalf("EndExam (-want +got):\n%s", diff)
	}
	se, err := f.o.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !se.State.ExamFinished || se.Row.Summary.ExamScore == nil || *se.Row.Summary.ExamScore != 1 || *se.Row.Summary.ExamTotal != 7 {
		t.Fatalf("stored: finished %v, columns %+v", se.State.ExamFinished, se.Row.Summary)
	}
	for i, x := range se.State.ExamQuestions[3:] {
		if x.Result != nil || x.StudentAnswer != nil {
			t.Fatalf("unanswered question %d has a result: %+v", i+4, x)
		}
	}
	n := len(fake.Requests())
	r = f.turn(t, id, "25")
	if r.Reply != tutor.ExamAlreadyCompleteReply || len(fake.Requests()) != n {
		t.Fatalf("after the end: %q, %d model requests", r.Reply, len(fake.Requests())-n)
	}
	if fake.Pending() != 0 {
		t.Fatalf("%d canned replies unused", fake.Pending())
	}
}

func flowMessages(ms []store.Message) []flowMessage {
	fm := make([]flowMessage, len(ms))
	for i, m := range ms {
		fm[i] = flowMessage{m.Role, m.Content}
	}
	return fm
}

// TestExamHedgeWithModelBackedTutor: the model-backed tutor words no exam
// turn, so an answer hedged between two values ("18 or 3") gets the fixed
// request for one final answer, the question asked again and left
// unjudged, not "Let's stay with the exam."
func TestExamHedgeWithModelBackedTutor(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentTutor)
	c := f.create(t, doubling, tutor.ModeExam)
	q := c.Session.State.ExamQuestions[0]
	r := f.turn(t, c.Session.Row.ID, q.ExpectedAnswer+" or 3")
	s := r.Session.State
	if !strings.HasPrefix(r.Reply, "I see more than one answer there. Which one is your final answer?") || !strings.HasSuffix(r.Reply, q.Prompt()) {
		t.Errorf("reply %q; want the request for one answer, then the question again", r.Reply)
	}
	if s.ExamCurrentIdx != 0 || s.ExamQuestions[0].Result != nil {
		t.Errorf("the hedge moved the exam on (index %d) or was judged (%v)", s.ExamCurrentIdx, s.ExamQuestions[0].Result)
	}
	if n := len(fake.Requests()); n != 0 {
		t.Errorf("%d model requests for a turn the model-backed tutor does not word", n)
	}
}

// The exam generator writes a multiple-choice question whose expected
// answer names an option the question does not have ("D" for options A–C),
// or a value none of its options is ("16" for options 10, 12, 14):
// whatever the learner picked would be marked wrong. The question is
// dropped like any other unusable item, the retry covering the rest.
func TestExamDropsChoiceWithoutItsAnswer(t *testing.T) {
	for _, tt := range []struct{ name, text, expected string }{
		{"a letter it does not offer", "Which number is double 8? A) 10 B) 16 C) 18", "D"},
		{"an answer none of its options is", "Which number is double 8? A) 10 B) 12 C) 14", "16"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fake := llmtest.NewOpenAI(t)
			f := llmSetup(t, fake.URL, llm.ComponentExamGenerator)
			fake.Push(generatedExam(
				[3]string{tt.text, tt.expected, "Doubling"},
				[3]string{"What is half of 18?", "9", "Halving"},
				[3]string{"What is double 25?", "50", "Doubling"},
				[3]string{"What is half of 50?", "25", "Halving"},
			))
			c := f.create(t, doubling, tutor.ModeExam)
			for i, q := range c.Session.State.ExamQuestions {
				if q.QuestionText == tt.text {
					t.Fatalf("exam question %d %q is kept with expected answer %q, which none of its options is: no choice the learner makes can be right",
						i+1, q.QuestionText, q.ExpectedAnswer)
				}
			}
		})
	}
}

// In a doubts session the model answers a doubt, closes with "Do you have
// any other doubts?", and sets session_complete, the learner having said
// nothing of being done. The session ended, and the learner who took up
// the invitation got "start a new session". A doubts session ends when
// the learner is done ("give brief warm goodbye and set session_complete
// = true without further questions"): a reply that invites another doubt
// does not end it.
func TestClarifyInvitationKeepsTheSessionOpen(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentTutor)
	c := f.create(t, doubling, tutor.ModeClarify)
	m := newModelFlow(t, f, fake, c)
	const reply = "Halving undoes doubling: double 5 is 10, and half of 10 is 5. Do you have any other doubts?"
	r := m.turn("Is halving the opposite of doubling?", out(reply, discussing("question", "Halving"), completing, summarised("answered halving")))
	if r.Session.State.ClarifyComplete && strings.HasSuffix(strings.TrimSpace(r.Reply), "?") {
		t.Fatalf("the learner asked a doubt and read %q, yet the session ended (clarify_complete): their next doubt only gets the post-completion reply", r.Reply)
	}
}

// The model answers a doubt well but scores the concept on a 0–10 scale
// ("score": 8), and did so again when asked to repair: the learner got
// the failure reply and lost their doubt. A score outside [0, 1] is
// clamped, as the reference does (CONTRACT §9.5), not refused.
func TestScoreOutsideRangeIsClamped(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentTutor)
	c := f.create(t, doubling, tutor.ModeClarify)
	const answer = "Halving undoes doubling: double 5 is 10, and half of 10 is 5. Does that make sense? Any other doubts?"
	scored := func(m map[string]any) {
		m["intent"], m["mastery_updates"] = "question", []any{map[string]any{"concept": "Halving", "score": 8}}
	}
	fake.Push(out(answer, scored), out(answer, scored))
	r := f.turn(t, c.Session.Row.ID, "Is halving the opposite of doubling?")
	if r.Reply != answer || len(r.Session.State.ConceptsDiscussed) == 0 {
		t.Fatalf("the model answered the doubt (with a score of 8 for Halving, twice); the learner got %q (intent %s), concepts discussed %v",
			r.Reply, r.Intent, r.Session.State.ConceptsDiscussed)
	}
}

// To a generated multiple-choice question (options A-C, answer B) the
// learner hedges "B or C". It went to the exam evaluator, which may give
// it partial credit, and the exam moved on. The learner is asked for one
// final answer and the question stands, as for a bank question's "A or C"
// or a number hedged ("12 or 14").
func TestGeneratedChoiceHedgeAsksForOne(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentExamGenerator, llm.ComponentExamEvaluator)
	fake.Push(generatedExam(
		[3]string{"Which number is double 8? A) 10 B) 16 C) 18", "B", "Doubling"},
		[3]string{"What is half of 18?", "9", "Halving"},
		[3]string{"What is double 25?", "50", "Doubling"},
	))
	c := f.create(t, doubling, tutor.ModeExam)
	if len(c.Session.State.ExamQuestions) != 3 || c.Session.State.ExamQuestions[0].ExpectedAnswer != "B) 16" {
		t.Fatalf("exam %+v", c.Session.State.ExamQuestions)
	}
	n := len(fake.Requests())
	// What a model may well answer to a hedge with the right option in it.
	fake.Push(llmtest.Reply{Text: `{"answer_correct": false, "mastery_signal": "adequate", "feedback": "Named the right option beside a wrong one.", "reasoning": "hedged"}`})
	r := f.turn(t, c.Session.Row.ID, "B or C")
	s := r.Session.State
	if s.ExamCurrentIdx != 0 || s.ExamQuestions[0].Result != nil {
		t.Fatalf("\"B or C\" to a question with options A–C (answer B) was judged %q by the %d model call(s) and the exam moved on (index %d); want the learner asked for one final answer, the question standing: reply %q",
			examResult(s, 0), len(fake.Requests())-n, s.ExamCurrentIdx, r.Reply)
	}
}

// The model names the same misconception with and without a full stop:
// one misconception counted twice, so that it is flagged RECURRING in the
// turn prompt (CONTRACT §9.4) and listed once in the summary.
func TestMisconceptionNamedWithAFullStopRecurs(t *testing.T) {
	f, fake, id := askDouble7(t, "")
	fake.Push(out("Hmm, look again: how many groups of 7 do we need?", judging(false), reporting("Adds 2 instead of doubling.")))
	f.turn(t, id, "9")
	fake.Push(out("Let's look again: write 7 twice and add them. What do you get?", judging(false), reporting("adds 2 instead of doubling")))
	r := f.turn(t, id, "9")
	if ms := r.Session.State.Misconceptions; len(ms) != 1 || ms[0].Count != 2 {
		t.Fatalf("misconceptions %+v; want one, counted twice", ms)
	}
}

// advance_to_step 99 on the first turn (step 1 of 4) does not end the
// lesson: moving past the plan, like session_complete, is allowed only
// from the final step (system prompt rule 9: "Never end before the final
// step").
func TestAdvancePastThePlanStopsAtTheFinalStep(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentTutor)
	c := f.create(t, doubling, tutor.ModeTeachMe)
	fake.Push(out("Great, you seem to know this already! Let's skip ahead.", advancing(99)))
	r := f.turn(t, c.Session.Row.ID, "yes ready")
	if s := r.Session.State; s.IsComplete(r.Session.Topic) || s.CurrentStep != r.Session.Topic.TotalSteps() {
		t.Fatalf("after advance_to_step 99 from step 1: step %d of %d, complete %v", s.CurrentStep, r.Session.Topic.TotalSteps(), s.IsComplete(r.Session.Topic))
	}
}

// The model's own question comes with its expected answer written as a
// statement ("Double 8 is 16.", "8 + 8 = 16", "The answer is 16"): the
// learner's "16" is judged against the value it states, not the sentence,
// so a right answer is recorded right and the prompt's verdict says so.
func TestExpectedAnswerWrittenAsAStatementJudgesItsValue(t *testing.T) {
	for _, exp := range []string{"Double 8 is 16.", "8 + 8 = 16", "The answer is 16"} {
		fake := llmtest.NewOpenAI(t)
		f := llmSetup(t, fake.URL, llm.ComponentTutor)
		id := f.create(t, doubling, tutor.ModeTeachMe).Session.Row.ID
		fake.Push(out("Your turn: what is double 8?", asking("What is double 8?", exp, "Doubling")))
		f.turn(t, id, "ok")
		fake.Push(out("Yes! Two groups of 8 make 16.", judging(true)))
		r := f.turn(t, id, "16")
		v, _ := promptSection(userPrompt(t, fake.Requests()[len(fake.Requests())-1]), "EVALUATOR VERDICT")
		if res := r.Session.State.LastAnswerResult; res == nil || *res != tutor.ResultCorrect || !strings.Contains(v, "CORRECT") || strings.Contains(v, "INCORRECT") {
			t.Errorf("expected_answer %q: the right answer 16 was recorded %v; prompt verdict %q", exp, res, v)
		}
	}
}

// A learner shares their phone number: the safety gate flags the message,
// and the model-backed tutor never sees it again, neither in the next
// lesson turn's conversation nor, after the session has ended, in the
// post-completion reply's. The learner's transcript keeps what they wrote.
func TestFlaggedMessageIsWithheldFromLaterPrompts(t *testing.T) {
	const (
		phone   = "9876543210"
		flagged = "my phone number is " + phone
	)
	checkWithheld := func(t *testing.T, m *modelFlow) {
		t.Helper()
		p := m.lastPrompt()
		if strings.Contains(p, phone) {
			t.Errorf("the model's prompt holds the flagged message:\n%s", p)
		}
		if got, _ := promptSection(p, "RECENT CONVERSATION"); !strings.Contains(got, "Student: (message withheld") {
			t.Errorf("the prompt's conversation does not show the flagged message withheld:\n%s", got)
		}
		msgs, err := m.f.o.Messages(context.Background(), m.id)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(m.transcript, flowMessages(msgs)); diff != "" {
			t.Errorf("stored conversation (-shown +stored):\n%s", diff)
		}
		if m.fake.Pending() != 0 {
			t.Errorf("%d canned replies unused", m.fake.Pending())
		}
	}

	t.Run("lesson", func(t *testing.T) {
		fake := llmtest.NewOpenAI(t)
		f := llmSetup(t, fake.URL, llm.ComponentTutor)
		m := newModelFlow(t, f, fake, f.create(t, doubling, tutor.ModeTeachMe))
		if r := m.turn(flagged); r.Intent != orchestrator.IntentUnsafe {
			t.Fatalf("the phone number was not flagged: intent %s, reply %q", r.Intent, r.Reply)
		}
		m.turn("ok, let's start", out("Doubling means making two equal groups of a number: double 6 is 6 + 6. Shall we try one?",
			advancing(2), summarised("explained doubling")))
		checkWithheld(t, m)
	})

	t.Run("after the end", func(t *testing.T) {
		fake := llmtest.NewOpenAI(t)
		f := llmSetup(t, fake.URL, llm.ComponentTutor)
		m := newModelFlow(t, f, fake, f.create(t, doubling, tutor.ModeClarify))
		m.turn("No doubts today, bye!", out("Bye! Come back any time you have a doubt.", discussing("done"), completing, summarised("said goodbye")))
		if r := m.turn(flagged); r.Intent != orchestrator.IntentUnsafe {
			t.Fatalf("the phone number was not flagged after the end: intent %s, reply %q", r.Intent, r.Reply)
		}
		m.turn("thanks!", message("You're welcome! Start a new session whenever you like."))
		checkWithheld(t, m)
	})
}
