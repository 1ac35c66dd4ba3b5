package llmagent

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/llm/llmtest"
	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

func TestDifficultyMix(t *testing.T) {
	tests := []struct{ n, easy, medium, hard int }{
		{1, 0, 1, 0},
		{2, 1, 1, 0},
		{3, 1, 1, 1},
		{5, 2, 2, 1},
		{7, 2, 4, 1},
		{10, 3, 5, 2},
	}
	for _, tt := range tests {
		e, m, h := difficultyMix(tt.n)
		if e != tt.easy || m != tt.medium || h != tt.hard {
			t.Errorf("difficultyMix(%d) = %d, %d, %d; want %d, %d, %d", tt.n, e, m, h, tt.easy, tt.medium, tt.hard)
		}
	}
}

func (f *fake) examGenerator(t *testing.T) *ExamGenerator {
	return NewExamGenerator(f.client(t, llm.ComponentExamGenerator), f.config(llm.ComponentExamGenerator), opts())
}

func TestExamGeneratorMapsAndValidatesItems(t *testing.T) {
	item := func(text, expected, concept string, d difficulty, qt questionType) examItem {
		return examItem{QuestionText: text, ExpectedAnswer: expected, Concept: concept, Difficulty: d, QuestionType: qt}
	}
	set := examQuestionSet{Questions: []examItem{
		item("What is 1/7 + 3/7?", "4/7", "Like fractions", "easy", "procedural"),
		item("What is the capital of France?", "Paris", "Geography", "easy", "conceptual"),
		item("  ", "1/2", "Like fractions", "easy", "procedural"),
		item("Why do we need a common denominator?", " ", "Unlike fractions", "medium", "conceptual"),
		item("what is 1/7 + 3/7", "4/7", "Like fractions", "easy", "procedural"),
		item("  Write 2 1/4 as an improper fraction.  ", " 9/4 ", "mixed NUMBERS", "medium", "procedural"),
		item("Riya ate 1/4 of a cake and Sam ate 1/3. How much did they eat?", "7/12", "Word problems", "hard", "application"),
		item("What is 1/2 + 1/4?", "3/4", "Unlike fractions", "medium", "procedural"),
	}}
	f := newOpenAI(t, reply(t, set))
	qs, c, err := f.examGenerator(t).Generate(context.Background(), agents.ExamRequest{Topic: sampleTopic(t, addingFractions), Student: student(), Count: 3, Seed: "sess-1"})
	if err != nil {
		t.Fatal(err)
	}
	want := []tutor.ExamQuestion{
		{QuestionIdx: 0, QuestionText: "What is 1/7 + 3/7?", Concept: "Like fractions", Difficulty: tutor.Easy, QuestionType: tutor.QuestionProcedural, ExpectedAnswer: "4/7"},
		{QuestionIdx: 1, QuestionText: "Write 2 1/4 as an improper fraction.", Concept: "Mixed numbers", Difficulty: tutor.Medium, QuestionType: tutor.QuestionProcedural, ExpectedAnswer: "9/4"},
		{QuestionIdx: 2, QuestionText: "Riya ate 1/4 of a cake and Sam ate 1/3. How much did they eat?", Concept: "Word problems", Difficulty: tutor.Hard, QuestionType: tutor.QuestionApplication, ExpectedAnswer: "7/12"},
	}
	if diff := cmp.Diff(want, qs); diff != "" {
		t.Errorf("questions (-want +got):\n%s", diff)
	}
	if c.Agent != agents.NameExamGenerator || c.Err != nil || len(c.Output) == 0 {
		t.Errorf("call record %+v", c)
	}
	if !strings.Contains(c.Prompt, "Write 3 questions: 1 easy, 1 medium and 1 hard, with mixed question types.") {
		t.Errorf("the prompt does not ask for the mix:\n%s", c.Prompt)
	}
	body := string(f.srv.Requests()[0].Body)
	for _, enum := range []string{`"enum":["easy","medium","hard"]`, `"enum":["conceptual","procedural","application"]`} {
		if !strings.Contains(body, enum) {
			t.Errorf("the output schema lacks %s", enum)
		}
	}
	// The questions start an exam as they are.
	if _, err := tutor.NewState(tutor.NewSession{ID: "s", Mode: tutor.ModeExam, Topic: sampleTopic(t, addingFractions), Student: student(), ExamQuestions: qs, Now: epoch}); err != nil {
		t.Errorf("the questions do not start an exam: %v", err)
	}
}

func TestExamGeneratorCounts(t *testing.T) {
	tests := []struct {
		count int
		want  string
	}{
		{0, "Write 7 questions: 2 easy, 4 medium and 1 hard"},
		{3, "Write 3 questions: 1 easy, 1 medium and 1 hard"},
		{500, "Write 50 questions: 15 easy, 25 medium and 10 hard"},
	}
	for _, tt := range tests {
		set := examQuestionSet{Questions: []examItem{{QuestionText: "What is 1/7 + 3/7?", ExpectedAnswer: "4/7", Concept: "Like fractions", Difficulty: "easy", QuestionType: "procedural"}}}
		f := newOpenAI(t, reply(t, set))
		_, c, err := f.examGenerator(t).Generate(context.Background(), agents.ExamRequest{Topic: sampleTopic(t, addingFractions), Student: student(), Count: tt.count})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(c.Prompt, tt.want) {
			t.Errorf("count %d: the prompt lacks %q", tt.count, tt.want)
		}
	}
}

func TestExamGeneratorFailures(t *testing.T) {
	empty := llmtest.Reply{Text: `{"questions": []}`}
	tests := []struct {
		name     string
		topic    *tutor.Topic
		replies  []llmtest.Reply
		want     error
		requests int
	}{
		{"no lesson", nil, nil, llm.ErrInvalidRequest, 0},
		{"a lesson without concepts", &tutor.Topic{TopicName: "Empty"}, nil, llm.ErrInvalidRequest, 0},
		{"no questions, even after a repair", sampleTopic(t, addingFractions), []llmtest.Reply{empty, empty}, llm.ErrInvalidOutput, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newOpenAI(t, tt.replies...)
			qs, c, err := f.examGenerator(t).Generate(context.Background(), agents.ExamRequest{Topic: tt.topic, Student: student(), Count: 7})
			if !errors.Is(err, tt.want) || c.Err != err || qs != nil {
				t.Errorf("questions %v, error %v, call error %v; want %v", qs, err, c.Err, tt.want)
			}
			if n := len(f.srv.Requests()); n != tt.requests {
				t.Errorf("%d requests, want %d", n, tt.requests)
			}
		})
	}
}

func (f *fake) examEvaluator(t *testing.T) *ExamEvaluator {
	return NewExamEvaluator(f.client(t, llm.ComponentExamEvaluator), f.config(llm.ComponentExamEvaluator), opts())
}

func TestExamEvaluatorSeesTheQuestionAndItsAnswer(t *testing.T) {
	tests := []struct {
		name    string
		marking examMarking
		want    agents.ExamJudgement
	}{
		{"correct", examMarking{true, "strong", " Clear reason. ", "Right."}, agents.ExamJudgement{AnswerCorrect: new(true), MasterySignal: new(tutor.SignalStrong), Feedback: "Clear reason."}},
		{"partly right", examMarking{false, "adequate", "Right idea, vague.", "Partly."}, agents.ExamJudgement{AnswerCorrect: new(false), MasterySignal: new(tutor.SignalAdequate), Feedback: "Right idea, vague."}},
		{"wrong", examMarking{false, "needs_remediation", "Confuses the parts.", "Wrong."}, agents.ExamJudgement{AnswerCorrect: new(false), MasterySignal: new(tutor.SignalNeedsRemediation), Feedback: "Confuses the parts."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			se := newSession(t, tutor.ModeExam, sampleTopic(t, addingFractions))
			q := se.state.ExamQuestions[1]
			f := newOpenAI(t, reply(t, tt.marking))
			j, c, err := f.examEvaluator(t).Judge(context.Background(), agents.Turn{State: se.state, Topic: se.topic, Message: "they are different sizes"}, q)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, j); diff != "" {
				t.Errorf("judgement (-want +got):\n%s", diff)
			}
			for _, want := range []string{"## QUESTION 2\n" + q.QuestionText, "## EXPECTED ANSWER\n" + q.ExpectedAnswer, "## STUDENT'S ANSWER\n\"\"\"\nthey are different sizes\n\"\"\"", "You do not teach"} {
				if !strings.Contains(c.Prompt, want) {
					t.Errorf("the prompt lacks %q:\n%s", want, c.Prompt)
				}
			}
			if c.Reasoning != tt.marking.Reasoning || c.Agent != agents.NameExamEvaluator {
				t.Errorf("call record %+v", c)
			}
		})
	}
}

func TestExamEvaluatorShowsTheBanksAcceptedFormsAndAVerdict(t *testing.T) {
	se := newSession(t, tutor.ModeExam, sampleTopic(t, addingFractions))
	se.topic.Questions[0].Accept = []string{"seven ninths"}
	q := se.state.ExamQuestions[0]
	q.QuestionID, q.QuestionText = "like-1", "What is 2/9 + 5/9?"
	turn := agents.Turn{State: se.state, Topic: se.topic, Message: "7/9 I think", Evaluation: answer.Result{Verdict: answer.Correct, Extracted: "7/9"}}
	f := newOpenAI(t, reply(t, examMarking{true, "strong", "Right.", "Matches."}))
	_, c, err := f.examEvaluator(t).Judge(context.Background(), turn, q)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## EXPECTED ANSWER\n7/9 (also accepted: seven ninths)", "## EVALUATOR VERDICT\nThe program checked the answer: correct."} {
		if !strings.Contains(c.Prompt, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, c.Prompt)
		}
	}
}

func TestExamGeneratorConcepts(t *testing.T) {
	// The plan's concepts: Like fractions, Unlike fractions, Mixed
	// numbers, Word problems.
	tests := []struct {
		named string
		want  string // "" when the question is dropped
	}{
		{"", "Like fractions"},                               // question 0: concept 0 mod 4
		{"  ", "Unlike fractions"},                           // question 1: concept 1 mod 4
		{"Like fractions", "Like fractions"},                 // as the plan spells it
		{"like-FRACTIONS", "Like fractions"},                 // case and punctuation
		{" Mixed  numbers. ", "Mixed numbers"},               // spacing
		{"WordProblems", "Word problems"},                    // no space at all
		{"Adding like fractions", "Like fractions"},          // holds one concept's words
		{"Word", "Word problems"},                            // within one concept's words
		{"Fractions", ""},                                    // within two concepts' words
		{"Geography", ""},                                    // not the lesson's
		{"Unlike fractions and mixed numbers", ""},           // holds two concepts' words
		{"?!", "Like fractions"},                             // no name at all: question 4 mod 4
		{"unlike fractions", "Unlike fractions"},             // not "Like fractions"
		{"Subtracting unlike fractions", "Unlike fractions"}, // nor here
	}
	var items []examItem
	for i, tt := range tests {
		items = append(items, examItem{QuestionText: "What is " + strconv.Itoa(i+1) + "/9 + 1/9?", ExpectedAnswer: strconv.Itoa(i+2) + "/9", Concept: tt.named, Difficulty: "easy", QuestionType: "procedural"})
	}
	f := newOpenAI(t, reply(t, examQuestionSet{Questions: items}))
	qs, _, err := f.examGenerator(t).Generate(context.Background(), agents.ExamRequest{Topic: sampleTopic(t, addingFractions), Student: student(), Count: 50})
	if err != nil {
		t.Fatal(err)
	}
	var want, got []string
	for i, tt := range tests {
		if tt.want != "" {
			want = append(want, items[i].QuestionText+" → "+tt.want)
		}
	}
	for _, q := range qs {
		got = append(got, q.QuestionText+" → "+q.Concept)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("questions and concepts (-want +got):\n%s", diff)
	}
}

func TestExamGeneratorMultipleChoice(t *testing.T) {
	item := func(text, expected string) examItem {
		return examItem{QuestionText: text, ExpectedAnswer: expected, Concept: "Like fractions", Difficulty: "easy", QuestionType: "conceptual"}
	}
	type choice struct {
		item     examItem
		expected string // "": the question is dropped
		kind     answer.Kind
	}
	tests := []choice{
		{item("What is 1/5 + 2/5? A) 3/10 B) 3/5 C) 2/5", "B"), "B) 3/5", kindJudged},
		{item("What is 1/7 + 3/7? A) 4/7 B) 4/14 C) 3/7", "A) 4/7"), "A) 4/7", kindJudged},
		{item("What is 2/9 + 5/9? A) 7/18 B) 3/9 C) 7/9", "7/9"), "C) 7/9", kindJudged},
		{item("What is 1/4 + 1/4? (a) 2/8 (b) 1/2 (c) 1/8", "(b)"), "b) 1/2", kindJudged},
		{item("Which is bigger, 3/8 or 5/8?\nA. 3/8\nB. 5/8", "Option B"), "B) 5/8", kindJudged},
		{item("Which fraction equals 2/4? A) 1/3, B) 1/2 or C) 2/3?", "2/4"), "B) 1/2", kindJudged},
		// No option is the expected answer: whatever the learner picks
		// would be marked wrong, so the question is dropped.
		{item("What do 1/6 + 1/6 make? A) 2/12 B) 1/3 C) 2/3", "5/6"), "", ""},
		{item("What do 1/6 + 2/6 make? A) 3/12 B) 1/2 C) 2/3", "D"), "", ""},
		// Not laid out as options: the answer stands, for code to check.
		{item("What is 3/10 + 4/10?", "7/10"), "7/10", ""},
		{item("Point A: 1/3 of a strip. Point B: 1/3 more. How much is that?", "2/3"), "2/3", ""},
		{item("What is 1/8 + 2/8? B) 3/8 C) 3/16", "B"), "B", ""},
	}
	var items []examItem
	for _, tt := range tests {
		items = append(items, tt.item)
	}
	f := newOpenAI(t, reply(t, examQuestionSet{Questions: items}))
	qs, _, err := f.examGenerator(t).Generate(context.Background(), agents.ExamRequest{Topic: sampleTopic(t, addingFractions), Student: student(), Count: 50})
	if err != nil {
		t.Fatal(err)
	}
	tests = slices.DeleteFunc(tests, func(tt choice) bool { return tt.expected == "" })
	if len(qs) != len(tests) {
		t.Fatalf("%d questions; want the %d with a right option or none", len(qs), len(tests))
	}
	for i, tt := range tests {
		q := qs[i]
		if q.QuestionText != strings.TrimSpace(tt.item.QuestionText) || q.ExpectedAnswer != tt.expected || q.AnswerKind != tt.kind {
			t.Errorf("%q, expected %q: expected %q, kind %q; want %q, kind %q", tt.item.QuestionText, tt.item.ExpectedAnswer, q.ExpectedAnswer, q.AnswerKind, tt.expected, tt.kind)
		}
		if tt.kind != kindJudged {
			continue
		}
		// Code leaves every answer to a choice to the exam evaluator.
		for _, msg := range []string{"B", "3/5", "option 2", "the first one"} {
			if v := answer.Evaluate(q.Expected(sampleTopic(t, addingFractions)), msg).Verdict; v != answer.CannotCheck {
				t.Errorf("%q to %q: verdict %s, want %s", msg, q.QuestionText, v, answer.CannotCheck)
			}
		}
	}
	if _, err := tutor.NewState(tutor.NewSession{ID: "s", Mode: tutor.ModeExam, Topic: sampleTopic(t, addingFractions), Student: student(), ExamQuestions: qs, Now: epoch}); err != nil {
		t.Errorf("the questions do not start an exam: %v", err)
	}
}

func TestExamEvaluatorJudgesAChoiceByItsOptions(t *testing.T) {
	se := newSession(t, tutor.ModeExam, sampleTopic(t, addingFractions))
	q := tutor.ExamQuestion{QuestionText: "What is 1/5 + 2/5? A) 3/10 B) 3/5 C) 2/5", Concept: "Like fractions", Difficulty: tutor.Easy, QuestionType: tutor.QuestionConceptual, ExpectedAnswer: "B) 3/5", AnswerKind: kindJudged}
	f := newOpenAI(t, reply(t, examMarking{true, "strong", "Right.", "B is 3/5."}))
	j, c, err := f.examEvaluator(t).Judge(context.Background(), agents.Turn{State: se.state, Topic: se.topic, Message: "B"}, q)
	if err != nil {
		t.Fatal(err)
	}
	if j.AnswerCorrect == nil || !*j.AnswerCorrect {
		t.Errorf("judgement %+v", j)
	}
	for _, want := range []string{"## QUESTION 1\n" + q.QuestionText, "## EXPECTED ANSWER\nB) 3/5\n"} {
		if !strings.Contains(c.Prompt, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, c.Prompt)
		}
	}
	if strings.Contains(c.Prompt, "EVALUATOR VERDICT") {
		t.Errorf("the prompt has a verdict:\n%s", c.Prompt)
	}
}
