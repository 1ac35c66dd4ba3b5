package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// strings collects every string value of a JSON document with its path.
func jsonStrings(t testing.TB, raw []byte) map[string]string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("not JSON: %s", raw)
	}
	out := map[string]string{}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if k == "reasoning" {
					t.Fatalf("a learner-facing document has a reasoning field at %s", path)
				}
				walk(path+"."+k, e)
			}
		case []any:
			for i, e := range x {
				walk(fmt.Sprintf("%s[%d]", path, i), e)
			}
		case string:
			out[path] = x
		}
	}
	walk("", v)
	return out
}

// secrets are what a learner must not see at a moment of a session: the
// pending question's expected answer (before its explain phase) and
// rubric, its hints not given yet, the answers of exam questions not
// answered yet. They come from the admin's unredacted document.
func secretsOf(t testing.TB, admin map[string]any) []string {
	t.Helper()
	var out []string
	if q, ok := admin["last_question"].(map[string]any); ok && q["phase"] != "explain" {
		out = append(out, q["expected_answer"].(string))
		if r, _ := q["rubric"].(string); r != "" {
			out = append(out, r)
		}
		used := int(q["hints_used"].(float64))
		for i, h := range q["hints"].([]any) {
			if i >= used {
				out = append(out, h.(string))
			}
		}
	}
	for _, eq := range admin["exam_questions"].([]any) {
		q := eq.(map[string]any)
		if q["result"] == nil {
			out = append(out, q["expected_answer"].(string))
		}
	}
	return out
}

// checkNoSecrets fails when a learner-facing body holds a secret as a
// JSON value, or states a hint that was not given yet anywhere in its text.
func checkNoSecrets(t testing.TB, where string, body []byte, secrets []string) {
	t.Helper()
	for path, v := range jsonStrings(t, body) {
		for _, s := range secrets {
			if s == "" {
				continue
			}
			if v == s || (len(s) > 20 && strings.Contains(v, s)) {
				t.Fatalf("%s: %s holds %q, which the learner must not see yet", where, path, s)
			}
		}
	}
}

// readRawFrame returns the next WebSocket frame as sent, checked against
// the contract's ServerFrame (read() decodes only the fields it knows).
func (w *wsClient) readRawFrame() []byte {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, data, err := w.c.Read(ctx)
	if err != nil {
		w.t.Fatalf("read: %v", err)
	}
	doc, _ := spec()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		w.t.Fatalf("frame is not JSON: %s", data)
	}
	if err := doc.Components.Schemas["ServerFrame"].Value.VisitJSON(v); err != nil {
		w.t.Fatalf("frame %s does not match ServerFrame: %v", data, firstLines(err.Error(), 6))
	}
	return data
}

// TestNoLeaksToLearners walks every learner-facing response and WebSocket
// frame of a full teach_me session and a full exam, and checks none of
// them carries an expected answer, rubric or hint the learner has not
// earned yet, nor the tutor's reasoning: the creation's first turn, the
// WebSocket's first frames, every turn, the session document, replay,
// summary, history and the learner's data export at every moment, and
// pause, resume and end-exam.
func TestNoLeaksToLearners(t *testing.T) {
	s := newServer(t)
	admin := token(t, "root", true)
	for _, mode := range []string{"teach_me", "exam"} {
		t.Run(mode, func(t *testing.T) {
			// A learner per mode: the export then holds this session only,
			// and a lesson's answers do not count as the exam's secrets.
			learner := token(t, "walker-"+mode, false)
			created := s.do("POST", "/sessions", createBody(s.subject["mathematics/ratios-and-percentages/percentages"], mode), learner)
			if created.Status != 200 {
				t.Fatalf("create: %d %s", created.Status, created.Body)
			}
			id := created.JSON(t)["session_id"].(string)
			secrets := secretsOf(t, s.do("GET", "/sessions/"+id, nil, admin).JSON(t))
			if mode == "exam" && len(secrets) == 0 {
				t.Fatal("a new exam has no pending answers: the check tests nothing")
			}
			checkNoSecrets(t, "POST /sessions", created.Body, secrets)
			w, _, err := s.dial(t, id, learner)
			if err != nil {
				t.Fatal(err)
			}
			checkNoSecrets(t, "first frame", w.readRawFrame(), secrets)  // state_update
			checkNoSecrets(t, "second frame", w.readRawFrame(), secrets) // the welcome
			checked := 0
			defer func() {
				if checked < 5 {
					t.Errorf("only %d moments had something to keep secret: the walk tested little", checked)
				}
			}()
			for i := 0; i < 80; i++ {
				adminDoc := s.do("GET", "/sessions/"+id, nil, admin).JSON(t)
				secrets := secretsOf(t, adminDoc)
				if len(secrets) > 0 {
					checked++
				}
				paths := []string{"/sessions/" + id, "/sessions/" + id + "/replay", "/sessions/" + id + "/summary", "/profile/export"}
				if i%5 == 0 {
					paths = append(paths, "/sessions/history")
				}
				for _, path := range paths {
					checkNoSecrets(t, path, s.do("GET", path, nil, learner).Body, secrets)
				}
				if mode == "teach_me" && i == 4 {
					// Pause and resume mid-lesson change nothing that is secret.
					for _, action := range []string{"pause", "resume"} {
						r := s.do("POST", "/sessions/"+id+"/"+action, nil, learner)
						if r.Status != 200 {
							t.Fatalf("%s: %d %s", action, r.Status, r.Body)
						}
						checkNoSecrets(t, action, r.Body, secrets)
						checkNoSecrets(t, action+" broadcast", w.readRawFrame(), secrets)
					}
				}
				if adminDoc["exam_finished"] == true || (mode == "teach_me" && adminDoc["current_step"].(float64) > 7) {
					break
				}
				// A learner who is wrong twice, then right.
				msg := "ok"
				if q, ok := adminDoc["last_question"].(map[string]any); ok && mode == "teach_me" {
					msg = "12"
					if q["wrong_attempts"].(float64) >= 2 {
						msg = q["expected_answer"].(string)
					}
				}
				if mode == "exam" {
					msg = "I think it is 3"
					if i%2 == 0 {
						idx := int(adminDoc["exam_current_question_idx"].(float64))
						msg = adminDoc["exam_questions"].([]any)[idx].(map[string]any)["expected_answer"].(string)
					}
				}
				// A turn's own reply may give what the turn earned (a hint, or
				// the answer in the explain phase): check it against what is
				// still secret after the turn.
				var bodies [][]byte
				if i%3 == 0 { // alternate REST and WebSocket turns
					bodies = append(bodies, s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": msg}, learner).Body)
					bodies = append(bodies, w.readRawFrame()) // the broadcast state_update
				} else {
					w.send(map[string]any{"type": "chat", "payload": map[string]any{"message": msg}})
					for range 3 { // typing, assistant, state_update
						bodies = append(bodies, w.readRawFrame())
					}
				}
				after := secretsOf(t, s.do("GET", "/sessions/"+id, nil, admin).JSON(t))
				for _, b := range bodies {
					checkNoSecrets(t, "turn "+fmt.Sprint(i), b, after)
				}
			}
		})
	}
	// An exam ended early: the unanswered questions keep their answers.
	t.Run("end-exam", func(t *testing.T) {
		learner := token(t, "walker-end-exam", false)
		id := s.newSession("mathematics/ratios-and-percentages/percentages", "exam", learner)
		first := s.do("GET", "/sessions/"+id, nil, admin).JSON(t)["exam_questions"].([]any)[0].(map[string]any)
		s.do("POST", "/sessions/"+id+"/step", map[string]any{"student_reply": first["expected_answer"]}, learner)
		r := s.do("POST", "/sessions/"+id+"/end-exam", nil, learner)
		if r.Status != 200 {
			t.Fatalf("end-exam: %d %s", r.Status, r.Body)
		}
		secrets := secretsOf(t, s.do("GET", "/sessions/"+id, nil, admin).JSON(t))
		if len(secrets) == 0 {
			t.Fatal("no unanswered question after ending the exam at question 2: the check tests nothing")
		}
		checkNoSecrets(t, "end-exam", r.Body, secrets)
		for _, path := range []string{"/sessions/" + id, "/sessions/" + id + "/replay", "/profile/export", "/sessions/history"} {
			checkNoSecrets(t, path, s.do("GET", path, nil, learner).Body, secrets)
		}
	})
}
