package orchestrator_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/agents/engine"
	"github.com/tutord/tutord/internal/agents/rules"
	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/llm/llmtest"
	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/store"
	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// llmSetup is setup with the given components on an OpenAI-compatible
// server at url, with test-sized deadlines and backoff.
func llmSetup(t *testing.T, url string, components ...llm.Component) *fixture {
	t.Helper()
	return llmSetupWith(t, url, nil, components...)
}

// llmSetupWith is llmSetup with the LLM options changed by opt.
func llmSetupWith(t *testing.T, url string, opt func(*llm.Options, *store.Store), components ...llm.Component) *fixture {
	t.Helper()
	f := setup(t, func(o *orchestrator.Options) {
		set, err := rules.New()
		if err != nil {
			t.Fatal(err)
		}
		models := engine.LLMModels{
			Settings: llm.Settings{CompatibleBaseURL: url, Prices: llm.DefaultPrices()},
			Options: llm.Options{
				Retry:          llm.RetryPolicy{MaxAttempts: 2, BaseDelay: 5 * time.Millisecond, MaxDelay: 20 * time.Millisecond},
				AttemptTimeout: 300 * time.Millisecond, CallTimeout: 2 * time.Second,
				Breakers: llm.NewBreakers(llm.BreakerOptions{Failures: 1000}),
			},
		}
		if opt != nil {
			opt(&models.Options, o.Store.(*store.Store))
		}
		o.Engines = engine.New(set, models, o.Store.(*store.Store))
	})
	for _, c := range components {
		if _, err := f.st.SetLLMConfig(context.Background(), llm.Config{Component: c, Provider: llm.ProviderOpenAICompatible, Model: "fake-model"}, "test", time.Time{}); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// out is a canned tutor output as the model returns it.
func out(response string, mut ...func(map[string]any)) llmtest.Reply {
	m := map[string]any{
		"response": response, "intent": "continuation", "answer_correct": nil, "misconceptions_detected": []string{},
		"mastery_signal": nil, "advance_to_step": nil, "mastery_updates": []any{}, "question_asked": nil,
		"expected_answer": nil, "question_concept": nil, "session_complete": false, "turn_summary": "taught", "reasoning": "because",
	}
	for _, f := range mut {
		f(m)
	}
	b, _ := json.Marshal(m)
	return llmtest.Reply{Text: string(b)}
}

func turnPrompt(t *testing.T, r llmtest.Request) string {
	t.Helper()
	body, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, m := range body["messages"].([]any) {
		b.WriteString(fmt.Sprint(m.(map[string]any)["content"]))
		b.WriteString("\n")
	}
	return b.String()
}

func TestTeachMeWithModelBackedTutor(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentTutor)
	c := f.create(t, doubling, tutor.ModeTeachMe)
	id := c.Session.Row.ID

	fake.Push(out("Doubling means two equal groups of a number. Ready for a question?", func(m map[string]any) { m["advance_to_step"] = 2 }))
	r := f.turn(t, id, "yes, ready")
	if r.Session.State.CurrentStep != 2 {
		t.Fatalf("step %d after advance_to_step 2", r.Session.State.CurrentStep)
	}
	// The tutor asks the bank question; the domain tracks it with its hints.
	fake.Push(out("What is double 7?", func(m map[string]any) {
		m["intent"], m["question_asked"], m["expected_answer"], m["question_concept"] = "question", "What is double 7?", "14", "Doubling"
	}))
	r = f.turn(t, id, "ok")
	if q := r.Session.State.LastQuestion; q == nil || q.QuestionID != "double-1" {
		t.Fatalf("pending question %+v; want the bank's double-1", q)
	}
	// A wrong answer: the prompt carries the evaluator's verdict as a fact,
	// and the tutor is held to it even if it says otherwise.
	fake.Push(out("Not quite. Doubling means making two equal groups of the number. Try again?", func(m map[string]any) {
		m["intent"], m["answer_correct"] = "answer", true // contradicts the evaluator
	}))
	r = f.turn(t, id, "3")
	p := turnPrompt(t, fake.Requests()[len(fake.Requests())-1])
	for _, section := range []string{"## CURRENT STEP", "## MASTERY", "## PACING", "## STUDENT STYLE", "## AWAITING ANSWER", "## EVALUATOR VERDICT", "## RECENT CONVERSATION", "## STUDENT'S MESSAGE", "INCORRECT"} {
		if !strings.Contains(p, section) {
			t.Errorf("turn prompt lacks %q", section)
		}
	}
	if strings.Contains(p, "14") {
		t.Error("the turn prompt gives the model the expected answer before the explain phase")
	}
	if q := r.Session.State.LastQuestion; q == nil || q.Phase != tutor.PhaseProbe || r.Session.State.LastAnswerResult == nil || *r.Session.State.LastAnswerResult != tutor.ResultIncorrect {
		t.Fatalf("the verdict did not override the model: %+v", r.Session.State.LastQuestion)
	}
	// A reply that leaks the answer is regenerated once...
	fake.Push(out("Close! Double 7 is 14, so try again."), out("Close! Add 7 to itself and tell me what you get."))
	r = f.turn(t, id, "12")
	if strings.Contains(r.Reply, "14") || !strings.Contains(r.Reply, "Add 7 to itself") {
		t.Fatalf("leaking reply not regenerated: %q", r.Reply)
	}
	if p := turnPrompt(t, fake.Requests()[len(fake.Requests())-1]); !strings.Contains(p, "## CORRECTION") {
		t.Error("the regeneration carries no correction")
	}
	// ...and redacted when it leaks again. ("I don't know" never earns
	// the answer.)
	fake.Push(out("The answer is 14. Well done for trying."), out("It's 14, you see."))
	r = f.turn(t, id, "I don't know")
	if strings.Contains(r.Reply, "14") {
		t.Fatalf("leaking reply not redacted: %q", r.Reply)
	}
	// The system prompt is byte-identical on every turn (prompt caching).
	var system string
	for _, req := range fake.Requests() {
		body, _ := req.JSON()
		s := fmt.Sprint(body["messages"].([]any)[0].(map[string]any)["content"])
		if system == "" {
			system = s
		} else if s != system {
			t.Fatal("the system prompt changed between turns")
		}
	}
	if fake.Pending() != 0 {
		t.Fatalf("%d canned replies unused", fake.Pending())
	}
}

func TestExamWithModelBackedAgents(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentExamGenerator, llm.ComponentExamEvaluator, llm.ComponentWelcome)
	qs := map[string]any{"questions": []any{
		map[string]any{"question_text": "What is double 8?", "expected_answer": "16", "concept": "Doubling", "difficulty": "easy", "question_type": "procedural"},
		map[string]any{"question_text": "Explain what halving means.", "expected_answer": "Splitting a number into two equal groups", "concept": "Halving", "difficulty": "medium", "question_type": "conceptual"},
	}}
	b, _ := json.Marshal(qs)
	// Two questions, fewer than the retry's three: asked again, the model
	// gives the same two, and they make the exam.
	fake.Push(llmtest.Reply{Text: string(b)}, llmtest.Reply{Text: string(b)}, llmtest.Reply{Text: `{"message":"Let's see what you know: two questions on doubling and halving."}`})
	c := f.create(t, doubling, tutor.ModeExam)
	if len(c.Session.State.ExamQuestions) != 2 || !strings.Contains(c.Welcome, "**Question 1:** What is double 8?") {
		t.Fatalf("exam %d questions, welcome %q", len(c.Session.State.ExamQuestions), c.Welcome)
	}
	id := c.Session.Row.ID
	// A checkable answer: no model call.
	n := len(fake.Requests())
	r := f.turn(t, id, "16")
	if len(fake.Requests()) != n {
		t.Fatal("a checkable answer went to the model")
	}
	// An answer the evaluator cannot check: the model judges, seeing the
	// question and its expected answer.
	fake.Push(llmtest.Reply{Text: `{"answer_correct": false, "mastery_signal": "adequate", "feedback": "Half right.", "reasoning": "names cutting, not equal groups"}`})
	r = f.turn(t, id, "you cut it in two")
	p := turnPrompt(t, fake.Requests()[len(fake.Requests())-1])
	if !strings.Contains(p, "Explain what halving means.") || !strings.Contains(p, "Splitting a number into two equal groups") {
		t.Fatalf("the exam evaluator's prompt lacks the question or its expected answer:\n%s", p)
	}
	s := r.Session.State
	if !s.ExamFinished || s.ExamTotalCorrect != 1 || s.ExamTotalPartial != 1 {
		t.Fatalf("exam: finished %v, %d correct, %d partial", s.ExamFinished, s.ExamTotalCorrect, s.ExamTotalPartial)
	}
}

// TestExamGenerationUsageBelongsToSession: the model call that writes an
// exam's questions is made before the session is stored, but its usage
// record carries the session's id, like every other call made for a
// session. Per-session cost reports count it, and purging an anonymous
// session (Store.PurgeAnonymous) deletes it with the session's other usage
// records.
func TestExamGenerationUsageBelongsToSession(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetupWith(t, fake.URL, func(o *llm.Options, st *store.Store) { o.Recorder = st }, llm.ComponentExamGenerator)
	fake.Push(generatedExam(
		[3]string{"What is double 6?", "12", "Doubling"},
		[3]string{"What is double 9?", "18", "Doubling"},
		[3]string{"What is double 15?", "30", "Doubling"},
	))
	c := f.create(t, doubling, tutor.ModeExam)
	if len(c.Session.State.ExamQuestions) != 3 {
		t.Fatalf("exam of %d questions", len(c.Session.State.ExamQuestions))
	}
	ctx := context.Background()
	usage := func() (all, ofSession int) {
		t.Helper()
		err := f.st.Pool().QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE session_id = $1) FROM llm_usage`,
			c.Session.Row.ID).Scan(&all, &ofSession)
		if err != nil {
			t.Fatal(err)
		}
		return all, ofSession
	}
	if all, ofSession := usage(); all == 0 || ofSession != all {
		t.Fatalf("%d usage records for the exam generation, %d of them with the session's id; want all of at least one", all, ofSession)
	}
	if _, err := f.st.PurgeAnonymous(ctx, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if all, _ := usage(); all != 0 {
		t.Fatalf("after purging the anonymous exam session, %d usage records remain; want none", all)
	}
}

// TestModelFaults runs 200 turns against a provider that fails 30% of its
// calls (hangs past the deadline, 429, 500, malformed bodies, replies that
// break the schema): every turn is answered or cleanly failed, and the
// session's invariants hold after each.
func TestModelFaults(t *testing.T) {
	var mu sync.Mutex
	rng := rand.New(rand.NewPCG(1, 2))
	calls, failures := 0, 0
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		calls++
		roll := rng.IntN(100)
		if roll < 30 {
			failures++
		}
		mu.Unlock()
		switch {
		case roll < 6: // hang past the attempt deadline
			select {
			case <-r.Context().Done():
			case <-time.After(2 * time.Second):
			}
			return
		case roll < 12:
			w.Header().Set("Retry-After", "0")
			http.Error(w, `{"error":{"message":"slow down","type":"rate_limit_error"}}`, http.StatusTooManyRequests)
			return
		case roll < 18:
			http.Error(w, `{"error":{"message":"boom","type":"server_error"}}`, http.StatusInternalServerError)
			return
		case roll < 24:
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"id": "chatcmpl-1", "choices": [`)
			return
		}
		content := `{"response":"Let's keep going: what would you try first?","intent":"continuation","answer_correct":null,"misconceptions_detected":[],"mastery_signal":null,"advance_to_step":null,"mastery_updates":[],"question_asked":null,"expected_answer":null,"question_concept":null,"session_complete":false,"turn_summary":"kept going","reasoning":"r"}`
		if roll < 30 { // valid JSON that breaks the schema
			content = `{"response": 42}`
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "fake-model",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}}},
			"usage":   map[string]any{"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
		})
	}))
	defer fake.Close()
	f := llmSetup(t, fake.URL, llm.ComponentTutor)
	answered, failed := 0, 0
	var sessions []orchestrator.Created
	for range 10 {
		sessions = append(sessions, f.create(t, doubling, tutor.ModeTeachMe))
	}
	before := map[uuid.UUID]tutor.State{}
	for _, c := range sessions {
		before[c.Session.Row.ID] = c.Session.State
	}
	for i := range 200 {
		c := sessions[i%len(sessions)]
		id := c.Session.Row.ID
		r := f.turn(t, id, []string{"ok", "7", "I think 14", "what next?"}[i%4])
		if r.Reply == "" {
			t.Fatalf("turn %d: empty reply", i)
		}
		prev := before[id]
		before[id] = r.Session.State
		if r.Intent == orchestrator.IntentError {
			failed++
			if r.Reply != orchestrator.FailureReply {
				t.Fatalf("a failed turn answered %q", r.Reply)
			}
			// The state stays as it was; the failure is in the agent log.
			if was, is := asJSON(t, prev), asJSON(t, r.Session.State); !reflect.DeepEqual(was, is) {
				t.Fatalf("turn %d failed but changed the state:\n%v\n%v", i, was, is)
			}
			logs, err := f.st.ListAgentLogs(context.Background(), id, store.LogFilter{TurnID: fmt.Sprintf("turn_%d", prev.TurnCount+1)})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(logs, func(l store.AgentLog) bool { return l.Agent == "master_tutor" && l.Event == "failed" && l.Error != "" }) {
				t.Fatalf("turn %d failed but the agent log has no failed tutor call: %+v", i, logs)
			}
		} else {
			answered++
		}
		if got := answer.DetectLeaks(answer.LeakCheck{Expected: answer.Expected{Answer: "14"}, Reply: r.Reply}); r.Session.State.LastQuestion != nil && len(got) > 0 {
			t.Fatalf("turn %d leaked: %q", i, r.Reply)
		}
	}
	t.Logf("provider calls %d (failed %d); turns answered %d, failed cleanly %d", calls, failures, answered, failed)
	if answered == 0 || failed == 0 {
		t.Fatalf("answered %d, failed %d: the faults were not exercised", answered, failed)
	}
	// Every session is still readable and consistent.
	for _, c := range sessions {
		se, err := f.o.Load(context.Background(), c.Session.Row.ID)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, se)
	}
}

// asJSON is v as generic JSON values, to compare documents whatever the
// order of their keys.
func asJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// A reply regenerated after a right answer is checked with the turn's
// verdict: praise that names the answer is no leak, even when the model
// leaves answer_correct out.
func TestRegeneratedPraiseKeepsTheAnswer(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	f := llmSetup(t, fake.URL, llm.ComponentTutor)
	id := f.create(t, doubling, tutor.ModeTeachMe).Session.Row.ID
	fake.Push(out("What is double 7?", func(m map[string]any) {
		m["intent"], m["question_asked"], m["expected_answer"], m["question_concept"] = "question", "What is double 7?", "14", "Doubling"
	}))
	f.turn(t, id, "ok")
	praise := "Yes! The answer is 14. Well done!"
	fake.Push(out("The student answered correctly: 14."), out(praise))
	if r := f.turn(t, id, "14"); r.Reply != praise {
		t.Fatalf("the learner got %q, want the regenerated %q", r.Reply, praise)
	}
	if fake.Pending() != 0 {
		t.Fatalf("%d canned replies unused", fake.Pending())
	}
}
