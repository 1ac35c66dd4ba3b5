package llmagent

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"

	"github.com/tutord/tutord/curricula"
	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/curriculum"
	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/llm/llmtest"
	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestMain fails the run if a test leaves goroutines behind, such as a
// fake server's connection.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

const (
	addingFractions = "mathematics/fractions/adding-and-subtracting-fractions"
	testModel       = "gpt-4o-mini"
	// callTime is how long every call takes on the test clock.
	callTime = 250 * time.Millisecond
)

var epoch = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

var sampleTopics = sync.OnceValues(func() (map[string]tutor.Topic, error) {
	files, err := curriculum.LoadFS(curricula.FS())
	if err != nil {
		return nil, err
	}
	topics := map[string]tutor.Topic{}
	for _, f := range files {
		for _, g := range f.Guidelines() {
			topics[g.Key] = curriculum.TopicOf(curriculum.LessonMeta{
				GuidelineID: g.Key, PlanVersionID: g.Hash, Subject: g.Subject, Grade: g.Grade, TopicTitle: g.Topic.Title,
			}, g.Subtopic)
		}
	}
	return topics, nil
})

// sampleTopic returns a lesson of the shipped curriculum; each call gets
// its own copy.
func sampleTopic(t *testing.T, key string) *tutor.Topic {
	t.Helper()
	topics, err := sampleTopics()
	if err != nil {
		t.Fatalf("the sample curriculum does not load: %v", err)
	}
	tp, ok := topics[key]
	if !ok {
		t.Fatalf("the sample has no subtopic %s", key)
	}
	return &tp
}

// student is the fixture learner: a name, an age and an about-me, Hindi
// as the preferred language.
func student() tutor.StudentContext {
	return tutor.StudentContext{
		Grade:             7,
		Board:             "CBSE",
		LanguageLevel:     "simple",
		PreferredExamples: []string{"cricket", "cooking"},
		StudentName:       new("Asha Rao"),
		StudentAge:        new(12),
		AboutMe:           new("I play cricket on weekends and like baking with my grandmother."),
		Language:          "hi",
		Style:             "standard",
	}
}

// session is a fixture session being driven turn by turn, as the
// orchestrator drives one.
type session struct {
	t     *testing.T
	topic *tutor.Topic
	state tutor.State
	pre   *tutor.Prechecker
	turns int
}

func newSession(t *testing.T, mode tutor.Mode, topic *tutor.Topic, opts ...func(*tutor.NewSession)) *session {
	t.Helper()
	ns := tutor.NewSession{ID: "sess-1", Mode: mode, Topic: topic, Student: student(), Now: epoch}
	if mode == tutor.ModeExam {
		ns.ExamQuestions = []tutor.ExamQuestion{
			{QuestionText: "What is 1/5 + 2/5?", Concept: "Like fractions", Difficulty: tutor.Easy, QuestionType: tutor.QuestionProcedural, ExpectedAnswer: "3/5"},
			{QuestionText: "Why can't you add 1/2 and 1/3 straight away?", Concept: "Unlike fractions", Difficulty: tutor.Medium, QuestionType: tutor.QuestionConceptual, ExpectedAnswer: "the parts have different sizes"},
		}
	}
	for _, o := range opts {
		o(&ns)
	}
	s, err := tutor.NewState(ns)
	if err != nil {
		t.Fatal(err)
	}
	return &session{t: t, topic: topic, state: s, pre: tutor.NewPrechecker(tutor.DefaultPrecheckConfig())}
}

// turn returns the turn the orchestrator would send for msg: pre-checked,
// the pending question evaluated, and the guardrails' directives computed
// for an output that takes the evaluator's verdict.
func (se *session) turn(msg string) agents.Turn {
	se.t.Helper()
	now := se.now()
	pre := se.pre.Check(msg)
	var ev answer.Result
	if q := se.state.LastQuestion; q != nil && pre == tutor.PrecheckNone && se.state.Mode == tutor.ModeTeachMe {
		ev = answer.Evaluate(q.Expected(se.topic), msg)
	}
	g := tutor.Guard(se.state, se.topic, tutor.Outcome{Now: now, StudentMessage: msg, Precheck: pre, Verdict: ev.Verdict, Output: &tutor.TutorOutput{}})
	return agents.Turn{State: se.state, Topic: se.topic, Message: msg, Precheck: pre, Evaluation: ev, Guard: g, Now: now}
}

func (se *session) now() time.Time { return epoch.Add(time.Duration(se.turns+1) * time.Minute) }

// apply applies a turn's reply to the session, as ApplyTurn does after
// the guardrails, and returns the guardrails' final directives.
func (se *session) apply(turn agents.Turn, r agents.TutorReply) tutor.Guarded {
	se.t.Helper()
	o := tutor.Outcome{
		Now: turn.Now, StudentMessage: turn.Message, Reply: r.Output.Response, Precheck: turn.Precheck,
		Verdict: turn.Evaluation.Verdict, Output: &r.Output, NextQuestion: r.NextQuestion,
	}
	g := tutor.Guard(se.state, se.topic, o)
	se.state, _ = tutor.ApplyTurn(se.state, se.topic, o)
	se.turns++
	return g
}

// say applies a scripted reply to msg without any model.
func (se *session) say(msg string, out tutor.TutorOutput, next *tutor.BankQuestion) {
	se.t.Helper()
	se.apply(se.turn(msg), agents.TutorReply{Output: out, NextQuestion: next})
}

// bank returns a bank question of the session's lesson.
func (se *session) bank(id string) *tutor.BankQuestion {
	se.t.Helper()
	q, ok := se.topic.Question(id)
	if !ok {
		se.t.Fatalf("the lesson has no question %s", id)
	}
	return &q
}

// out returns a valid tutor output with the given response; options fill
// in the rest.
func out(response string, opts ...func(*tutor.TutorOutput)) tutor.TutorOutput {
	o := tutor.TutorOutput{
		Response:               response,
		Intent:                 tutor.IntentContinuation,
		MisconceptionsDetected: []string{},
		MasteryUpdates:         []tutor.MasteryUpdate{},
		TurnSummary:            "Turn summary.",
		Reasoning:              "Private reasoning.",
	}
	for _, f := range opts {
		f(&o)
	}
	return o
}

func asks(q, expected, concept string) func(*tutor.TutorOutput) {
	return func(o *tutor.TutorOutput) {
		o.QuestionAsked, o.ExpectedAnswer, o.QuestionConcept = &q, &expected, &concept
	}
}

func judged(correct bool) func(*tutor.TutorOutput) {
	return func(o *tutor.TutorOutput) {
		o.Intent = tutor.IntentAnswer
		o.AnswerCorrect = &correct
	}
}

func advance(step int) func(*tutor.TutorOutput) {
	return func(o *tutor.TutorOutput) { o.AdvanceToStep = &step }
}

// completes ends the lesson (honoured on the final step, after an advance).
func completes(o *tutor.TutorOutput) { o.SessionComplete = true }

func summary(s string) func(*tutor.TutorOutput) {
	return func(o *tutor.TutorOutput) { o.TurnSummary = s }
}

// fake is a scripted provider with clients for it.
type fake struct {
	srv      *llmtest.Server
	provider llm.Provider
	model    string
	settings llm.Settings
}

func newOpenAI(t *testing.T, replies ...llmtest.Reply) *fake {
	srv := llmtest.NewOpenAI(t, replies...)
	return &fake{srv: srv, provider: llm.ProviderOpenAI, model: testModel, settings: llm.Settings{OpenAIKey: "sk-test", OpenAIBaseURL: srv.URL}}
}

func newAnthropic(t *testing.T, replies ...llmtest.Reply) *fake {
	srv := llmtest.NewAnthropic(t, replies...)
	return &fake{srv: srv, provider: llm.ProviderAnthropic, model: "claude-haiku-4-5", settings: llm.Settings{AnthropicKey: "sk-ant-test", AnthropicBaseURL: srv.URL}}
}

func newGemini(t *testing.T, replies ...llmtest.Reply) *fake {
	srv := llmtest.NewGemini(t, replies...)
	return &fake{srv: srv, provider: llm.ProviderGoogle, model: "gemini-2.5-flash", settings: llm.Settings{GoogleKey: "AIza-test", GoogleBaseURL: srv.URL}}
}

// config returns the configuration of a component on the fake.
func (f *fake) config(c llm.Component) llm.Config {
	return llm.Config{Component: c, Provider: f.provider, Model: f.model, Effort: llm.EffortNone}
}

// client resolves a client for a component, with test-sized retries.
func (f *fake) client(t *testing.T, c llm.Component) llm.Client {
	t.Helper()
	cl, err := llm.Resolve(f.config(c), f.settings, llm.Options{
		Retry: llm.RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond},
		Sleep: func(context.Context, time.Duration) error { return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	return cl
}

// opts returns agent options with a clock on which every call takes
// callTime.
func opts() Options {
	var mu sync.Mutex
	now := epoch
	return Options{Now: func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(callTime)
		return now
	}}
}

func (f *fake) tutor(t *testing.T) *Tutor {
	return NewTutor(f.client(t, llm.ComponentTutor), f.config(llm.ComponentTutor), opts())
}

// reply scripts a model reply whose text is v as JSON.
func reply(t *testing.T, v any) llmtest.Reply {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return llmtest.Reply{Text: string(b), Usage: llmtest.Usage{Input: 1200, Output: 150, Cached: 1000}}
}

// golden compares got with testdata/name.golden, or rewrites the file with
// -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs from the golden file (-want +got):\n%s", path, diff)
	}
}
