package orchestrator_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/agents/rules"
	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/llm/llmtest"
	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/store"
	"github.com/tutord/tutord/internal/tutor"
)

// A model-written welcome passes the same screening as every other reply:
// internal language is cut, and a welcome the safety check flags gives way
// to the fixed one.
func TestWelcomeIsScreened(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentWelcome)

	fake.Push(llmtest.Reply{Text: `{"message":"As an AI language model, I think the student is ready. Today we learn doubling: two equal groups!"}`})
	c := f.create(t, doubling, tutor.ModeTeachMe)
	for _, bad := range []string{"As an AI", "the student"} {
		if strings.Contains(c.Welcome, bad) {
			t.Fatalf("welcome %q still says %q", c.Welcome, bad)
		}
	}
	if !strings.Contains(c.Welcome, "Today we learn doubling") {
		t.Fatalf("the clean sentence of the welcome was lost: %q", c.Welcome)
	}
	if got := storedWelcome(t, f, c.Session.Row.ID); got != c.Welcome {
		t.Fatalf("stored welcome %q, returned %q", got, c.Welcome)
	}

	fake.Push(llmtest.Reply{Text: `{"message":"Welcome! Before we start, send me nudes of yourself."}`})
	c = f.create(t, doubling, tutor.ModeTeachMe)
	if strings.Contains(c.Welcome, "nudes") {
		t.Fatalf("an unsafe welcome was sent: %q", c.Welcome)
	}
	logs, err := f.st.ListAgentLogs(context.Background(), c.Session.Row.ID, store.LogFilter{TurnID: "turn_0"})
	if err != nil {
		t.Fatal(err)
	}
	if !hasLog(logs, "safety", "Check welcome: ") {
		t.Fatalf("the welcome's safety check is not in the agent log: %+v", logs)
	}
}

// An exam's welcome says how many questions it has, even when that number
// is the answer to one of them: "a 7-question exam" gives no answer away.
func TestExamWelcomeKeepsTheQuestionCount(t *testing.T) {
	f := setup(t)
	tried := 0
	for range 20 {
		c := f.create(t, "mathematics/integers/multiplying-and-dividing-integers", tutor.ModeExam)
		n := strconv.Itoa(len(c.Session.State.ExamQuestions))
		if !slices.ContainsFunc(c.Session.State.ExamQuestions, func(q tutor.ExamQuestion) bool { return q.ExpectedAnswer == n }) {
			continue
		}
		tried++
		if !strings.Contains(c.Welcome, n+" questions") && !strings.Contains(c.Welcome, n+"-question") {
			t.Fatalf("welcome %q lost the question count %s", c.Welcome, n)
		}
	}
	if tried == 0 {
		t.Fatal("no exam had a question whose answer is the question count")
	}
}

func storedWelcome(t *testing.T, f *fixture, id uuid.UUID) string {
	t.Helper()
	ms, err := f.st.ListMessages(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) == 0 {
		t.Fatal("no stored welcome")
	}
	return ms[0].Content
}

func hasLog(logs []store.AgentLog, agent, inputPrefix string) bool {
	for _, l := range logs {
		if l.Agent == agent && strings.HasPrefix(l.InputSummary, inputPrefix) {
			return true
		}
	}
	return false
}

// Every agent call of a turn is in the agent log with its latency: the
// safety check of the message and of the reply, and the tutor.
func TestAgentLogHasEveryCallWithLatency(t *testing.T) {
	f := setup(t)
	c := f.create(t, doubling, tutor.ModeTeachMe)
	f.turn(t, c.Session.Row.ID, "ok")
	logs, err := f.st.ListAgentLogs(context.Background(), c.Session.Row.ID, store.LogFilter{TurnID: "turn_1"})
	if err != nil {
		t.Fatal(err)
	}
	if !hasLog(logs, "safety", "Check: ok") || !hasLog(logs, "safety", "Check reply: ") || !hasLog(logs, "master_tutor", "") {
		t.Fatalf("turn 1's agent log lacks a call: %+v", logs)
	}
	for _, l := range logs {
		if l.Agent != "orchestrator" && l.LatencyMS == nil {
			t.Errorf("%s %s has no latency", l.Agent, l.InputSummary)
		}
	}
}

// An answer only the model can judge walks the same ladder on the model's
// verdicts: probe, hint, then the explanation, which reaches the learner
// as written.
func TestModelJudgedAnswerLadder(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentTutor)
	c := f.create(t, doubling, tutor.ModeTeachMe)
	id := c.Session.Row.ID
	const expected = "each part is the same size"
	fake.Push(out("Why must the two groups in doubling be equal?", func(m map[string]any) {
		m["intent"], m["question_asked"], m["expected_answer"], m["question_concept"] = "question", "Why must the two groups in doubling be equal?", expected, "Doubling"
	}))
	f.turn(t, id, "ok")
	wrong := func(m map[string]any) { m["intent"], m["answer_correct"] = "answer", false }
	for _, msg := range []string{"because doubling is big", "so it looks nice"} {
		fake.Push(out("Not quite. Think about what makes two groups fair.", wrong))
		r := f.turn(t, id, msg)
		if q := r.Session.State.LastQuestion; q == nil || q.Phase == tutor.PhaseExplain {
			t.Fatalf("after %q the question is %+v", msg, q)
		}
	}
	explanation := "Here is the idea: " + expected + ", so both groups match. Does that make sense?"
	fake.Push(out(explanation, wrong))
	n := len(fake.Requests())
	r := f.turn(t, id, "I still don't see it, maybe colours")
	if len(fake.Requests()) != n+1 {
		t.Fatalf("the explanation was regenerated (%d model calls)", len(fake.Requests())-n)
	}
	if r.Reply != explanation {
		t.Fatalf("the explanation was altered: %q", r.Reply)
	}
	if q := r.Session.State.LastQuestion; q == nil || q.Phase != tutor.PhaseExplain || q.WrongAttempts != 3 {
		t.Fatalf("after three wrong attempts the question is %+v", q)
	}
	if fake.Pending() != 0 {
		t.Fatalf("%d canned replies unused", fake.Pending())
	}
}

// When the safety model fails, the rules classifier decides: flagged
// messages are stopped (fail closed), others go through (fail open).
func TestSafetyModelFailure(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentSafety)
	fail := llmtest.Reply{Fail: llmtest.ServerError}
	safe := llmtest.Reply{Text: `{"is_safe": true, "violation_type": null, "guidance": "", "should_warn": false, "reasoning": "fine"}`}
	fake.Push(safe) // the welcome's check
	c := f.create(t, doubling, tutor.ModeTeachMe)
	id := c.Session.Row.ID

	fake.Push(fail, fail, safe) // the message's check fails; the reply's passes
	r := f.turn(t, id, "ok")
	if r.Intent == orchestrator.IntentUnsafe {
		t.Fatalf("a harmless message was stopped when the safety model failed: %q", r.Reply)
	}
	logs, err := f.st.ListAgentLogs(context.Background(), id, store.LogFilter{TurnID: "turn_1"})
	if err != nil {
		t.Fatal(err)
	}
	failed := false
	for _, l := range logs {
		failed = failed || (l.Agent == "safety" && l.Event == "failed")
	}
	if !failed || !hasLog(logs, "safety", "Check (fallback): ok") {
		t.Fatalf("the failure and the fallback are not in the agent log: %+v", logs)
	}

	fake.Push(fail, fail) // the message's check fails; the classifier's own guidance needs no check
	r = f.turn(t, id, "I want to kill myself")
	if r.Intent != orchestrator.IntentUnsafe || !strings.Contains(r.Reply, "adult you trust") {
		t.Fatalf("a self-harm message got through a failed safety model: intent %q, reply %q", r.Intent, r.Reply)
	}
	if fake.Pending() != 0 {
		t.Fatalf("%d canned replies unused", fake.Pending())
	}
}

// The safety model's guidance is screened as every reply is, but one the
// check flags gives way to the fixed support of the message's category,
// never to a lesson redirect: self-harm guidance names what it is about.
func TestFlaggedSafetyGuidanceFallsBackToFixedSupport(t *testing.T) {
	const selfHarm = "I'm really glad you told me, and you matter. If you are having thoughts of suicide, please talk right now to a trusted adult, like a parent or a teacher, or call a helpline."
	verdict := func(guidance string) llmtest.Reply {
		return llmtest.Reply{Text: `{"is_safe": false, "violation_type": "self_harm", "guidance": "` + guidance + `", "should_warn": false, "reasoning": "self-harm disclosure"}`}
	}
	safe := llmtest.Reply{Text: `{"is_safe": true, "violation_type": null, "guidance": "", "should_warn": false, "reasoning": "fine"}`}
	sexual := llmtest.Reply{Text: `{"is_safe": false, "violation_type": "sexual", "guidance": "Let's get back to the lesson.", "should_warn": false, "reasoning": "sexual content"}`}
	fail := llmtest.Reply{Fail: llmtest.ServerError}
	for _, tc := range []struct {
		name   string
		script []llmtest.Reply // the message's check, then the guidance's
		want   string
	}{
		// The check of the guidance fails and the classifier flags "suicide".
		{"names the harm", []llmtest.Reply{verdict(selfHarm), fail, fail}, rules.Guidance("self_harm")},
		{"unsafe otherwise", []llmtest.Reply{verdict("You matter. Talk to a trusted adult. Also, let's look at porn."), sexual}, rules.Guidance("self_harm")},
		{"passes", []llmtest.Reply{verdict(selfHarm), safe}, selfHarm},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := llmtest.NewOpenAI(t)
			f := llmSetup(t, fake.URL, llm.ComponentSafety)
			fake.Push(safe) // the welcome's check
			c := f.create(t, doubling, tutor.ModeTeachMe)
			fake.Push(tc.script...)
			r := f.turn(t, c.Session.Row.ID, "I want to kill myself")
			if r.Intent != orchestrator.IntentUnsafe || r.Reply != tc.want {
				t.Errorf("intent %q, reply %q; want the unsafe intent and %q", r.Intent, r.Reply, tc.want)
			}
			if fake.Pending() != 0 {
				t.Errorf("%d canned replies unused", fake.Pending())
			}
		})
	}
}

// A tutor reply that the safety check flags is never sent.
func TestUnsafeTutorReplyIsReplaced(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentTutor)
	c := f.create(t, doubling, tutor.ModeTeachMe)
	fake.Push(out("Forget doubling, let's look at porn instead."))
	r := f.turn(t, c.Session.Row.ID, "ok")
	if strings.Contains(r.Reply, "porn") {
		t.Fatalf("an unsafe tutor reply was sent: %q", r.Reply)
	}
	if last, _ := r.Session.State.LastReply(); last != r.Reply {
		t.Fatalf("the state keeps %q, the learner got %q", last, r.Reply)
	}
}

// Exam generation asks for seven questions, then for three; when both fail
// the session is not created.
func TestExamGenerationRetriesWithFewerQuestions(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentExamGenerator)
	fail := llmtest.Reply{Fail: llmtest.ServerError}
	three := llmtest.Reply{Text: `{"questions": [
		{"question_text": "What is double 6?", "expected_answer": "12", "concept": "Doubling", "difficulty": "easy", "question_type": "procedural"},
		{"question_text": "What is half of 10?", "expected_answer": "5", "concept": "Halving", "difficulty": "medium", "question_type": "procedural"},
		{"question_text": "What is double 25?", "expected_answer": "50", "concept": "Doubling", "difficulty": "hard", "question_type": "application"}]}`}
	fake.Push(fail, fail, three)
	c := f.create(t, doubling, tutor.ModeExam)
	if n := len(c.Session.State.ExamQuestions); n != 3 {
		t.Fatalf("%d exam questions; want the retry's 3", n)
	}
	reqs := fake.Requests()
	if first, last := turnPrompt(t, reqs[0]), turnPrompt(t, reqs[len(reqs)-1]); !strings.Contains(first, "Write 7 questions") || !strings.Contains(last, "Write 3 questions") {
		t.Fatalf("the two requests did not ask for 7 then 3 questions:\n%s\n---\n%s", first, last)
	}

	fake.Push(fail, fail, fail, fail)
	_, err := f.o.CreateSession(context.Background(), orchestrator.CreateRequest{GuidelineID: f.guidelines[doubling], Mode: tutor.ModeExam,
		Student: tutor.StudentContext{Grade: 7, Board: "CBSE", LanguageLevel: "standard"}})
	if !errors.Is(err, orchestrator.ErrExamGeneration) {
		t.Fatalf("CreateSession with a failing generator: %v; want ErrExamGeneration", err)
	}
	if fake.Pending() != 0 {
		t.Fatalf("%d canned replies unused", fake.Pending())
	}
}

// A learner whose model budget is spent gets the budget error, not an
// apology: nothing of the turn is written, and a retry after the budget
// renews runs it.
func TestSpentBudgetStopsTheTurn(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	var clock atomic.Int64 // days added to the budget's clock
	f := llmSetupWith(t, fake.URL, func(o *llm.Options, st *store.Store) {
		o.Budget = &llm.Budget{DailyUSD: 0.5, Spend: st, Now: func() time.Time { return time.Now().AddDate(0, 0, int(clock.Load())) }}
	}, llm.ComponentTutor)
	ctx := context.Background()
	learner, err := f.st.EnsureLearner(ctx, "budget-learner")
	if err != nil {
		t.Fatal(err)
	}
	c, err := f.o.CreateSession(ctx, orchestrator.CreateRequest{GuidelineID: f.guidelines[doubling], Mode: tutor.ModeTeachMe,
		LearnerID: &learner.ID, Student: tutor.StudentContext{Grade: 7, Board: "CBSE", LanguageLevel: "standard"}})
	if err != nil {
		t.Fatal(err)
	}
	id := c.Session.Row.ID
	err = f.st.RecordUsage(ctx, llm.UsageRecord{LearnerID: learner.ID.String(), Component: llm.ComponentTutor,
		Provider: llm.ProviderOpenAICompatible, Model: "fake-model", Attempts: 1, CostUSD: 0.75, Priced: true})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.o.ProcessTurn(ctx, id, "ok", "t1")
	var le *llm.Error
	if !errors.Is(err, llm.ErrBudgetExceeded) || !errors.As(err, &le) || le.RetryAfter <= 0 || le.RetryAfter > 24*time.Hour {
		t.Fatalf("turn with a spent budget: %v; want the budget error with a retry time", err)
	}
	se, err := f.o.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if se.Row.Version != c.Session.Row.Version || se.State.TurnCount != 0 {
		t.Fatalf("the refused turn was written: version %d, turns %d", se.Row.Version, se.State.TurnCount)
	}
	if ms, _ := f.st.ListMessages(ctx, id); len(ms) != 1 {
		t.Fatalf("%d messages after a refused turn; want the welcome only", len(ms))
	}
	if len(fake.Requests()) != 0 {
		t.Fatal("the model was called with the budget spent")
	}

	clock.Store(1) // the next day
	fake.Push(out("Doubling means two equal groups. Ready?"))
	r, err := f.o.ProcessTurn(ctx, id, "ok", "t1")
	if err != nil || r.Replayed || r.Session.State.TurnCount != 1 {
		t.Fatalf("the retry the next day: %v, replayed %v, turns %d", err, r.Replayed, r.Session.State.TurnCount)
	}
}

// TestExamWelcomeNamesItsTopic: an exam's welcome keeps the sentence that
// names its topic and its length though an answer is a word of the topic's
// name ("solid" in "Solids, liquids and gases"): the learner sees that
// name anyway, so it is no leak.
func TestExamWelcomeNamesItsTopic(t *testing.T) {
	f := setup(t)
	for range 4 {
		c := f.create(t, "science/states-of-matter/solids-liquids-and-gases", tutor.ModeExam)
		if !strings.Contains(c.Welcome, "solids, liquids and gases") || !strings.Contains(c.Welcome, "7") {
			t.Fatalf("welcome %q lost its topic or length", c.Welcome)
		}
	}
}
