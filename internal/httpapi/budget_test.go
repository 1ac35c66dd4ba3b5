package httpapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	neturl "net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tutord/tutord/internal/agents/engine"
	"github.com/tutord/tutord/internal/agents/rules"
	"github.com/tutord/tutord/internal/httpapi"
	"github.com/tutord/tutord/internal/lessons"
	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/llm/llmtest"
	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/store"
)

// withModels runs components on the OpenAI-compatible model server at url,
// with LLM options that set may change (it is given the store, e.g. for a
// budget).
func withModels(t *testing.T, url string, set func(*llm.Options, *store.Store), components ...llm.Component) serverOption {
	return func(_ *httpapi.Options, d *httpapi.Deps) {
		st := d.Learners.(*store.Store)
		agents, err := rules.New()
		if err != nil {
			t.Fatal(err)
		}
		models := engine.LLMModels{Settings: llm.Settings{CompatibleBaseURL: url, Prices: llm.DefaultPrices()}}
		if set != nil {
			set(&models.Options, st)
		}
		d.Sessions = orchestrator.New(orchestrator.Options{Store: st, Lessons: lessons.NewSource(st), Engines: engine.New(agents, models, st), FallbackSafety: agents.Safety})
		for _, c := range components {
			cfg := llm.Config{Component: c, Provider: llm.ProviderOpenAICompatible, Model: "fake-model"}
			if _, err := st.SetLLMConfig(context.Background(), cfg, "test", time.Time{}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// quickRetries retries failed model calls at once: the failure matters to
// the tests, not the wait.
func quickRetries(o *llm.Options, _ *store.Store) {
	o.Retry = llm.RetryPolicy{MaxAttempts: 2, BaseDelay: 5 * time.Millisecond, MaxDelay: 20 * time.Millisecond}
	o.AttemptTimeout, o.CallTimeout = 5*time.Second, 10*time.Second
	o.Breakers = llm.NewBreakers(llm.BreakerOptions{Failures: 1000})
}

// A learner whose model budget is spent gets 429 budget_exceeded with
// Retry-After on a REST step, and the budget's message over WebSocket;
// the session does not change.
func TestSpentBudget(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	s := newServer(t, withModels(t, fake.URL, func(o *llm.Options, st *store.Store) {
		o.Budget = &llm.Budget{DailyUSD: 0.5, Spend: st}
	}, llm.ComponentTutor))
	tok := token(t, "spender", false)
	id := s.newSession(fractions, "teach_me", tok)
	l, err := s.st.LearnerByExternalID(context.Background(), "spender")
	if err != nil {
		t.Fatal(err)
	}
	err = s.st.RecordUsage(context.Background(), llm.UsageRecord{LearnerID: l.ID.String(), Component: llm.ComponentTutor,
		Provider: llm.ProviderOpenAICompatible, Model: "fake-model", Attempts: 1, CostUSD: 0.75, Priced: true})
	if err != nil {
		t.Fatal(err)
	}

	r := s.step(id, tok)
	if r.Status != 429 || r.code(t) != "budget_exceeded" {
		t.Fatalf("step with a spent budget: %d %s", r.Status, r.Body)
	}
	secs, err := strconv.Atoi(r.Header.Get("Retry-After"))
	if err != nil || secs < 1 || secs > 24*3600 {
		t.Fatalf("Retry-After %q; want the seconds until the budget renews", r.Header.Get("Retry-After"))
	}

	w := s.joined(t, id, tok)
	w.send(map[string]any{"type": "chat", "payload": map[string]any{"message": "ready"}})
	if f := w.read(); f.Type != "typing" {
		t.Fatalf("chat: %s, want typing", f.Type)
	}
	if f := w.read(); f.Type != "error" || !strings.Contains(*f.Payload.Error, "budget") {
		t.Fatalf("chat with a spent budget: %s %v", f.Type, f.Payload.Error)
	}

	if doc := s.do("GET", "/sessions/"+id, nil, tok).JSON(t); doc["turn_count"] != float64(0) {
		t.Fatalf("the refused turns changed the session: turn_count %v", doc["turn_count"])
	}
	if len(fake.Requests()) != 0 {
		t.Fatal("the model was called with the budget spent")
	}
}

// barrier holds the first n requests until all n have arrived (or a few
// seconds have passed), then lets every request through to next: the model
// calls of concurrent turns are then in flight together, as they are with
// a provider that takes seconds to answer.
func barrier(n int, next http.Handler) http.Handler {
	var mu sync.Mutex
	arrived := 0
	all := make(chan struct{})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		arrived++
		if arrived == n {
			close(all)
		}
		held := arrived <= n
		mu.Unlock()
		if held {
			select {
			case <-all:
			case <-time.After(3 * time.Second):
			}
		}
		next.ServeHTTP(w, r)
	})
}

// A learner whose daily budget is nearly spent sends a message in four
// lessons (tabs) at the same moment: one turn's model call may cross the
// cap, the others must find it spent. Before, every call passed the check,
// which reads the recorded spend, before any had been counted, and the
// learner ended the day near twice over the budget.
func TestBudgetHoldsAcrossTabs(t *testing.T) {
	const (
		tabs    = 4
		budget  = 0.05
		perCall = 0.012 // 100 input + 20 output tokens at $100 per million
	)
	fake := llmtest.NewOpenAI(t)
	for range 3 * tabs {
		fake.Push(llmtest.Reply{Text: `{}`}) // billed, not a valid tutor reply
	}
	hs := httptest.NewServer(barrier(tabs, fake))
	t.Cleanup(hs.Close)
	u, err := neturl.Parse(fake.URL)
	if err != nil {
		t.Fatal(err)
	}
	url := hs.URL + u.Path // the fake's base path (/v1) on the barrier's address
	var st *store.Store
	opt := func(_ *httpapi.Options, d *httpapi.Deps) {
		st = d.Learners.(*store.Store)
		agents, err := rules.New()
		if err != nil {
			t.Fatal(err)
		}
		prices := llm.DefaultPrices().With(llm.PriceTable{llm.ProviderOpenAICompatible: {
			llmtest.CompatibleModel: {Input: 100, Output: 100, CachedInput: 100, CacheWriteInput: 100},
		}})
		models := engine.LLMModels{Settings: llm.Settings{CompatibleBaseURL: url, Prices: prices}}
		quickRetries(&models.Options, st)
		models.Options.Recorder = st
		models.Options.Budget = &llm.Budget{DailyUSD: budget, Spend: st}
		d.Sessions = orchestrator.New(orchestrator.Options{Store: st, Lessons: lessons.NewSource(st), Engines: engine.New(agents, models, st), FallbackSafety: agents.Safety})
		cfg := llm.Config{Component: llm.ComponentTutor, Provider: llm.ProviderOpenAICompatible, Model: llmtest.CompatibleModel}
		if _, err := st.SetLLMConfig(context.Background(), cfg, "test", time.Time{}); err != nil {
			t.Fatal(err)
		}
	}
	s := newServer(t, opt)
	tok := token(t, "tabs", false)
	var ids []string
	for range tabs {
		ids = append(ids, s.newSession(fractions, "teach_me", tok))
	}
	l, err := s.st.LearnerByExternalID(context.Background(), "tabs")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.st.RecordUsage(context.Background(), llm.UsageRecord{Time: time.Now(), LearnerID: l.ID.String(), Component: llm.ComponentTutor,
		Provider: llm.ProviderOpenAICompatible, Model: llmtest.CompatibleModel, Attempts: 1, CostUSD: 0.045, Priced: true}); err != nil {
		t.Fatal(err)
	}

	var wg sync.WaitGroup
	statuses := make([]int, tabs)
	for i, id := range ids {
		wg.Go(func() { statuses[i] = s.step(id, tok).Status })
	}
	wg.Wait()

	day := time.Now().UTC().Truncate(24 * time.Hour)
	spent, err := s.st.LearnerSpendSince(context.Background(), l.ID.String(), day)
	if err != nil {
		t.Fatal(err)
	}
	if spent > budget+perCall+1e-9 {
		t.Fatalf("a $%.2f daily budget with $0.045 spent: %d concurrent turns (statuses %v) spent $%.3f in all, %d model requests; want at most one call past the cap ($%.3f)",
			budget, tabs, statuses, spent, len(fake.Requests()), budget+perCall)
	}
}

// TestAnonymousSessionsShareABudget: with a daily budget, anonymous
// sessions (no learner to count against) together have one learner's
// budget. Before, they had none: a learner whose budget was spent went on
// with paid models by leaving out their token.
func TestAnonymousSessionsShareABudget(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	s := newServer(t, withModels(t, fake.URL, func(o *llm.Options, st *store.Store) {
		o.Budget = &llm.Budget{DailyUSD: 0.5, Spend: st}
	}, llm.ComponentTutor))
	id := s.newSession(fractions, "teach_me", "")
	// Calls of other anonymous sessions today, and of a learner.
	s.do("GET", "/profile", nil, token(t, "someone", false))
	someone, err := s.st.LearnerByExternalID(context.Background(), "someone")
	if err != nil {
		t.Fatal(err)
	}
	for _, learner := range []string{"", "", someone.ID.String()} {
		if err := s.st.RecordUsage(context.Background(), llm.UsageRecord{LearnerID: learner, Component: llm.ComponentTutor,
			Provider: llm.ProviderOpenAICompatible, Model: "fake-model", Attempts: 1, CostUSD: 0.3, Priced: true}); err != nil {
			t.Fatal(err)
		}
	}
	r := s.step(id, "")
	if r.Status != 429 || r.code(t) != "budget_exceeded" {
		t.Fatalf("an anonymous step once anonymous sessions spent $0.60 of a $0.50 budget: %d %s; want 429 budget_exceeded", r.Status, r.Body)
	}
	if len(fake.Requests()) != 0 {
		t.Fatal("the model was called with the anonymous budget spent")
	}
	// A learner is not held by the anonymous sessions' spend.
	tok := token(t, "thrifty", false)
	fake.Push(llmtest.Reply{Text: `{"response":"Let's keep going: what would you try first?","intent":"continuation","answer_correct":null,` +
		`"misconceptions_detected":[],"mastery_signal":null,"advance_to_step":null,"mastery_updates":[],"question_asked":null,` +
		`"expected_answer":null,"question_concept":null,"session_complete":false,"turn_summary":"kept going","reasoning":"r"}`})
	if r := s.step(s.newSession(fractions, "teach_me", tok), tok); r.Status != 200 || len(fake.Requests()) != 1 {
		t.Fatalf("a learner with nothing spent: %d %s, %d model requests; want 200 from the model", r.Status, r.Body, len(fake.Requests()))
	}
}
