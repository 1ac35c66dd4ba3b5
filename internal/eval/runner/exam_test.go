package runner_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/tutord/tutord/internal/eval/runner"
	"github.com/tutord/tutord/internal/eval/scenario"
)

// fakeExam serves an anonymous exam session of one question, What is
// 2 + 2? (answer 4), which no learner has answered yet: every WebSocket
// opens with the state and welcome, and the n-th frame the client sends
// (from 1) is answered with the frames answer returns, else the state.
// answer may be nil.
func fakeExam(welcome string, answer func(n int, frame []byte) []string) http.Handler {
	const state = `{"session_id":"s1","current_step":1,"total_steps":1,"current_concept":null,"progress_percentage":0,"mastery_estimates":{},"is_complete":false,"mode":"exam","coverage":0,"concepts_discussed":[],"exam_progress":{"current_question":1,"total_questions":1,"correct_so_far":0},"is_paused":false,"question_phase":null,"last_answer_result":null}`
	mux := http.NewServeMux()
	mux.HandleFunc("GET /curriculum", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		switch {
		case q.Get("grade") != "7":
			w.Write([]byte(`{"subjects":[]}`))
		case q.Get("topic") != "":
			w.Write([]byte(`{"subtopics":[{"subtopic":"Sums","guideline_id":"g1","key":"mathematics/sums/small-sums"}]}`))
		case q.Get("subject") != "":
			w.Write([]byte(`{"topics":["Sums"]}`))
		default:
			w.Write([]byte(`{"subjects":["Mathematics"]}`))
		}
	})
	mux.HandleFunc("POST /sessions", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"session_id":"s1","first_turn":{"message":""},"mode":"exam"}`))
	})
	mux.HandleFunc("GET /sessions/s1", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"session_id":"s1","turn_count":0,"mode":"exam","current_step":1,"last_question":null,"safety_flags":[],` +
			`"exam_questions":[{"question_idx":0,"question_id":"q1","question_text":"What is 2 + 2?","concept":"Sums","expected_answer":"4"}],` +
			`"exam_current_question_idx":0,"exam_total_correct":0,"exam_finished":false}`))
	})
	mux.HandleFunc("GET /sessions/s1/summary", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{}`)) })
	mux.HandleFunc("GET /sessions/ws/s1", func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := r.Context()
		frame := func(typ, payload string) {
			c.Write(ctx, websocket.MessageText, []byte(`{"type":"`+typ+`","payload":`+payload+`}`))
		}
		frame("state_update", `{"state":`+state+`}`)
		msg, _ := json.Marshal(welcome)
		frame("assistant", `{"message":`+string(msg)+`}`)
		for n := 1; ; n++ {
			_, data, err := c.Read(ctx)
			if err != nil {
				return
			}
			var frames []string
			if answer != nil {
				frames = answer(n, data)
			}
			if frames == nil {
				frame("state_update", `{"state":`+state+`}`)
			}
			for _, f := range frames {
				c.Write(ctx, websocket.MessageText, []byte(f))
			}
		}
	})
	return mux
}

// An exam's welcome poses the first question, so a welcome that gives its
// answer away leaks before the exam is over, as a reply would; so does the
// welcome a reconnect gets before the first message.
func TestExamWelcomeIsCheckedForLeaks(t *testing.T) {
	const leaky = "Welcome to your exam! Question 1: What is 2 + 2? The answer is 4."
	tests := []struct {
		name, welcome, turns string
		leaks                int
		want                 runner.Status
	}{
		{"leaky welcome", leaky, "[{action: get_state}]", 1, runner.Failed},
		{"leaky welcome, again on reconnect", leaky, "[{action: reconnect}]", 2, runner.Failed},
		{"welcome that asks only", "Welcome to your exam! Question 1: What is 2 + 2?", "[{action: reconnect}]", 0, runner.Passed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(fakeExam(tt.welcome, nil))
			defer srv.Close()
			sc := parse(t, "exam", "subtopic: mathematics/sums/small-sums\nmode: exam\nturns: "+tt.turns+"\nexpect: {metrics: {leaks_before_explain: 0}}\n")
			r := runner.Run(context.Background(), runner.Config{BaseURL: srv.URL, FrameTimeout: 5 * time.Second}, []*scenario.Scenario{sc})[0]
			if r.Status == runner.Error {
				t.Fatalf("the scenario could not be played: %s", r.Error)
			}
			if r.Metrics.LeaksBeforeExplain != tt.leaks || r.Status != tt.want {
				t.Errorf("welcome %q: leaks_before_explain = %d, %s; want %d, %s", tt.welcome, r.Metrics.LeaksBeforeExplain, r.Status, tt.leaks, tt.want)
			}
			if q := r.Turns[0].Asked; q == nil || q.ID != "q1" || q.Answer != "4" {
				t.Errorf("the welcome turn asked %+v, want question q1 (answer 4)", q)
			}
		})
	}
}
