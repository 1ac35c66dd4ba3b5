package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/google/go-cmp/cmp"

	"github.com/tutord/tutord/api"
)

// loadSpec loads and validates the embedded document the way the request
// validator does (gorillamux is the router of oapi-codegen's echo middleware).
func loadSpec(t *testing.T) (*openapi3.T, routers.Router) {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(api.Spec)
	if err != nil {
		t.Fatalf("load spec: %v", err)
	}
	// Validate also checks every example in the document against its schema.
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("validate spec: %v", err)
	}
	if !doc.IsOpenAPI31OrLater() {
		t.Fatalf("openapi = %q, want 3.1", doc.OpenAPI)
	}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatalf("router: %v", err)
	}
	return doc, router
}

func TestSpecOperations(t *testing.T) {
	doc, _ := loadSpec(t)
	var ops []string
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			name := method + " " + path
			ops = append(ops, name)
			if op.OperationID == "" {
				t.Errorf("%s: no operationId", name)
			}
			// Every operation states its auth; none inherits it by accident.
			if op.Security == nil {
				t.Errorf("%s: no security requirement", name)
			}
			for status, ref := range op.Responses.Map() {
				if status[0] != '4' && status[0] != '5' {
					continue
				}
				media := ref.Value.Content.Get("application/json")
				if media == nil {
					continue // 426 of the WebSocket upgrade: a library's plain-text body
				}
				if s := media.Schema.Value; !slices.Contains(s.Required, "detail") && path != "/readyz" {
					t.Errorf("%s %s: error response without the error body", name, status)
				}
			}
		}
	}
	want := []string{
		"DELETE /auth/admin/user",
		"GET /", "GET /api/admin/llm-config", "GET /api/admin/llm-config/options", "GET /config/models",
		"GET /curriculum", "GET /health", "GET /health/db", "GET /healthz", "GET /metrics", "GET /profile",
		"GET /profile/export", "GET /readyz", "GET /sessions", "GET /sessions/history", "GET /sessions/report-card",
		"GET /sessions/resumable", "GET /sessions/stats", "GET /sessions/subtopic-progress",
		"GET /sessions/ws/{session_id}", "GET /sessions/{session_id}", "GET /sessions/{session_id}/agent-logs",
		"GET /sessions/{session_id}/replay", "GET /sessions/{session_id}/summary",
		"HEAD /health", "HEAD /health/db", "HEAD /healthz", "HEAD /readyz",
		"POST /auth/phone/provision", "POST /auth/sync", "POST /sessions", "POST /sessions/{session_id}/end-clarify",
		"POST /sessions/{session_id}/end-exam", "POST /sessions/{session_id}/pause",
		"POST /sessions/{session_id}/resume", "POST /sessions/{session_id}/step", "POST /transcribe",
		"PUT /api/admin/llm-config/{component_key}", "PUT /profile",
	}
	slices.Sort(ops)
	if diff := cmp.Diff(want, ops); diff != "" {
		t.Errorf("operations (-want +got):\n%s", diff)
	}
}

// Request bodies are closed: every object schema in them forbids unknown keys.
func TestRequestBodiesAreClosed(t *testing.T) {
	doc, _ := loadSpec(t)
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if op.RequestBody == nil {
				continue
			}
			for mime, media := range op.RequestBody.Value.Content {
				checkClosed(t, method+" "+path+" "+mime, media.Schema)
			}
		}
	}
}

func checkClosed(t *testing.T, where string, ref *openapi3.SchemaRef) {
	t.Helper()
	if ref == nil || ref.Value == nil {
		return
	}
	s := ref.Value
	if s.Type.Includes(openapi3.TypeObject) {
		if has := s.AdditionalProperties.Has; has == nil || *has {
			t.Errorf("%s: object without additionalProperties: false", where)
		}
		for name, p := range s.Properties {
			checkClosed(t, where+"."+name, p)
		}
	}
	if s.Items != nil {
		checkClosed(t, where+"[]", s.Items)
	}
	for _, alt := range slices.Concat(s.AnyOf, s.OneOf, s.AllOf) {
		checkClosed(t, where, alt)
	}
}

// kin-openapi v0.152.0 validates an OpenAPI 3.1 document with its JSON
// Schema 2020-12 validator, but falls back to its 3.0 validator for schemas
// that hold component references and no 2020-only keyword. The spec's
// nullability form, a type list with "null" (and null among the values of a
// nullable enum), must hold on both paths; 3.0's `nullable: true` is an
// unknown keyword in 3.1 and is not used.
func TestNullabilityOnBothValidators(t *testing.T) {
	doc, _ := loadSpec(t)
	tests := []struct {
		schema string
		value  string
		valid  bool
	}{
		{"QuestionPhase", `null`, true},
		{"QuestionPhase", `"probe"`, true},
		{"QuestionPhase", `"guess"`, false},
		{"QuestionPhase", `3`, false},
		{"NullableNaiveDateTime", `null`, true},
		{"NullableNaiveDateTime", `"2026-02-27T10:11:12.123456"`, true},
		{"NullableNaiveDateTime", `"2026-02-27T10:11:12Z"`, false},
		{"NaiveDateTime", `null`, false},
		{"NaiveDateTime", `"2026-02-27T10:11:12.12"`, false},
		{"UserProfile", `{"id":"u","email":null,"phone":null,"name":null,"age":null,"grade":null,"board":null,"school_name":null,"about_me":null,"onboarding_complete":false,"auth_provider":"email"}`, true},
		{"UserProfile", `{"id":"u","email":null,"phone":null,"name":null,"age":"12","grade":null,"board":null,"school_name":null,"about_me":null,"onboarding_complete":false,"auth_provider":"email"}`, false},
		{"UserProfile", `{"id":"u","email":null,"phone":null,"name":null,"grade":null,"board":null,"school_name":null,"about_me":null,"onboarding_complete":false,"auth_provider":"email"}`, false},
		{"EndExamResponse", `{"score":0,"total":3,"percentage":0,"feedback":null}`, true},
		{"EndExamResponse", `{"score":0,"total":3,"percentage":0,"feedback":"none"}`, false},
	}
	validators := map[string][]openapi3.SchemaValidationOption{
		"3.0 fallback":  nil,
		"2020-12 (3.1)": {openapi3.EnableJSONSchema2020()},
	}
	for name, opts := range validators {
		for _, tt := range tests {
			t.Run(name+"/"+tt.schema+"/"+tt.value, func(t *testing.T) {
				err := doc.Components.Schemas[tt.schema].Value.VisitJSON(decode(t, tt.value), opts...)
				if (err == nil) != tt.valid {
					t.Errorf("valid = %v, want %v (err: %v)", err == nil, tt.valid, err)
				}
			})
		}
	}
}

// Responses, as the tests of the server check them: every status must be
// documented and every body must fit.
func TestResponses(t *testing.T) {
	_, router := loadSpec(t)
	doc := readJSON(t, "testdata/session_document.json")
	const id = "/sessions/9a8b7c6d-0000-4000-8000-000000000001"
	jsonCT := http.Header{"Content-Type": {"application/json"}}
	tests := []struct {
		name   string
		method string
		target string
		status int
		header http.Header // default jsonCT
		body   string
		valid  bool
	}{
		// Curriculum: exactly one level is non-null; subtopics carry a key.
		{"curriculum subjects", "GET", "/curriculum?country=India&board=CBSE&grade=7", 200, nil,
			`{"subjects":["Mathematics","Science"],"topics":null,"subtopics":null}`, true},
		{"curriculum empty", "GET", "/curriculum?country=India&board=CBSE&grade=7", 200, nil,
			`{"subjects":[],"topics":null,"subtopics":null}`, true},
		{"curriculum two levels", "GET", "/curriculum?country=India&board=CBSE&grade=7", 200, nil,
			`{"subjects":["Mathematics"],"topics":["Fractions"],"subtopics":null}`, false},
		{"curriculum subtopic without key", "GET", "/curriculum?country=India&board=CBSE&grade=7&subject=M&topic=F", 200, nil,
			`{"subjects":null,"topics":null,"subtopics":[{"subtopic":"Comparing","guideline_id":"g-1"}]}`, false},

		// Session creation.
		{"create teach_me", "POST", "/sessions", 200, nil,
			`{"session_id":"s-1","first_turn":{"message":"Hi!","hints":[],"step_idx":1,"mastery_score":0,"is_complete":false},"mode":"teach_me","past_discussions":null}`, true},
		{"create clarify with past discussions", "POST", "/sessions", 200, nil,
			`{"session_id":"s-1","first_turn":{"message":"Hi!","hints":[],"step_idx":1,"mastery_score":0,"is_complete":false},"mode":"clarify_doubts","past_discussions":[{"session_date":"2026-02-26T09:00:00","concepts_discussed":["Like denominators"]}]}`, true},
		{"create without past_discussions", "POST", "/sessions", 200, nil,
			`{"session_id":"s-1","first_turn":{"message":"Hi!","hints":[],"step_idx":1,"mastery_score":0,"is_complete":false},"mode":"teach_me"}`, false},
		{"create without mastery_score (CONTRACT §10 #11)", "POST", "/sessions", 200, nil,
			`{"session_id":"s-1","first_turn":{"message":"Hi!","hints":[],"step_idx":1,"is_complete":false},"mode":"teach_me","past_discussions":null}`, false},
		{"create without is_complete", "POST", "/sessions", 200, nil,
			`{"session_id":"s-1","first_turn":{"message":"Hi!","hints":[],"step_idx":1,"mastery_score":0},"mode":"teach_me","past_discussions":null}`, false},
		{"create with unknown mode", "POST", "/sessions", 200, nil,
			`{"session_id":"s-1","first_turn":{"message":"Hi!","hints":[],"step_idx":1,"mastery_score":0,"is_complete":false},"mode":"quiz","past_discussions":null}`, false},
		{"create exam generation failed", "POST", "/sessions", 503, nil,
			`{"detail":{"message":"Exam generation is temporarily unavailable. Please try again.","type":"ExamGenerationError"},"error":{"code":"unavailable","message":"Exam generation is temporarily unavailable. Please try again."}}`, true},
		{"create guideline not found", "POST", "/sessions", 404, nil,
			`{"detail":"Teaching guideline None not found","error":{"code":"guideline_not_found","message":"Teaching guideline None not found"}}`, true},
		{"create rate limited", "POST", "/sessions", 429, http.Header{"Content-Type": {"application/json"}, "Retry-After": {"7"}},
			`{"detail":"Too many new sessions; try again in 7 seconds.","error":{"code":"rate_limited","message":"Too many new sessions; try again in 7 seconds."}}`, true},
		{"create rate limited without Retry-After", "POST", "/sessions", 429, nil,
			`{"detail":"Too many new sessions.","error":{"code":"rate_limited","message":"Too many new sessions."}}`, false},
		{"create reference error body without code", "POST", "/sessions", 404, nil,
			`{"detail":"Teaching guideline None not found"}`, false},

		// Turns: keys by mode.
		{"step teach_me", "POST", id + "/step", 200, nil,
			`{"next_turn":{"message":"Close!","hints":[],"step_idx":2,"mastery_score":0.55,"is_complete":false,"question_phase":"probe","last_answer_result":"incorrect"},"routing":"Continue","last_grading":null}`, true},
		{"step clarify", "POST", id + "/step", 200, nil,
			`{"next_turn":{"message":"Sure.","hints":[],"step_idx":1,"mastery_score":0,"is_complete":false,"concepts_discussed":["Ratios"],"question_phase":null,"last_answer_result":null},"routing":"Continue","last_grading":null}`, true},
		{"step exam running", "POST", id + "/step", 200, nil,
			`{"next_turn":{"message":"Got it — let's continue.\n\n**Question 2:** 2/3 or 3/4?","hints":[],"step_idx":1,"mastery_score":0,"is_complete":false,"exam_progress":{"current_question":2,"total_questions":7,"answered_questions":1},"question_phase":null,"last_answer_result":null},"routing":"Continue","last_grading":null}`, true},
		{"step without the additive fields", "POST", id + "/step", 200, nil,
			`{"next_turn":{"message":"Close!","hints":[],"step_idx":2,"mastery_score":0.55,"is_complete":false},"routing":"Continue","last_grading":null}`, false},
		{"step exam feedback without results", "POST", id + "/step", 200, nil,
			`{"next_turn":{"message":"Done","hints":[],"step_idx":1,"mastery_score":0,"is_complete":true,"exam_progress":{"current_question":1,"total_questions":1,"answered_questions":1},"exam_feedback":{"score":1,"total":1,"percentage":100,"strengths":["A"],"weak_areas":[],"patterns":["Overall strong performance"],"next_steps":["Great job! Try a harder topic or retake to aim for a perfect score."]},"question_phase":null,"last_answer_result":null},"routing":"Continue","last_grading":null}`, false},
		{"step exam and clarify keys together", "POST", id + "/step", 200, nil,
			`{"next_turn":{"message":"?","hints":[],"step_idx":1,"mastery_score":0,"is_complete":false,"exam_progress":{"current_question":1,"total_questions":1,"answered_questions":0},"concepts_discussed":[],"question_phase":null,"last_answer_result":null},"routing":"Continue","last_grading":null}`, false},
		{"step routing Remediate", "POST", id + "/step", 200, nil,
			`{"next_turn":{"message":"Close!","hints":[],"step_idx":2,"mastery_score":0.55,"is_complete":false,"question_phase":null,"last_answer_result":null},"routing":"Remediate","last_grading":null}`, false},
		{"step stale state", "POST", id + "/step", 409, nil,
			`{"detail":"Session 9a8b7c6d-0000-4000-8000-000000000001 was modified concurrently (expected version 4)","error":{"code":"stale_state","message":"The session was changed by another request; reload and retry."}}`, true},
		{"step validation error", "POST", id + "/step", 422, nil,
			`{"detail":[{"type":"missing","loc":["body","student_reply"],"msg":"Field required","input":{}}],"error":{"code":"validation_error","message":"Request validation failed"}}`, true},
		{"step malformed JSON", "POST", id + "/step", 422, nil,
			`{"detail":[{"type":"json_invalid","loc":["body",12],"msg":"JSON decode error","input":{},"ctx":{"error":"Expecting value"}}],"error":{"code":"validation_error","message":"Request validation failed"}}`, true},
		{"step validation error as a string", "POST", id + "/step", 422, nil,
			`{"detail":"student_reply is required","error":{"code":"validation_error","message":"Request validation failed"}}`, false},
		{"step validation issue in an unknown place", "POST", id + "/step", 422, nil,
			`{"detail":[{"type":"missing","loc":["cookie","x"],"msg":"Field required","input":null}],"error":{"code":"validation_error","message":"Request validation failed"}}`, false},
		{"step 403 is not documented", "POST", id + "/step", 403, nil,
			`{"detail":"Not your session","error":{"code":"forbidden","message":"Not your session"}}`, false},

		// Lifecycle.
		{"pause", "POST", id + "/pause", 200, nil,
			`{"coverage":33.3,"concepts_covered":["Like denominators"],"message":"You've covered 33% so far. You can pick up where you left off anytime."}`, true},
		{"pause wrong mode", "POST", id + "/pause", 400, nil,
			`{"detail":"Only Teach Me sessions can be paused","error":{"code":"wrong_mode","message":"Only Teach Me sessions can be paused"}}`, true},
		{"resume", "POST", id + "/resume", 200, nil,
			`{"session_id":"s-1","message":"Session resumed","current_step":2,"conversation_history":[{"role":"teacher","content":"Hi"},{"role":"student","content":"ready"}]}`, true},
		{"resume with another message", "POST", id + "/resume", 200, nil,
			`{"session_id":"s-1","message":"Resumed","current_step":2,"conversation_history":[]}`, false},
		{"end clarify", "POST", id + "/end-clarify", 200, nil,
			`{"concepts_discussed":["Ratios"],"message":"Doubts session ended successfully."}`, true},
		{"end exam", "POST", id + "/end-exam", 200, nil,
			`{"score":1,"total":3,"percentage":33.3,"feedback":{"score":1,"total":3,"percentage":33.3,"strengths":["A"],"weak_areas":["B"],"patterns":[],"next_steps":["Review these concepts in Teach Me: B"],"weighted_score":1.5,"weighted_percentage":50}}`, true},
		{"end exam percentage over 100", "POST", id + "/end-exam", 200, nil,
			`{"score":1,"total":3,"percentage":333,"feedback":null}`, false},

		// Reads of a session.
		{"summary", "GET", id + "/summary", 200, nil,
			`{"steps_completed":1,"mastery_score":0.55,"misconceptions_seen":["compares numerators only"],"suggestions":["Keep practicing! Review the examples."]}`, true},
		{"document", "GET", id, 200, nil, marshal(t, doc), true},
		{"document for an admin", "GET", id, 200, nil, marshal(t, with(doc, func(d map[string]any) {
			q := d["last_question"].(map[string]any)
			q["expected_answer"], q["rubric"] = "2/3", ""
			q["hints"] = []any{"Give both fractions the same denominator.", "Write 1/2 as 3/6."}
		})), true},
		{"document of an exam", "GET", id + "/replay", 200, nil, marshal(t, with(doc, func(d map[string]any) {
			d["mode"], d["last_question"], d["mastery_estimates"] = "exam", nil, map[string]any{}
			d["exam_questions"] = []any{
				map[string]any{"question_idx": 0, "question_text": "3/8 or 5/8?", "concept": "Like denominators", "difficulty": "easy", "question_type": "conceptual", "expected_answer": nil, "student_answer": "5/8", "result": "correct", "feedback": nil},
				map[string]any{"question_idx": 1, "question_text": "1/2 or 2/3?", "concept": "Unlike denominators", "difficulty": "medium", "question_type": "procedural", "expected_answer": nil, "student_answer": nil, "result": nil, "feedback": nil},
			}
		})), true},
		{"document without topic", "GET", id, 200, nil, marshal(t, with(doc, func(d map[string]any) { d["topic"] = nil })), true},
		{"document without the full log", "GET", id, 200, nil, marshal(t, with(doc, func(d map[string]any) { delete(d, "full_conversation_log") })), false},
		{"document with an offset timestamp", "GET", id, 200, nil, marshal(t, with(doc, func(d map[string]any) { d["created_at"] = "2026-02-27T10:11:12Z" })), false},
		{"document with an unknown phase", "GET", id, 200, nil, marshal(t, with(doc, func(d map[string]any) {
			d["last_question"].(map[string]any)["phase"] = "reveal"
		})), false},
		{"document with a null exam result text", "GET", id, 200, nil, marshal(t, with(doc, func(d map[string]any) {
			d["exam_questions"] = []any{map[string]any{"question_idx": 0, "question_text": "?", "concept": "c", "difficulty": "easy", "question_type": "conceptual", "expected_answer": nil, "student_answer": nil, "result": "unknown", "feedback": nil}}
		})), false},
		{"document not yours", "GET", id, 404, nil,
			`{"detail":"Session not found","error":{"code":"session_not_found","message":"Session not found"}}`, true},
		{"agent logs", "GET", id + "/agent-logs?turn_id=turn_1", 200, nil,
			`{"session_id":"s-1","turn_id":"turn_1","logs":[{"timestamp":"2026-02-27T10:14:12.000100","turn_id":"turn_1","agent_name":"safety","event_type":"completed","input_summary":"Check: 1/2","output":{"is_safe":true},"reasoning":null,"duration_ms":3,"prompt":null,"model":"rules"}],"total_count":1}`, true},
		{"agent logs for a learner", "GET", id + "/agent-logs", 403, nil,
			`{"detail":"Admin access required","error":{"code":"forbidden","message":"Admin access required"}}`, true},

		// Listings and progress.
		{"history", "GET", "/sessions/history?page=1&page_size=10", 200, nil,
			`{"sessions":[{"session_id":"s-1","created_at":"2026-02-27T10:11:12.123456","updated_at":"2026-02-27T10:15:12","topic_name":"Fractions - Comparing","subject":"Mathematics","mastery":0.45,"step_idx":3,"mode":"teach_me","coverage":0},{"session_id":"s-2","created_at":null,"updated_at":null,"topic_name":null,"subject":null,"mastery":0,"step_idx":0,"mode":"clarify_doubts","concepts_discussed":[]},{"session_id":"s-3","created_at":"2026-02-26T09:00:00","updated_at":"2026-02-26T09:20:00","topic_name":"Fractions - Comparing","subject":"Mathematics","mastery":0,"step_idx":1,"mode":"exam","exam_score":5,"exam_total":7}],"page":1,"page_size":10,"total":3}`, true},
		{"history teach_me without coverage", "GET", "/sessions/history", 200, nil,
			`{"sessions":[{"session_id":"s-1","created_at":null,"updated_at":null,"topic_name":null,"subject":null,"mastery":0,"step_idx":0,"mode":"teach_me"}],"page":1,"page_size":20,"total":1}`, false},
		{"history exam with coverage", "GET", "/sessions/history", 200, nil,
			`{"sessions":[{"session_id":"s-3","created_at":null,"updated_at":null,"topic_name":null,"subject":null,"mastery":0,"step_idx":1,"mode":"exam","exam_score":5,"exam_total":7,"coverage":0}],"page":1,"page_size":20,"total":1}`, false},
		{"list", "GET", "/sessions", 200, nil, `{"sessions":[],"total":0}`, true},
		{"list unauthenticated", "GET", "/sessions", 401, nil,
			`{"detail":"Not authenticated","error":{"code":"unauthorized","message":"Not authenticated"}}`, true},
		{"stats", "GET", "/sessions/stats", 200, nil,
			`{"total_sessions":3,"average_mastery":0.15,"topics_covered":["Mathematics"],"total_steps":4,"time_spent_seconds":1460,"exams_taken":1,"average_exam_score":71.4,"streak_days":2}`, true},
		{"stats of the reference", "GET", "/sessions/stats", 200, nil,
			`{"total_sessions":0,"average_mastery":0,"topics_covered":[],"total_steps":0}`, false},
		{"report card", "GET", "/sessions/report-card", 200, nil,
			`{"total_sessions":3,"total_topics_studied":1,"subjects":[{"subject":"Mathematics","topics":[{"topic":"Fractions","topic_key":"fractions","subtopics":[{"subtopic":"Comparing","subtopic_key":"comparing","guideline_id":"g-1","coverage":50.0,"latest_exam_score":5,"latest_exam_total":7,"last_studied":"2026-02-27T10:11:12.123456","concept_mastery":{"Like denominators":0.8},"exam_history":[{"session_id":"s-3","score":5,"total":7,"finished_at":"2026-02-26T09:20:00"}]}]}]}]}`, true},
		{"report card empty", "GET", "/sessions/report-card", 200, nil,
			`{"total_sessions":0,"total_topics_studied":0,"subjects":[]}`, true},
		{"report card mastery over 1", "GET", "/sessions/report-card", 200, nil,
			`{"total_sessions":1,"total_topics_studied":1,"subjects":[{"subject":"M","topics":[{"topic":"F","topic_key":"f","subtopics":[{"subtopic":"C","subtopic_key":"c","guideline_id":null,"coverage":0,"latest_exam_score":null,"latest_exam_total":null,"last_studied":null,"concept_mastery":{"x":80},"exam_history":[]}]}]}]}`, false},
		{"subtopic progress", "GET", "/sessions/subtopic-progress", 200, nil,
			`{"user_progress":{"g-1":{"coverage":50.0,"session_count":2,"status":"studied"}}}`, true},
		{"subtopic progress unwrapped", "GET", "/sessions/subtopic-progress", 200, nil,
			`{"g-1":{"coverage":50.0,"session_count":2,"status":"studied"}}`, false},
		{"resumable", "GET", "/sessions/resumable?guideline_id=g-1", 200, nil,
			`{"session_id":"s-1","coverage":33.3,"current_step":2,"total_steps":4,"concepts_covered":["Like denominators"]}`, true},
		{"nothing to resume", "GET", "/sessions/resumable?guideline_id=g-1", 404, nil,
			`{"detail":"No resumable session found","error":{"code":"no_resumable_session","message":"No resumable session found"}}`, true},

		// Profile, auth, config, admin.
		{"profile", "GET", "/profile", 200, nil,
			`{"id":"u-1","email":"asha@example.com","phone":null,"name":"Asha","age":12,"grade":7,"board":"CBSE","school_name":null,"about_me":null,"onboarding_complete":true,"auth_provider":"google","country":"India","time_zone":"Asia/Kolkata","language_level":"standard","preferred_examples":["cricket"]}`, true},
		{"profile with an unknown provider", "POST", "/auth/sync", 200, nil,
			`{"id":"u-1","email":null,"phone":null,"name":null,"age":null,"grade":null,"board":null,"school_name":null,"about_me":null,"onboarding_complete":false,"auth_provider":"github"}`, false},
		{"export", "GET", "/profile/export", 200, nil,
			`{"exported_at":"2026-02-28T00:00:00","profile":{"id":"u-1","email":null,"phone":null,"name":null,"age":null,"grade":null,"board":null,"school_name":null,"about_me":null,"onboarding_complete":false,"auth_provider":"email","subject":"sub-1","created_at":"2026-02-27T10:00:00","updated_at":"2026-02-27T10:00:00","last_login_at":null},"sessions":[{"session_id":"s-1","mode":"teach_me","created_at":"2026-02-27T10:11:12","state":{"turn_count":1},"messages":[{"role":"teacher","content":"Hi","timestamp":"2026-02-27T10:11:12","message_id":null}]}]}`, true},
		{"phone provision", "POST", "/auth/phone/provision", 200, nil, `{"status":"ok"}`, true},
		{"delete user", "DELETE", "/auth/admin/user?cognito_sub=abc", 200, nil, `{"status":"deleted","cognito_sub":"abc"}`, true},
		{"config models", "GET", "/config/models", 200, nil,
			`{"tutor":{"provider":"openai","model_id":"gpt-5.2","description":null},"eval_simulator":{"provider":"openai","model_id":"gpt-5.2","description":"Simulator"}}`, true},
		{"config models without description", "GET", "/config/models", 200, nil,
			`{"tutor":{"provider":"openai","model_id":"gpt-5.2"}}`, false},
		{"llm config", "GET", "/api/admin/llm-config", 200, nil,
			`[{"component_key":"tutor","provider":"openai","model_id":"gpt-5.2","description":null,"updated_at":"2026-02-27T10:11:12","updated_by":null,"reasoning_effort":"low","temperature":null,"max_output_tokens":2048}]`, true},
		{"llm config unknown provider", "PUT", "/api/admin/llm-config/tutor", 400, nil,
			`{"detail":"Unknown provider 'acme'. Valid: ['openai', 'anthropic', 'google', 'openai-compatible', 'rules']","error":{"code":"unknown_provider","message":"Unknown provider 'acme'."}}`, true},
		{"transcribe", "POST", "/transcribe", 200, nil, `{"text":"five eighths"}`, true},
		{"transcribe not configured", "POST", "/transcribe", 503, nil,
			`{"detail":"Speech-to-text is not configured: set TUTORD_STT_BASE_URL","error":{"code":"unavailable","message":"Speech-to-text is not configured"}}`, true},
		{"metrics", "GET", "/metrics", 200, http.Header{"Content-Type": {"text/plain; version=0.0.4; charset=utf-8"}},
			"# TYPE tutord_open_websockets gauge\ntutord_open_websockets 0\n", true},
		{"database down", "GET", "/health/db", 200, nil, `{"status":"error","database":"connection_failed"}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			header := tt.header
			if header == nil {
				header = jsonCT
			}
			err := validateResponse(t, router, tt.method, tt.target, tt.status, header, tt.body)
			if (err == nil) != tt.valid {
				t.Errorf("valid = %v, want %v (err: %v)", err == nil, tt.valid, err)
			}
		})
	}
}

// Requests, as the validation middleware checks them.
func TestRequests(t *testing.T) {
	_, router := loadSpec(t)
	const id = "/sessions/9a8b7c6d-0000-4000-8000-000000000001"
	bearer := http.Header{"Authorization": {"Bearer x.y.z"}}
	create := `{"student":{"id":"eval-student","grade":3},"goal":{"topic":"Evaluation","syllabus":"CBSE Grade 3","learning_objectives":["Evaluate tutoring quality"],"guideline_id":"g-1"}}`
	tests := []struct {
		name   string
		method string
		target string
		header http.Header
		body   string // JSON unless empty
		valid  bool
	}{
		{"create as the harness (anonymous)", "POST", "/sessions", nil, create, true},
		{"create as the frontend", "POST", "/sessions", bearer,
			`{"student":{"id":"u-1","grade":7,"prefs":{"style":"standard","lang":"en"}},"goal":{"topic":"Fractions","syllabus":"CBSE-G7","learning_objectives":["Learn Comparing"],"guideline_id":"g-1"},"mode":"exam"}`, true},
		{"create with null prefs and guideline", "POST", "/sessions", nil,
			`{"student":{"id":"u-1","grade":7,"prefs":null},"goal":{"topic":"F","syllabus":"","learning_objectives":[],"guideline_id":null}}`, true},
		{"create with an unknown key", "POST", "/sessions", nil,
			`{"student":{"id":"u-1","grade":7,"board":"CBSE"},"goal":{"topic":"F","syllabus":"CBSE","learning_objectives":[]}}`, false},
		{"create with a string grade", "POST", "/sessions", nil,
			`{"student":{"id":"u-1","grade":"7"},"goal":{"topic":"F","syllabus":"CBSE","learning_objectives":[]}}`, false},
		{"create with grade 13", "POST", "/sessions", nil,
			`{"student":{"id":"u-1","grade":13},"goal":{"topic":"F","syllabus":"CBSE","learning_objectives":[]}}`, false},
		{"create with an unknown mode", "POST", "/sessions", nil, strings.Replace(create, `}}`, `},"mode":"quiz"}`, 1), false},
		{"create without goal", "POST", "/sessions", nil, `{"student":{"id":"u-1","grade":7}}`, false},
		{"step", "POST", id + "/step", nil, `{"student_reply":"5/8"}`, true},
		{"step empty reply", "POST", id + "/step", nil, `{"student_reply":""}`, true},
		{"step with an idempotency key", "POST", id + "/step", http.Header{"Idempotency-Key": {"k-1"}}, `{"student_reply":"5/8"}`, true},
		{"step with an empty idempotency key", "POST", id + "/step", http.Header{"Idempotency-Key": {""}}, `{"student_reply":"5/8"}`, false},
		{"step without reply", "POST", id + "/step", nil, `{}`, false},
		{"step with a number", "POST", id + "/step", nil, `{"student_reply":5}`, false},
		{"step with an unknown key", "POST", id + "/step", nil, `{"student_reply":"5","client_turn_id":"c-1"}`, false},
		{"pause with a token", "POST", id + "/pause", bearer, "", true},
		{"pause anonymous", "POST", id + "/pause", nil, "", true},
		{"replay anonymous", "GET", id + "/replay", nil, "", true},
		{"profile export without a token", "GET", "/profile/export", nil, "", false},
		{"summary anonymous", "GET", id + "/summary", nil, "", true},
		{"history page 0", "GET", "/sessions/history?page=0", bearer, "", false},
		{"history page 2", "GET", "/sessions/history?page=2&page_size=10&subject=Mathematics", bearer, "", true},
		{"curriculum", "GET", "/curriculum?country=India&board=CBSE&grade=7", nil, "", true},
		{"curriculum grade not a number", "GET", "/curriculum?country=India&board=CBSE&grade=seven", nil, "", false},
		{"curriculum without board", "GET", "/curriculum?country=India&grade=7", nil, "", false},
		{"resumable without guideline", "GET", "/sessions/resumable", bearer, "", false},
		{"websocket anonymous", "GET", "/sessions/ws/9a8b7c6d-0000-4000-8000-000000000001", nil, "", true},
		{"websocket with a token", "GET", "/sessions/ws/9a8b7c6d-0000-4000-8000-000000000001?token=x.y.z", nil, "", true},
		{"profile update one field", "PUT", "/profile", bearer, `{"board":"CBSE"}`, true},
		{"profile update null", "PUT", "/profile", bearer, `{"grade":null}`, true},
		{"profile update unknown key", "PUT", "/profile", bearer, `{"email":"a@b.c"}`, false},
		{"profile update grade as text", "PUT", "/profile", bearer, `{"grade":"7"}`, false},
		{"phone provision", "POST", "/auth/phone/provision", nil, `{"phone":"+911234567890"}`, true},
		{"auth sync with a token", "POST", "/auth/sync", bearer, "", true},
		{"delete user without sub", "DELETE", "/auth/admin/user", bearer, "", false},
		{"llm config", "PUT", "/api/admin/llm-config/tutor", bearer, `{"provider":"openai-compatible","model_id":"llama3.1:8b","reasoning_effort":null,"temperature":0.2,"max_output_tokens":1024,"description":"Local model"}`, true},
		{"llm config unknown provider passes to the handler", "PUT", "/api/admin/llm-config/tutor", bearer, `{"provider":"acme","model_id":"x"}`, true},
		{"llm config unknown key", "PUT", "/api/admin/llm-config/tutor", bearer, `{"provider":"openai","model_id":"gpt-5.2","top_p":1}`, false},
		{"llm config temperature out of range", "PUT", "/api/admin/llm-config/tutor", bearer, `{"provider":"openai","model_id":"gpt-5.2","temperature":3}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var body io.Reader
			header := tt.header.Clone()
			if header == nil {
				header = http.Header{}
			}
			if tt.body != "" {
				body = strings.NewReader(tt.body)
				header.Set("Content-Type", "application/json")
			}
			err := validateRequest(t, router, tt.method, tt.target, header, body)
			if (err == nil) != tt.valid {
				t.Errorf("valid = %v, want %v (err: %v)", err == nil, tt.valid, err)
			}
		})
	}
}

func TestTranscribeRequest(t *testing.T) {
	_, router := loadSpec(t)
	tests := []struct {
		name  string
		parts map[string]string // field name → part content type
		valid bool
	}{
		{"audio file", map[string]string{"file": "audio/webm"}, true},
		{"file without a type", map[string]string{"file": ""}, true},
		{"no file", map[string]string{}, false},
		{"another field", map[string]string{"file": "audio/ogg", "language": ""}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			w := multipart.NewWriter(&buf)
			for name, ct := range tt.parts {
				h := textproto.MIMEHeader{}
				h.Set("Content-Disposition", `form-data; name="`+name+`"; filename="recording.webm"`)
				if ct != "" {
					h.Set("Content-Type", ct)
				}
				p, err := w.CreatePart(h)
				if err != nil {
					t.Fatal(err)
				}
				p.Write([]byte("\x1aE\xdf\xa3 audio bytes"))
			}
			w.Close()
			header := http.Header{"Content-Type": {w.FormDataContentType()}}
			err := validateRequest(t, router, "POST", "/transcribe", header, &buf)
			if (err == nil) != tt.valid {
				t.Errorf("valid = %v, want %v (err: %v)", err == nil, tt.valid, err)
			}
		})
	}
}

// Static paths win over the /sessions/{session_id} catch-all, as in the
// reference's route order.
func TestRoutes(t *testing.T) {
	_, router := loadSpec(t)
	tests := []struct{ method, path, operationID string }{
		{"GET", "/sessions", "listSessions"},
		{"GET", "/sessions/history", "getSessionHistory"},
		{"GET", "/sessions/stats", "getSessionStats"},
		{"GET", "/sessions/report-card", "getReportCard"},
		{"GET", "/sessions/subtopic-progress", "getSubtopicProgress"},
		{"GET", "/sessions/resumable", "getResumableSession"},
		{"GET", "/sessions/9a8b7c6d-0000-4000-8000-000000000001", "getSession"},
		{"GET", "/sessions/9a8b7c6d-0000-4000-8000-000000000001/replay", "replaySession"},
		{"GET", "/sessions/ws/9a8b7c6d-0000-4000-8000-000000000001", "sessionWebSocket"},
		{"PUT", "/api/admin/llm-config/tutor", "updateLLMConfig"},
		{"GET", "/api/admin/llm-config/options", "getLLMConfigOptions"},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			route, _, err := router.FindRoute(httptest.NewRequest(tt.method, tt.path, nil))
			if err != nil {
				t.Fatal(err)
			}
			if got := route.Operation.OperationID; got != tt.operationID {
				t.Errorf("operation = %s, want %s", got, tt.operationID)
			}
		})
	}
}

func TestWebSocketFrames(t *testing.T) {
	doc, _ := loadSpec(t)
	state := `{"session_id":"s-1","current_step":2,"total_steps":4,"current_concept":"Unlike denominators","progress_percentage":25,"mastery_estimates":{"Like denominators":0.8},"is_complete":false,"mode":"teach_me","coverage":50,"concepts_discussed":[],"exam_progress":null,"is_paused":false,"question_phase":"hint","last_answer_result":"incorrect"}`
	examState := `{"session_id":"s-1","current_step":1,"total_steps":4,"current_concept":"C","progress_percentage":0,"mastery_estimates":{},"is_complete":false,"mode":"exam","coverage":0,"concepts_discussed":[],"exam_progress":{"current_question":8,"total_questions":7,"correct_so_far":5},"is_paused":false,"question_phase":null,"last_answer_result":null}`
	tests := []struct {
		schema string
		frame  string
		valid  bool
	}{
		{"ServerFrame", `{"type":"typing","payload":{"message":null,"state":null,"error":null}}`, true},
		{"ServerFrame", `{"type":"assistant","payload":{"message":"Hi!","state":null,"error":null}}`, true},
		{"ServerFrame", `{"type":"state_update","payload":{"message":null,"state":` + state + `,"error":null}}`, true},
		{"ServerFrame", `{"type":"state_update","payload":{"message":null,"state":` + examState + `,"error":null}}`, true},
		{"ServerFrame", `{"type":"error","payload":{"message":null,"state":null,"error":"Session was updated from another tab. Your last message was not saved. Please resend."}}`, true},
		{"ServerFrame", `{"type":"typing","payload":{"message":null,"state":null}}`, false},
		{"ServerFrame", `{"type":"assistant","payload":{"message":null,"state":null,"error":null}}`, false},
		{"ServerFrame", `{"type":"error","payload":{"message":"x","state":null,"error":"y"}}`, false},
		{"ServerFrame", `{"type":"state_update","payload":{"message":null,"state":` + strings.Replace(state, `,"question_phase":"hint"`, "", 1) + `,"error":null}}`, false},
		{"ServerFrame", `{"type":"state_update","payload":{"message":null,"state":` + strings.Replace(state, `"hint"`, `"reveal"`, 1) + `,"error":null}}`, false},
		{"ServerFrame", `{"type":"pong","payload":{"message":null,"state":null,"error":null}}`, false},
		{"ClientFrame", `{"type":"chat","payload":{"message":"5/8"}}`, true},
		{"ClientFrame", `{"type":"chat","payload":{"message":"5/8","client_turn_id":"c-1","extra":1}}`, true},
		{"ClientFrame", `{"type":"get_state"}`, true},
		{"ClientFrame", `{"type":"start_session","payload":{"topic_id":"g-1","student_context":{"grade":5,"board":"CBSE"}}}`, true},
		{"ClientFrame", `{"type":"start_session","payload":{"student_context":{"grade":"five","board":"CBSE"}}}`, false},
		{"ClientFrame", `{"type":"chat","payload":"5/8"}`, false},
		{"ClientFrame", `{"type":"shout"}`, false},
		{"ClientFrame", `{"payload":{}}`, false},
		{"ClientFrame", `["chat"]`, false},
	}
	for _, tt := range tests {
		t.Run(tt.frame, func(t *testing.T) {
			s := doc.Components.Schemas[tt.schema].Value
			err := s.VisitJSON(decode(t, tt.frame), openapi3.EnableJSONSchema2020())
			if (err == nil) != tt.valid {
				t.Errorf("valid = %v, want %v (err: %v)", err == nil, tt.valid, err)
			}
		})
	}
}

func validateRequest(t *testing.T, router routers.Router, method, target string, header http.Header, body io.Reader) error {
	t.Helper()
	req := httptest.NewRequest(method, target, body)
	req.Header = header
	route, params, err := router.FindRoute(req)
	if err != nil {
		t.Fatalf("find route %s %s: %v", method, target, err)
	}
	return openapi3filter.ValidateRequest(context.Background(), &openapi3filter.RequestValidationInput{
		Request:    req,
		PathParams: params,
		Route:      route,
		Options:    &openapi3filter.Options{AuthenticationFunc: authenticate},
	})
}

// authenticate stands in for the server's token check: it only looks for a token.
func authenticate(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	r := in.RequestValidationInput.Request
	switch in.SecurityScheme.Type {
	case "http":
		if strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") {
			return nil
		}
	case "apiKey":
		if r.URL.Query().Get(in.SecurityScheme.Name) != "" {
			return nil
		}
	}
	return errors.New("no token")
}

func validateResponse(t *testing.T, router routers.Router, method, target string, status int, header http.Header, body string) error {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	route, params, err := router.FindRoute(req)
	if err != nil {
		t.Fatalf("find route %s %s: %v", method, target, err)
	}
	return openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
		Status:                 status,
		Header:                 header,
		Body:                   io.NopCloser(strings.NewReader(body)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	})
}

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return v
}

func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return decode(t, string(b)).(map[string]any)
}

func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// with returns a deep copy of doc changed by change.
func with(doc map[string]any, change func(map[string]any)) map[string]any {
	b, _ := json.Marshal(doc)
	var c map[string]any
	_ = json.Unmarshal(b, &c)
	change(c)
	return c
}
