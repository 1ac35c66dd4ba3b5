package runner_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/google/go-cmp/cmp"

	"github.com/tutord/tutord/curricula"
	"github.com/tutord/tutord/internal/auth"
	"github.com/tutord/tutord/internal/curriculum"
	"github.com/tutord/tutord/internal/eval/evaltest"
	"github.com/tutord/tutord/internal/eval/learner"
	"github.com/tutord/tutord/internal/eval/runner"
	"github.com/tutord/tutord/internal/eval/scenario"
	"github.com/tutord/tutord/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func sampleBank(t *testing.T) *learner.Bank {
	t.Helper()
	files, err := curriculum.LoadFS(curricula.FS())
	if err != nil {
		t.Fatal(err)
	}
	return learner.NewBank(files)
}

func parse(t *testing.T, name, doc string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Parse(name+".yaml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// ladder walks the first rung of the hint ladder; phase is the phase it
// expects after the first wrong answer.
func ladder(name, phase string) string {
	return `name: ` + name + `
subtopic: mathematics/fractions/adding-and-subtracting-fractions
turns:
  - say: Yes, I'm ready.
  - say: ok
  - say: ok
  - say: ok
  - say: ok
    expect: {state: {question_phase: asked}}
  - answer: wrong
    expect:
      state: {question_phase: ` + phase + `, last_answer_result: incorrect}
      reply: {answer: withheld}
expect:
  metrics: {leaks_before_explain: 0, turns: 6}
`
}

// dropping wraps tutord so that the WebSocket of a learner whose subject
// contains "dropped" is served by a stand-in that sends the opening frames
// and then closes the connection with an internal error when the first
// message arrives.
func dropping(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/sessions/ws/") || !strings.Contains(subject(r.URL.Query().Get("token")), "dropped") {
			next.ServeHTTP(w, r)
			return
		}
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		ctx := r.Context()
		id := strings.TrimPrefix(r.URL.Path, "/sessions/ws/")
		c.Write(ctx, websocket.MessageText, []byte(`{"type":"state_update","payload":{"message":null,"error":null,"state":{"session_id":"`+id+`","current_step":1,"total_steps":7,"current_concept":"Like fractions","progress_percentage":0,"mastery_estimates":{},"is_complete":false,"mode":"teach_me","coverage":0,"concepts_discussed":[],"exam_progress":null,"is_paused":false,"question_phase":null,"last_answer_result":null}}}`))
		c.Write(ctx, websocket.MessageText, []byte(`{"type":"assistant","payload":{"message":"Welcome!","state":null,"error":null}}`))
		c.Read(ctx)
		c.Close(websocket.StatusInternalError, "gone")
	})
}

// failing wraps tutord so that the WebSocket of a learner whose subject
// contains "busy" answers every message with "still being answered", and
// every other learner's with "Internal error": each message gets an error
// frame, then the state, as tutord sends after a failed turn.
func failing(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/sessions/ws/") {
			next.ServeHTTP(w, r)
			return
		}
		refusal := "Internal error"
		if strings.Contains(subject(r.URL.Query().Get("token")), "busy") {
			refusal = "A message is still being answered"
		}
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := r.Context()
		id := strings.TrimPrefix(r.URL.Path, "/sessions/ws/")
		state := []byte(`{"type":"state_update","payload":{"message":null,"error":null,"state":{"session_id":"` + id + `","current_step":1,"total_steps":7,"current_concept":"Like fractions","progress_percentage":0,"mastery_estimates":{},"is_complete":false,"mode":"teach_me","coverage":0,"concepts_discussed":[],"exam_progress":null,"is_paused":false,"question_phase":null,"last_answer_result":null}}}`)
		c.Write(ctx, websocket.MessageText, state)
		c.Write(ctx, websocket.MessageText, []byte(`{"type":"assistant","payload":{"message":"Welcome! Ready to start?","state":null,"error":null}}`))
		for {
			_, data, err := c.Read(ctx)
			if err != nil {
				return
			}
			if strings.Contains(string(data), `"chat"`) {
				c.Write(ctx, websocket.MessageText, []byte(`{"type":"error","payload":{"message":null,"state":null,"error":"`+refusal+`"}}`))
			}
			c.Write(ctx, websocket.MessageText, state)
		}
	})
}

// subject returns the sub claim of a JWT without checking it.
func subject(token string) string {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return ""
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return ""
	}
	var claims struct {
		Sub string `json:"sub"`
	}
	json.Unmarshal(payload, &claims)
	return claims.Sub
}

// TestRun plays, on one tutord, a scenario that passes, one whose
// expectation is wrong, and one whose WebSocket the server drops: each
// outcome is that scenario's only.
func TestRun(t *testing.T) {
	url := evaltest.Start(t, evaltest.Options{Wrap: dropping})
	scenarios := []*scenario.Scenario{
		parse(t, "passes", ladder("passes", "probe")),
		parse(t, "wrong-expectation", ladder("wrong-expectation", "hint")),
		parse(t, "dropped", ladder("dropped", "probe")),
	}
	var done []string
	results := runner.Run(context.Background(), runner.Config{
		BaseURL: url, Auth: runner.Auth{Secret: evaltest.Secret, Admin: adminRule(t)}, Concurrency: 3, Bank: sampleBank(t),
		Done: func(r *runner.Result) { done = append(done, r.Name) },
	}, scenarios)
	if len(results) != 3 {
		t.Fatalf("%d results, want 3", len(results))
	}

	pass := results[0]
	if pass.Status != runner.Passed || len(pass.Failures) > 0 || pass.Error != "" {
		t.Errorf("passes: %s %v %q, want passed", pass.Status, pass.Failures, pass.Error)
	}
	if len(pass.Turns) != 7 || pass.Turns[0].Kind != "welcome" || pass.Turns[0].Tutor == "" {
		t.Fatalf("passes: %d turns, want the welcome and 6 turns", len(pass.Turns))
	}
	last := pass.Turns[6]
	if last.Question == nil || last.Question.Answer == "" || last.State.Phase() != "probe" || last.Move != "wrong" {
		t.Errorf("passes: the wrong answer's turn = %+v", last)
	}
	if !strings.HasPrefix(pass.Learner, "eval-") || pass.SessionID == "" {
		t.Errorf("passes: learner %q, session %q", pass.Learner, pass.SessionID)
	}

	wrong := results[1]
	want := []runner.Failure{{At: "turn 6", Check: "state.question_phase", Want: "hint", Got: "probe"}}
	if wrong.Status != runner.Failed || wrong.Error != "" {
		t.Errorf("wrong-expectation: %s %q, want failed", wrong.Status, wrong.Error)
	}
	if diff := cmp.Diff(want, wrong.Failures); diff != "" {
		t.Errorf("wrong-expectation failures (-want +got):\n%s", diff)
	}
	if got := wrong.Failures[0].String(); got != "turn 6: state.question_phase: want hint, got probe" {
		t.Errorf("failure text = %q", got)
	}

	dropped := results[2]
	if dropped.Status != runner.Error || !strings.Contains(dropped.Error, "turn 1: the WebSocket closed (status 1011") {
		t.Errorf("dropped: %s %q, want an error at turn 1 saying the WebSocket closed", dropped.Status, dropped.Error)
	}
	if len(done) != 3 {
		t.Errorf("Done was called for %v, want every scenario", done)
	}
}

func adminRule(t *testing.T) auth.AdminRule {
	t.Helper()
	r, err := auth.ParseAdminRule(auth.DefaultAdminRule)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestAuthModes plays the same scenario with minted tokens, with one given
// token and anonymously: the harness finds the answer in the bank when the
// session document hides it.
func TestAuthModes(t *testing.T) {
	url := evaltest.Start(t, evaltest.Options{})
	token, err := auth.Mint([]byte(evaltest.Secret), auth.MintOptions{Subject: "given", TTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	doc := ladder("ladder", "probe")
	pause := `name: pause
subtopic: mathematics/fractions/adding-and-subtracting-fractions
turns:
  - say: Yes, I'm ready.
  - action: pause
    expect: {state: {is_paused: true}}
`
	tests := []struct {
		name                  string
		auth                  runner.Auth
		wantLadder, wantPause runner.Status
		wantError             string
	}{
		{"minted", runner.Auth{Secret: evaltest.Secret, Admin: adminRule(t)}, runner.Passed, runner.Passed, ""},
		{"given token", runner.Auth{Token: token}, runner.Passed, runner.Passed, ""},
		{"anonymous", runner.Auth{}, runner.Passed, runner.Error, "needs an authenticated learner"},
		{"wrong secret", runner.Auth{Secret: strings.Repeat("x", 40)}, runner.Error, runner.Error, "tutord refuses the harness's tokens (GET /profile answered 401"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			results := runner.Run(context.Background(), runner.Config{BaseURL: url, Auth: tt.auth, Concurrency: 2, Bank: sampleBank(t)},
				[]*scenario.Scenario{parse(t, "ladder", doc), parse(t, "pause", pause)})
			if r := results[0]; r.Status != tt.wantLadder {
				t.Errorf("ladder: %s %v %q, want %s", r.Status, r.Failures, r.Error, tt.wantLadder)
			}
			if r := results[1]; r.Status != tt.wantPause || !strings.Contains(r.Error, tt.wantError) {
				t.Errorf("pause: %s %v %q, want %s with %q", r.Status, r.Failures, r.Error, tt.wantPause, tt.wantError)
			}
		})
	}
}

// TestSimulatedLearner lets a simulated learner finish a lesson and checks
// the metrics the transcript gives.
func TestSimulatedLearner(t *testing.T) {
	url := evaltest.Start(t, evaltest.Options{})
	sc := parse(t, "ace", `subtopic: mathematics/fractions/multiplying-fractions
learner: {persona: ace, max_turns: 40, traits: {correct: 1}}
expect:
  completed: true
  metrics: {answers_incorrect: 0, leaks_before_explain: 0}
`)
	r := runner.Run(context.Background(), runner.Config{BaseURL: url, Auth: runner.Auth{Secret: evaltest.Secret, Admin: adminRule(t)}, Bank: sampleBank(t)}, []*scenario.Scenario{sc})[0]
	if r.Status != runner.Passed {
		t.Fatalf("%s %v %q", r.Status, r.Failures, r.Error)
	}
	m := r.Metrics
	if !m.Completed || m.TurnsToComplete != m.Turns || m.AnswersCorrect == 0 || m.QuestionsAsked != m.AnswersCorrect || len(m.TurnsToMastery) == 0 {
		t.Errorf("metrics = %+v", m)
	}
	if m.Latency.Count != m.Turns || m.Latency.P50 <= 0 || m.Latency.P99 < m.Latency.P50 {
		t.Errorf("latency = %+v", m.Latency)
	}
}

// A simulated learner's message answered with an error frame fails its
// turn, as a fixed turn's does, unless the frame asks to send again (a
// message still being answered), which only the resends count.
func TestErrorFrameFailsASimulatedTurn(t *testing.T) {
	url := evaltest.Start(t, evaltest.Options{Wrap: failing})
	doc := "subtopic: mathematics/fractions/adding-and-subtracting-fractions\nlearner: {persona: ace, max_turns: 2}\n"
	results := runner.Run(context.Background(), runner.Config{
		BaseURL: url, Auth: runner.Auth{Secret: evaltest.Secret, Admin: adminRule(t)}, Concurrency: 2, Bank: sampleBank(t),
	}, []*scenario.Scenario{parse(t, "failing", doc), parse(t, "busy", doc)})

	failed := results[0]
	want := []runner.Failure{
		{At: "turn 1", Check: "error", Want: "no error frame", Got: `"Internal error"`},
		{At: "turn 2", Check: "error", Want: "no error frame", Got: `"Internal error"`},
	}
	if failed.Status != runner.Failed || failed.Error != "" {
		t.Errorf("every simulated message refused: %s %q, want failed", failed.Status, failed.Error)
	}
	if diff := cmp.Diff(want, failed.Failures); diff != "" {
		t.Errorf("failures (-want +got):\n%s", diff)
	}

	busy := results[1]
	if busy.Status != runner.Passed || busy.Metrics.Resends == 0 {
		t.Errorf("every simulated message still being answered: %s %v %q, %d resends; want passed, the resends counted",
			busy.Status, busy.Failures, busy.Error, busy.Metrics.Resends)
	}
}

// tutord answers a burst of get_state with an error frame and no state
// ("Too many get_state requests"): the harness waits and asks again, as
// for its message rate limit, and counts the resends.
func TestGetStateThrottleIsWaitedOut(t *testing.T) {
	url := evaltest.Start(t, evaltest.Options{})
	sc := parse(t, "many-states", "subtopic: mathematics/fractions/adding-and-subtracting-fractions\nturns:\n"+
		strings.Repeat("  - action: get_state\n", 30))
	r := runner.Run(context.Background(), runner.Config{
		BaseURL: url, Auth: runner.Auth{Secret: evaltest.Secret, Admin: adminRule(t)}, Bank: sampleBank(t), FrameTimeout: 5 * time.Second,
	}, []*scenario.Scenario{sc})[0]
	if r.Status != runner.Passed {
		t.Fatalf("30 get_state actions: %s %q %v, want passed", r.Status, r.Error, r.Failures)
	}
	if r.Metrics.Resends == 0 || r.Metrics.ErrorFrames != 0 {
		t.Errorf("30 get_state actions: resends %d, error frames %d; want the throttled get_states counted as resends, not as errors", r.Metrics.Resends, r.Metrics.ErrorFrames)
	}
	for _, turn := range r.Turns[1:] {
		if turn.State == nil {
			t.Errorf("turn %d: no state", turn.Index)
		}
	}
}

// After a message's error frame the harness asks for the state; when that
// get_state is throttled it asks again, not sending the message twice, and
// the turn's error stays the message's.
func TestGetStateThrottleAfterAnErrorFrame(t *testing.T) {
	var chats int
	srv := httptest.NewServer(fakeExam("Welcome!", func(n int, frame []byte) []string {
		if strings.Contains(string(frame), `"chat"`) {
			chats++
			return []string{`{"type":"error","payload":{"error":"Message too long"}}`}
		}
		if chats == 1 && n == 2 { // the first get_state after the error
			return []string{`{"type":"error","payload":{"error":"Too many get_state requests; please slow down"}}`}
		}
		return nil
	}))
	defer srv.Close()
	sc := parse(t, "refused", "subtopic: mathematics/sums/small-sums\nmode: exam\nturns:\n  - say: hi\n    expect: {error: too long}\n")
	r := runner.Run(context.Background(), runner.Config{BaseURL: srv.URL, FrameTimeout: 5 * time.Second}, []*scenario.Scenario{sc})[0]
	if r.Status != runner.Passed || chats != 1 {
		t.Fatalf("%s %q %v, the message sent %d times; want passed, sent once", r.Status, r.Error, r.Failures, chats)
	}
	if turn := r.Turns[1]; turn.Error != "Message too long" || turn.Resends != 1 || turn.State == nil {
		t.Errorf("the refused message's turn: error %q, %d resends, state %v; want the message's error, 1 resend and a state", turn.Error, turn.Resends, turn.State)
	}
}
