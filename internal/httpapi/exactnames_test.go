package httpapi_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/httpapi"
)

// detailItems returns the type and loc of each item of a 422 body's
// detail, sorted, as "type body.field".
func (r response) detailItems(t testing.TB) []string {
	t.Helper()
	var out []string
	types, locs := r.detailTypes(t), r.detailLocs(t)
	for i := range types {
		parts := make([]string, len(locs[i]))
		for j, p := range locs[i] {
			parts[j] = fmt.Sprint(p)
		}
		out = append(out, types[i]+" "+strings.Join(parts, "."))
	}
	slices.Sort(out)
	return out
}

// studentMessages returns the text of the learner's messages of a
// session, oldest first.
func (s *apiServer) studentMessages(id, tok string) []string {
	s.t.Helper()
	r := s.do("GET", "/sessions/"+id, nil, tok)
	if r.Status != 200 {
		s.t.Fatalf("GET /sessions/%s: %d %s", id, r.Status, r.Body)
	}
	var out []string
	log, _ := r.JSON(s.t)["full_conversation_log"].([]any)
	for _, m := range log {
		if m, _ := m.(map[string]any); m["role"] == "student" {
			out = append(out, fmt.Sprint(m["content"]))
		}
	}
	return out
}

// createJSON is a POST /sessions body with goal's (and the top level's)
// extra text spliced in, as sent.
func createJSON(s *apiServer, goalExtra, topExtra string) string {
	return `{"student":{"id":"s1","grade":7,"prefs":{"style":"standard","lang":"en"}},` +
		`"goal":{"topic":"Fractions","syllabus":"CBSE Grade 7","learning_objectives":[]` + goalExtra + `}` + topExtra + `}`
}

// TestMiscasedBodyFieldsAreUnknown: field names of request bodies match
// exactly, as the reference's pydantic matches them; encoding/json
// matched them in any case, so that "Student_Reply" was taken for
// "student_reply", and of "student_reply" and "STUDENT_REPLY" the last
// won. A miscased field is now an unknown field like any other: the
// request validator refuses it (422 extra_forbidden naming it, and the
// real field missing if it is required), and without the validator the
// handler ignores it, the request doing what it does without it.
func TestMiscasedBodyFieldsAreUnknown(t *testing.T) {
	for _, validator := range []bool{true, false} {
		t.Run(map[bool]string{true: "validator", false: "handler"}[validator], func(t *testing.T) {
			s := newServer(t, func(o *httpapi.Options, _ *httpapi.Deps) {
				if !validator {
					o.Validator = nil
				}
			})
			learner := token(t, "miscased-learner", false)
			admin := token(t, "miscased-admin", true)
			id := s.newSession(fractions, "", learner)
			step := "/sessions/" + id + "/step"
			guideline := s.subject[fractions].String()
			const otherGuideline = "00000000-0000-4000-8000-000000000000"
			if r := s.do("PUT", "/profile", `{"name":"Asha"}`, learner); r.Status != 200 {
				t.Fatalf("PUT /profile: %d %s", r.Status, r.Body)
			}

			// Correct bodies still work.
			if r := s.do("POST", step, `{"student_reply":"ready"}`, learner); r.Status != 200 {
				t.Fatalf("step: %d %s", r.Status, truncate(r.Body, 300))
			}
			if r := s.do("POST", "/sessions", createJSON(s, `,"guideline_id":"`+guideline+`"`, `,"mode":"clarify_doubts"`), learner); r.Status != 200 || r.JSON(t)["mode"] != "clarify_doubts" {
				t.Fatalf("create: %d %s; want 200 in clarify_doubts", r.Status, truncate(r.Body, 300))
			}
			if r := s.do("PUT", "/api/admin/llm-config/tutor", `{"provider":"rules","model_id":"rules","max_output_tokens":1000}`, admin); r.Status != 200 {
				t.Fatalf("llm-config: %d %s", r.Status, truncate(r.Body, 300))
			}
			if r := s.do("POST", "/auth/phone/provision", `{"phone":"+919999999999"}`, ""); r.Status != 200 {
				t.Fatalf("phone provision: %d %s", r.Status, truncate(r.Body, 300))
			}

			if validator {
				for _, tt := range []struct {
					name, method, path, body, tok string
					want                          []string
				}{
					{"step, miscased alone", "POST", step, `{"Student_Reply":"fake"}`, learner,
						[]string{"extra_forbidden body.Student_Reply", "missing body.student_reply"}},
					{"step, miscased beside the real", "POST", step, `{"student_reply":"real","STUDENT_REPLY":"fake"}`, learner,
						[]string{"extra_forbidden body.STUDENT_REPLY"}},
					{"create, top level", "POST", "/sessions", createJSON(s, `,"guideline_id":"`+guideline+`"`, `,"Mode":"exam"`), learner,
						[]string{"extra_forbidden body.Mode"}},
					{"create, nested", "POST", "/sessions", createJSON(s, `,"Guideline_Id":"`+guideline+`"`, ""), learner,
						[]string{"extra_forbidden body.goal.Guideline_Id"}},
					{"create, nested required", "POST", "/sessions", strings.Replace(createJSON(s, `,"guideline_id":"`+guideline+`"`, ""), `"grade"`, `"GRADE"`, 1), learner,
						[]string{"extra_forbidden body.student.GRADE", "missing body.student.grade"}},
					{"profile", "PUT", "/profile", `{"NAME":"Fake"}`, learner, []string{"extra_forbidden body.NAME"}},
					{"llm-config", "PUT", "/api/admin/llm-config/tutor", `{"Provider":"rules","model_id":"rules"}`, admin,
						[]string{"extra_forbidden body.Provider", "missing body.provider"}},
					{"phone provision", "POST", "/auth/phone/provision", `{"Phone":"+919999999999"}`, "",
						[]string{"extra_forbidden body.Phone", "missing body.phone"}},
				} {
					t.Run(tt.name, func(t *testing.T) {
						r := s.do(tt.method, tt.path, tt.body, tt.tok)
						if r.Status != 422 || !slices.Equal(r.detailItems(t), tt.want) {
							t.Fatalf("%d %s; want 422 with %v", r.Status, truncate(r.Body, 500), tt.want)
						}
					})
				}
				if got := s.studentMessages(id, learner); !slices.Equal(got, []string{"ready"}) {
					t.Errorf("student messages %q; want only the first turn's (a refused body does nothing)", got)
				}
				if name := s.do("GET", "/profile", nil, learner).JSON(t)["name"]; name != "Asha" {
					t.Errorf("profile name %v; want Asha", name)
				}
				return
			}

			// Without the validator the handler ignores a miscased field.
			for _, body := range []string{`{"student_reply":"real","STUDENT_REPLY":"fake"}`, `{"Student_Reply":"fake","student_reply":"real"}`} {
				if r := s.do("POST", step, body, learner); r.Status != 200 {
					t.Fatalf("step %s: %d %s", body, r.Status, truncate(r.Body, 300))
				}
			}
			// Only a miscased reply is an empty reply, as {} is: a nudge, no turn.
			empty := s.do("POST", step, `{}`, learner)
			if r := s.do("POST", step, `{"Student_Reply":"fake"}`, learner); r.Status != 200 || empty.Status != 200 ||
				fmt.Sprint(r.JSON(t)["next_turn"]) != fmt.Sprint(empty.JSON(t)["next_turn"]) {
				t.Fatalf("step with only a miscased reply: %d %s; want what {} gets: %d %s", r.Status, truncate(r.Body, 300), empty.Status, truncate(empty.Body, 300))
			}
			if got := s.studentMessages(id, learner); !slices.Equal(got, []string{"ready", "real", "real"}) || s.turnCount(id, learner) != 3 {
				t.Errorf("student messages %q, turn_count %v; want ready, real, real in three turns", got, s.turnCount(id, learner))
			}

			for _, tt := range []struct {
				name, body string
				status     int
				mode       string
			}{
				{"miscased mode after the real", createJSON(s, `,"guideline_id":"`+guideline+`"`, `,"mode":"clarify_doubts","MODE":"exam"`), 200, "clarify_doubts"},
				{"miscased mode alone", createJSON(s, `,"guideline_id":"`+guideline+`"`, `,"Mode":"exam"`), 200, "teach_me"},
				{"nested miscased after the real", createJSON(s, `,"guideline_id":"`+guideline+`","GUIDELINE_ID":"`+otherGuideline+`"`, ""), 200, "teach_me"},
				{"nested miscased alone", createJSON(s, `,"Guideline_Id":"`+guideline+`"`, ""), 404, ""},
			} {
				t.Run(tt.name, func(t *testing.T) {
					r := s.do("POST", "/sessions", tt.body, learner)
					if r.Status != tt.status {
						t.Fatalf("%d %s; want %d", r.Status, truncate(r.Body, 300), tt.status)
					}
					if tt.status == 200 && r.JSON(t)["mode"] != tt.mode {
						t.Errorf("mode %v; want %s", r.JSON(t)["mode"], tt.mode)
					}
					if tt.status == 404 && (r.code(t) != "guideline_not_found" || !strings.Contains(string(r.Body), "None")) {
						t.Errorf("%s; want guideline_not_found for a missing guideline (None)", r.Body)
					}
				})
			}

			for _, body := range []string{`{"name":"Real","NAME":"Fake"}`, `{"Name":"Fake"}`} {
				if r := s.do("PUT", "/profile", body, learner); r.Status != 200 || r.JSON(t)["name"] != "Real" {
					t.Errorf("PUT /profile %s: %d %s; want 200 with the name Real", body, r.Status, truncate(r.Body, 300))
				}
			}

			// A miscased field of the wrong type is not read at all.
			r := s.do("PUT", "/api/admin/llm-config/tutor", `{"provider":"rules","model_id":"rules","Max_Output_Tokens":"lots","max_output_tokens":1200}`, admin)
			if r.Status != 200 || r.JSON(t)["max_output_tokens"] != float64(1200) {
				t.Errorf("llm-config with a miscased field of the wrong type: %d %s; want 200 with 1200", r.Status, truncate(r.Body, 300))
			}
			r = s.do("PUT", "/api/admin/llm-config/tutor", `{"Provider":"rules","model_id":"rules"}`, admin)
			if r.Status != 400 || r.code(t) != "unknown_provider" || !strings.HasPrefix(fmt.Sprint(r.JSON(t)["detail"]), "Unknown provider ''") {
				t.Errorf("llm-config with a miscased provider: %d %s; want 400 unknown_provider for ''", r.Status, truncate(r.Body, 300))
			}
			requireIssue(t, s.do("POST", "/auth/phone/provision", `{"Phone":"+919999999999"}`, ""),
				issue{"missing", []any{"body", "phone"}, "Field required"})
		})
	}
}

// TestMiscasedFrameFieldsAreIgnored: the keys of a WebSocket client frame
// match exactly; one in another case is an unknown key, which the
// reference ignores (CONTRACT §3.2): {"TYPE":"chat"} has no type, a
// miscased payload key is not read, and a frame with both keys is read by
// the real one whichever comes last. Correct frames still work.
func TestMiscasedFrameFieldsAreIgnored(t *testing.T) {
	s := newServer(t)
	id := s.newSession(fractions, "", "")
	w := s.joined(t, id, "")

	refused := []struct{ name, frame, want string }{
		{"type miscased", `{"TYPE":"chat","payload":{"message":"fake"}}`, "Invalid message format: type: Field required"},
		{"type miscased, student_context bad", `{"Type":"chat","payload":{"message":"fake","student_context":{"grade":99,"board":"CBSE"}}}`,
			"Invalid message format: type: Field required"},
		// A miscased context key is not the real one: the real one is missing.
		{"student_context key miscased", `{"type":"chat","payload":{"message":"fake","student_context":{"Grade":7,"board":"CBSE"}}}`,
			"Invalid message format: payload.student_context.grade: Field required"},
		// Keys that name a field exactly are still validated.
		{"student_context exact key bad", `{"type":"chat","payload":{"message":"fake","student_context":{"grade":7,"board":"CBSE","student_age":"twelve"}}}`,
			"Invalid message format: payload.student_context.student_age: Input should be a valid integer"},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			w.sendRaw([]byte(tt.frame))
			f := w.read()
			if f.Type != "error" || f.Payload.Error == nil || *f.Payload.Error != tt.want {
				t.Fatalf("frame %s %v, want error %q", f.Type, deref(f.Payload.Error), tt.want)
			}
		})
	}

	// {"type":"get_state","TYPE":"chat"}: the last key no longer wins.
	w.sendRaw([]byte(`{"type":"get_state","TYPE":"chat","payload":{"message":"fake"}}`))
	if f := w.read(); f.Type != "state_update" || f.state(t)["turn_count"] != float64(0) {
		t.Fatalf("get_state beside a miscased chat type: %s %s; want state_update with turn_count 0", f.Type, f.Payload.State)
	}
	// A miscased payload is not read: a list there is not the payload.
	w.sendRaw([]byte(`{"type":"get_state","Payload":[]}`))
	if f := w.read(); f.Type != "state_update" {
		t.Fatalf("get_state with a miscased payload key: %s %v; want state_update", f.Type, deref(f.Payload.Error))
	}

	// Chats whose miscased keys would have been refused, or read in place
	// of the real ones, are answered with the real ones.
	for _, tt := range []struct{ name, frame string }{
		{"message beside a miscased one", `{"type":"chat","payload":{"message":"real","MESSAGE":"fake"}}`},
		{"miscased before the real", `{"type":"chat","payload":{"Message":"fake","message":"real"}}`},
		{"miscased bad turn id", `{"type":"chat","payload":{"message":"real","Client_Turn_Id":"a\nb"}}`},
		{"miscased bad student_context", `{"type":"chat","payload":{"message":"real","Student_Context":{"grade":99}}}`},
		{"miscased key in student_context", `{"type":"chat","payload":{"message":"real","student_context":{"grade":7,"board":"CBSE","Student_Age":"twelve","Preferred_Examples":5}}}`},
		{"correct frame", `{"type":"chat","payload":{"message":"real","client_turn_id":"turn-1","student_context":{"grade":7,"board":"CBSE","student_age":12}}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w.sendRaw([]byte(tt.frame))
			if f := w.read(); f.Type != "typing" {
				t.Fatalf("first frame %s %v; want typing", f.Type, deref(f.Payload.Error))
			}
			if f := w.read(); f.Type != "assistant" {
				t.Fatalf("second frame %s %v; want assistant", f.Type, deref(f.Payload.Error))
			}
			if f := w.read(); f.Type != "state_update" {
				t.Fatalf("third frame %s; want state_update", f.Type)
			}
		})
	}
	// A chat with only a miscased message is a chat without one ("").
	w.sendRaw([]byte(`{"type":"chat","payload":{"Message":"fake"}}`))
	for _, want := range []string{"typing", "assistant", "state_update"} {
		if f := w.read(); f.Type != want {
			t.Fatalf("chat with only a miscased message: %s %v; want %s", f.Type, deref(f.Payload.Error), want)
		}
	}
	// An empty message is answered with a nudge, and is no turn.
	got := s.studentMessages(id, "")
	want := []string{"real", "real", "real", "real", "real", "real"}
	if !slices.Equal(got, want) || s.turnCount(id, "") != 6 {
		raw, _ := json.Marshal(got)
		t.Errorf("student messages %s, turn_count %v; want %q in six turns", raw, s.turnCount(id, ""), want)
	}
}
