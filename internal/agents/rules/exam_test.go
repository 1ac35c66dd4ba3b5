package rules

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

func TestMix(t *testing.T) {
	tests := []struct {
		n    int
		want [3]int
	}{
		{0, [3]int{0, 0, 0}},
		{1, [3]int{0, 1, 0}},
		{3, [3]int{1, 1, 1}},
		{5, [3]int{2, 2, 1}},
		{7, [3]int{2, 4, 1}},
		{10, [3]int{3, 5, 2}},
		{20, [3]int{6, 10, 4}},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.n), func(t *testing.T) {
			if got := mix(tt.n); got != tt.want {
				t.Errorf("mix(%d) = %v, want %v", tt.n, got, tt.want)
			}
		})
	}
}

func generate(t *testing.T, topic *tutor.Topic, n int, seed string) []tutor.ExamQuestion {
	t.Helper()
	qs, c, err := NewExamGenerator().Generate(context.Background(), agents.ExamRequest{Topic: topic, Count: n, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	if c.Provider != Provider || c.Agent != agents.NameExamGenerator || len(c.Output) == 0 {
		t.Errorf("call record %+v", c)
	}
	return qs
}

func difficulties(qs []tutor.ExamQuestion) [3]int {
	var got [3]int
	for _, q := range qs {
		got[rank(q.Difficulty)]++
	}
	return got
}

// TestGenerateSample draws exams of 7 and 3 questions from every subtopic
// of the sample: the mix, the order, the spread over concepts, the texts
// and answers, and reproducibility.
func TestGenerateSample(t *testing.T) {
	topics, keys := sampleTopics(t)
	differ := 0
	for _, key := range keys {
		topic := topics[key]
		for _, n := range []int{7, 3} {
			t.Run(key+"/"+strconv.Itoa(n), func(t *testing.T) {
				qs := generate(t, topic, n, "exam-1")
				if len(qs) != n {
					t.Fatalf("%d questions, want %d", len(qs), n)
				}
				var bank [3]int
				for _, q := range topic.Questions {
					bank[rank(q.Difficulty)]++
				}
				want := mix(n)
				for d := range want {
					want[d] = min(want[d], bank[d])
				}
				got := difficulties(qs)
				for d := range want {
					if got[d] < want[d] {
						t.Errorf("difficulties %v, want at least %v (bank %v)", got, want, bank)
					}
				}
				if !slices.IsSortedFunc(qs, func(a, b tutor.ExamQuestion) int { return rank(a.Difficulty) - rank(b.Difficulty) }) {
					t.Errorf("questions are not ordered easy to hard: %v", qs)
				}
				ids, concepts := map[string]bool{}, map[string]bool{}
				for i, q := range qs {
					bq, ok := topic.Question(q.QuestionID)
					if !ok || ids[q.QuestionID] || q.QuestionIdx != i || q.ExpectedAnswer != bq.Answer || q.Concept != bq.Concept {
						t.Errorf("question %d: %+v", i, q)
					}
					if answer.Evaluate(q.Expected(topic), bq.Answer).Verdict != answer.Correct {
						t.Errorf("question %d: the bank answer is not judged right", i)
					}
					for _, o := range bq.Options {
						if !strings.Contains(q.QuestionText, o) {
							t.Errorf("question %d: %q does not show option %q", i, q.QuestionText, o)
						}
					}
					ids[q.QuestionID], concepts[q.Concept] = true, true
				}
				if len(topic.Concepts()) >= 3 && len(concepts) < min(3, n) {
					t.Errorf("questions on %d concepts, want at least %d", len(concepts), min(3, n))
				}
				if diff := cmp.Diff(qs, generate(t, topic, n, "exam-1")); diff != "" {
					t.Errorf("the same seed gave another exam:\n%s", diff)
				}
			})
		}
		if !cmp.Equal(generate(t, topic, 7, "exam-1"), generate(t, topic, 7, "exam-2")) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("another seed never gave another exam")
	}
}

func TestGenerateFallback(t *testing.T) {
	bank := func(ds ...tutor.Difficulty) *tutor.Topic {
		tp := &tutor.Topic{Steps: []tutor.Step{{ID: 1, Type: tutor.StepCheck, Concept: "C"}}}
		for i, d := range ds {
			tp.Questions = append(tp.Questions, tutor.BankQuestion{ID: "q" + strconv.Itoa(i), Text: "Q?", Answer: "1", Concept: "C", Difficulty: d})
		}
		return tp
	}
	m, e, h := tutor.Medium, tutor.Easy, tutor.Hard
	tests := []struct {
		name  string
		topic *tutor.Topic
		n     int
		want  [3]int
	}{
		{"only medium", bank(m, m, m, m, m, m, m, m), 7, [3]int{0, 7, 0}},
		{"no hard", bank(e, e, e, m, m, m, m, m), 7, [3]int{2, 5, 0}},
		{"no easy", bank(m, m, m, m, h, h, h), 7, [3]int{0, 4, 3}},
		{"small bank", bank(e, h), 7, [3]int{1, 0, 1}},
		{"unset difficulty", bank("", "", ""), 3, [3]int{0, 3, 0}},
		{"default count", bank(m, m, m, m, m, m, m, m, m, m), 0, [3]int{0, 7, 0}},
		{"empty bank", bank(), 7, [3]int{}},
		{"no topic", nil, 7, [3]int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			qs := generate(t, tt.topic, tt.n, "seed")
			if got := difficulties(qs); got != tt.want {
				t.Errorf("difficulties %v, want %v", got, tt.want)
			}
		})
	}
}

func TestJudge(t *testing.T) {
	topic := sampleTopic(t, photosynthesis)
	free := tutor.ExamQuestion{QuestionIdx: 2, QuestionText: "Why do leaves need light to make food?",
		ExpectedAnswer: "Light gives the energy that chlorophyll traps to turn carbon dioxide and water into glucose."}
	bankQ := tutor.ExamQuestion{QuestionText: "Which gas do plants take in?", ExpectedAnswer: "carbon dioxide", QuestionID: "raw-1"}
	tests := []struct {
		name string
		q    tutor.ExamQuestion
		msg  string
		pre  tutor.Precheck
		eval answer.Verdict
		want tutor.Result
	}{
		{"most key words", free, "chlorophyll traps light energy to turn carbon dioxide and water into glucose", "", answer.CannotCheck, tutor.ResultCorrect},
		{"some key words", free, "light gives energy to make glucose", "", answer.CannotCheck, tutor.ResultPartial},
		{"few key words", free, "because plants are green", "", answer.CannotCheck, tutor.ResultIncorrect},
		{"negated", free, "light does not give the energy that chlorophyll traps to turn carbon dioxide and water into glucose", "", answer.CannotCheck, tutor.ResultPartial},
		{"accepted form", bankQ, "I think it is CO2", "", answer.CannotCheck, tutor.ResultCorrect},
		{"empty", free, "", "", answer.CannotCheck, tutor.ResultIncorrect},
		{"i don't know", free, "I don't know", tutor.PrecheckIDK, "", tutor.ResultIncorrect},
		{"evaluator's verdict stands", bankQ, "carbon dioxide", "", answer.Incorrect, tutor.ResultIncorrect},
		{"evaluator's partial stands", bankQ, "carbon", "", answer.Partial, tutor.ResultPartial},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			turn := agents.Turn{State: tutor.State{Mode: tutor.ModeExam}, Topic: topic, Message: tt.msg, Precheck: tt.pre, Evaluation: answer.Result{Verdict: tt.eval}}
			j, c, err := NewExamEvaluator().Judge(context.Background(), turn, tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if c.Provider != Provider || j.Feedback == "" {
				t.Errorf("call %+v, feedback %q", c, j.Feedback)
			}
			// The domain maps the judgement to a result as it does for a model.
			s := tutor.State{Mode: tutor.ModeExam}
			out := &tutor.TutorOutput{Response: "x", Intent: tutor.IntentAnswer, AnswerCorrect: j.AnswerCorrect, MasterySignal: j.MasterySignal}
			g := tutor.Guard(s, topic, tutor.Outcome{Output: out, Precheck: tt.pre, Verdict: tt.eval})
			if g.Result == nil || *g.Result != tt.want {
				t.Errorf("result %v, want %s (judgement %+v)", g.Result, tt.want, j)
			}
		})
	}
}

// TestExamHedge: an exam answer that hedges between two values ("3:5 or
// 5:3") is asked for one final answer, as a lesson asks, not told to stay
// with the exam; the turn judges nothing. Other turns sent to the tutor
// still stay with the exam.
func TestExamHedge(t *testing.T) {
	topic := sampleTopic(t, "mathematics/ratios-and-percentages/ratios-and-proportions")
	bq, ok := topic.Question("ratio-1")
	if !ok {
		t.Fatal("the sample has no question ratio-1")
	}
	tests := []struct {
		msg   string
		hedge bool
	}{
		{bq.Answer + " or 5:3", true},
		{"is it 5:3 or " + bq.Answer + "?", true},
		{bq.Answer, false},
	}
	for _, tt := range tests {
		for _, id := range []string{"exam-1", "exam-2", "exam-3"} {
			t.Run(tt.msg+"/"+id, func(t *testing.T) {
				s := tutor.State{SessionID: id, Mode: tutor.ModeExam, TurnCount: 2}
				ev := answer.Evaluate(bq.Expected(), tt.msg)
				turn := agents.Turn{State: s, Topic: topic, Message: tt.msg, Evaluation: ev}
				r, _, err := NewTutor().Respond(context.Background(), turn)
				if err != nil {
					t.Fatal(err)
				}
				out := r.Output
				if got := says(out.Response, mChoose); got != tt.hedge || tt.hedge == (out.Response == examStay) {
					t.Errorf("%q (evaluated %s, %q): reply %q; want a request to pick one answer: %t", tt.msg, ev.Verdict, ev.Reason, out.Response, tt.hedge)
				}
				if out.AnswerCorrect != nil || out.MasterySignal != nil || len(out.MasteryUpdates) != 0 || r.NextQuestion != nil {
					t.Errorf("%q: the reply judges the question: %+v", tt.msg, out)
				}
				if err := out.Validate(); err != nil {
					t.Error(err)
				}
			})
		}
	}
}
