package llmagent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/llm/llmtest"
	"github.com/tutord/tutord/internal/tutor"
)

var approx = cmpopts.EquateApprox(0, 1e-12)

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// cost is the price of the fixture usage (1200 input tokens, 1000 of them
// cached, and 150 output tokens) times n calls.
func cost(t *testing.T, p llm.Provider, model string, n int) float64 {
	t.Helper()
	c, ok := llm.DefaultPrices().Cost(p, model, llm.Usage{InputTokens: int64(1200 * n), CachedInputTokens: int64(1000 * n), OutputTokens: int64(150 * n)})
	if !ok {
		t.Fatalf("no price for %s/%s", p, model)
	}
	return c
}

func TestTutorRecordsTheCall(t *testing.T) {
	o := out("Let's add the ninths: what do you get?", func(o *tutor.TutorOutput) { o.Reasoning = "Probe the denominator." })
	f := newOpenAI(t, reply(t, o))
	r, c, err := f.tutor(t).Respond(context.Background(), lesson(t).turn("7/18"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(agents.TutorReply{Output: o}, r); diff != "" {
		t.Errorf("reply (-want +got):\n%s", diff)
	}
	system, user := sentPrompt(t, f.srv.Requests()[0].Body)
	want := agents.Call{
		Agent: agents.NameMasterTutor, Provider: "openai", Model: testModel,
		Prompt: "[system]\n" + system + "\n\n[user]\n" + user, Output: mustJSON(t, o), Reasoning: "Probe the denominator.",
		Latency: callTime, Attempts: 1, InputTokens: 1200, OutputTokens: 150, CachedTokens: 1000,
		CostUSD: cost(t, llm.ProviderOpenAI, testModel, 1),
	}
	if diff := cmp.Diff(want, c, approx); diff != "" {
		t.Errorf("call record (-want +got):\n%s", diff)
	}
}

func TestTutorRepairsASchemaViolatingReply(t *testing.T) {
	o := out("Try counting the ninths.")
	bad := llmtest.Reply{Text: `{"response": "Try counting the ninths.", "intent": "pondering"}`, Usage: llmtest.Usage{Input: 1200, Output: 150, Cached: 1000}}
	f := newOpenAI(t, bad, reply(t, o))
	r, c, err := f.tutor(t).Respond(context.Background(), lesson(t).turn("7/18"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(o, r.Output); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
	reqs := f.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want the reply and its repair", len(reqs))
	}
	var repair struct {
		Messages []struct{ Role, Content string }
	}
	if err := json.Unmarshal(reqs[1].Body, &repair); err != nil {
		t.Fatal(err)
	}
	if n := len(repair.Messages); n != 4 || repair.Messages[2].Role != "assistant" || !strings.Contains(repair.Messages[3].Content, "schema") {
		t.Errorf("the repair request does not carry the bad reply and the problem: %+v", repair.Messages)
	}
	if c.Attempts != 2 || c.InputTokens != 2400 || c.OutputTokens != 300 || c.CachedTokens != 2000 || c.Err != nil {
		t.Errorf("call record %+v: want two attempts and the tokens of both", c)
	}
	if diff := cmp.Diff(cost(t, llm.ProviderOpenAI, testModel, 2), c.CostUSD, approx); diff != "" {
		t.Errorf("cost (-want +got):\n%s", diff)
	}
}

func TestTutorRetriesAProviderFailure(t *testing.T) {
	o := out("Let's look at the parts.")
	f := newOpenAI(t, llmtest.Reply{Fail: llmtest.ServerError}, reply(t, o))
	r, c, err := f.tutor(t).Respond(context.Background(), lesson(t).turn("7/18"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Output.Response != o.Response || c.Attempts != 2 || c.Err != nil || len(c.Output) == 0 {
		t.Errorf("reply %q, call %+v: want the second attempt's reply after one retry", r.Output.Response, c)
	}
}

func TestTutorFailures(t *testing.T) {
	invalid := llmtest.Reply{Text: `{"response": ""}`}
	tests := []struct {
		name    string
		replies []llmtest.Reply
		want    error
	}{
		{"refusal", []llmtest.Reply{{Refusal: "I can't help with that."}}, llm.ErrRefused},
		{"invalid twice", []llmtest.Reply{invalid, invalid}, llm.ErrInvalidOutput},
		{"unauthorized", []llmtest.Reply{{Fail: llmtest.Unauthorized}}, llm.ErrAuth},
		{"context too long", []llmtest.Reply{{Fail: llmtest.ContextTooLong}}, llm.ErrContextTooLong},
		{"malformed every time", []llmtest.Reply{{Fail: llmtest.MalformedBody}, {Fail: llmtest.MalformedBody}, {Fail: llmtest.MalformedBody}}, llm.ErrUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newOpenAI(t, tt.replies...)
			r, c, err := f.tutor(t).Respond(context.Background(), lesson(t).turn("7/18"))
			if !errors.Is(err, tt.want) {
				t.Fatalf("error %v, want %v", err, tt.want)
			}
			if _, ok := errors.AsType[*llm.Error](err); !ok {
				t.Errorf("error %T is not an *llm.Error", err)
			}
			if diff := cmp.Diff(agents.TutorReply{}, r); diff != "" {
				t.Errorf("a failed call returned a reply:\n%s", diff)
			}
			if c.Err != err || c.Output != nil || c.Agent != agents.NameMasterTutor || !strings.HasPrefix(c.Prompt, "[system]\n") || c.Latency != callTime {
				t.Errorf("call record %+v", c)
			}
			if f.srv.Pending() != 0 {
				t.Errorf("%d scripted replies unused", f.srv.Pending())
			}
		})
	}
}

func TestTutorOnEveryProvider(t *testing.T) {
	o := out("Add the numerators and keep the ninths.", asks("What is 2/9 + 5/9?", "7/9", "Like fractions"))
	for _, newFake := range []func(*testing.T, ...llmtest.Reply) *fake{newOpenAI, newAnthropic, newGemini} {
		f := newFake(t, reply(t, o))
		t.Run(string(f.provider), func(t *testing.T) {
			se := newSession(t, tutor.ModeTeachMe, sampleTopic(t, addingFractions))
			r, c, err := f.tutor(t).Respond(context.Background(), se.turn("hi"))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(o, r.Output); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
			if r.NextQuestion == nil || r.NextQuestion.ID != "like-1" {
				t.Errorf("next question %+v, want bank question like-1", r.NextQuestion)
			}
			want := agents.Call{Provider: string(f.provider), Model: f.model, Attempts: 1, InputTokens: 1200, OutputTokens: 150, CachedTokens: 1000, CostUSD: cost(t, f.provider, f.model, 1)}
			got := agents.Call{Provider: c.Provider, Model: c.Model, Attempts: c.Attempts, InputTokens: c.InputTokens, OutputTokens: c.OutputTokens, CachedTokens: c.CachedTokens, CostUSD: c.CostUSD}
			if diff := cmp.Diff(want, got, approx); diff != "" {
				t.Errorf("call record (-want +got):\n%s", diff)
			}
			body := string(f.srv.Requests()[0].Body)
			system, err := tutorSystem(tutor.ModeTeachMe, se.topic, se.state.StudentContext)
			if err != nil {
				t.Fatal(err)
			}
			if enc := mustJSON(t, system); !strings.Contains(body, string(enc[1:len(enc)-1])) {
				t.Error("the request does not carry the system prompt")
			}
		})
	}
}

func TestTutorRejectsTurnsItCannotServe(t *testing.T) {
	exam := newSession(t, tutor.ModeExam, sampleTopic(t, addingFractions)).turn("3/5")
	noLesson := lesson(t).turn("7/18")
	noLesson.Topic = nil
	tests := []struct {
		name   string
		turn   agents.Turn
		client bool
	}{
		{"exam mode", exam, true},
		{"no lesson", noLesson, true},
		{"no client", lesson(t).turn("7/18"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newOpenAI(t)
			var cl llm.Client
			if tt.client {
				cl = f.client(t, llm.ComponentTutor)
			}
			tu := NewTutor(cl, f.config(llm.ComponentTutor), Options{})
			r, c, err := tu.Respond(context.Background(), tt.turn)
			if !errors.Is(err, llm.ErrInvalidRequest) || c.Err != err {
				t.Errorf("error %v, call error %v: want an invalid request", err, c.Err)
			}
			if diff := cmp.Diff(agents.TutorReply{}, r); diff != "" {
				t.Errorf("reply:\n%s", diff)
			}
			if n := len(f.srv.Requests()); n != 0 {
				t.Errorf("%d requests sent", n)
			}
		})
	}
}

func TestBankQuestion(t *testing.T) {
	se := lesson(t) // on step 2, concept "Like fractions"
	tests := []struct {
		name                     string
		asked, expected, concept *string
		want                     string
	}{
		{"the bank's text", new("What is 2/9 + 5/9?"), new("7/9"), nil, "like-1"},
		{"the text without its punctuation", new("what is 2/9+5/9"), nil, nil, "like-1"},
		{"the text inside a longer question", new("Here is one for you: What is 2/9 + 5/9?"), nil, nil, "like-1"},
		{"its numbers and an accepted answer", new("Can you add 2/9 and 5/9 for me?"), new("seven ninths"), nil, "like-1"},
		{"its numbers and another answer", new("Can you add 2/9 and 5/9 for me?"), new("7/18"), nil, ""},
		{"the answer with other numbers", new("What is 3/9 + 4/9?"), new("7/9"), nil, ""},
		{"another concept's question", new("What is 1/3 + 1/4?"), new("7/12"), nil, ""},
		{"another concept the tutor names", new("What is 1/3 + 1/4?"), new("7/12"), new("unlike fractions"), "unlike-1"},
		{"the tutor's own question", new("How many ninths make a whole?"), new("9"), nil, ""},
		{"no question", nil, nil, nil, ""},
		{"a blank question", new("  ?! "), nil, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := out("…", func(o *tutor.TutorOutput) {
				o.QuestionAsked, o.ExpectedAnswer, o.QuestionConcept = tt.asked, tt.expected, tt.concept
			})
			got := ""
			if q := bankQuestion(se.topic, se.state, &o); q != nil {
				got = q.ID
			}
			if got != tt.want {
				t.Errorf("bank question %q, want %q", got, tt.want)
			}
		})
	}
}

func TestClarifyRepliesNameNoBankQuestion(t *testing.T) {
	o := out("Yes: 2/9 + 5/9 is a sum of like fractions.", asks("What is 2/9 + 5/9?", "7/9", "Like fractions"))
	f := newOpenAI(t, reply(t, o))
	r, _, err := f.tutor(t).Respond(context.Background(), clarify(t).turn("what is 2/9 + 5/9?"))
	if err != nil {
		t.Fatal(err)
	}
	if r.NextQuestion != nil {
		t.Errorf("a doubts session got a bank question: %+v", r.NextQuestion)
	}
}

// spendLog is a budget's spend reader that remembers whom it was asked about.
type spendLog struct {
	mu       sync.Mutex
	learners []string
}

func (s *spendLog) LearnerSpendSince(_ context.Context, learnerID string, _ time.Time) (float64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.learners = append(s.learners, learnerID)
	return 0, nil
}

func (s *spendLog) AnonymousSpendSince(ctx context.Context, since time.Time) (float64, error) {
	return s.LearnerSpendSince(ctx, "", since)
}

func TestWithLearnerNamesTheLearnerOfEveryCall(t *testing.T) {
	f := newOpenAI(t, reply(t, out("Hello!")))
	spend := &spendLog{}
	cl, err := llm.Resolve(f.config(llm.ComponentTutor), f.settings, llm.Options{Budget: &llm.Budget{DailyUSD: 1, Spend: spend}})
	if err != nil {
		t.Fatal(err)
	}
	tu := NewTutor(cl, f.config(llm.ComponentTutor), Options{})
	ctx := agents.WithLearner(context.Background(), "learner-42")
	if _, _, err := tu.Respond(ctx, lesson(t).turn("hi")); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"learner-42"}, spend.learners); diff != "" {
		t.Errorf("budget checked for (-want +got):\n%s", diff)
	}
}
