package llmagent

import (
	"context"
	"errors"
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
