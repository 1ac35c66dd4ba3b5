package tutor

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// keysOf returns the keys of a JSON object, sorted.
func keysOf(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func sorted(s ...string) []string { slices.Sort(s); return s }

func TestStateJSONKeys(t *testing.T) {
	tp := lesson("a", "b")
	s := newState(t, ModeTeachMe, tp)
	s, _ = ApplyTurn(s, tp, turnAt(1, "I think 41", tutorSays(asks("6 × 7?", "42", "a"))))
	s, _ = ApplyTurn(s, tp, turnAt(2, "41", tutorSays(wrong, func(o *TutorOutput) { o.MisconceptionsDetected = []string{"adds"} })))
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	// The reference document's keys (CONTRACT §4.4) without
	// full_conversation_log, plus tutord's additions.
	want := sorted("session_id", "created_at", "updated_at", "turn_count", "topic", "current_step",
		"last_concept_taught", "last_question", "awaiting_response", "allow_extension", "mastery_estimates",
		"misconceptions", "weak_areas", "student_context", "pace_preference", "off_topic_count", "warning_count",
		"safety_flags", "mode", "is_paused", "concepts_covered_set", "exam_questions", "exam_current_question_idx",
		"exam_total_correct", "exam_total_partial", "exam_total_incorrect", "exam_finished", "exam_feedback",
		"concepts_discussed", "clarify_complete", "session_summary", "conversation_history",
		"schema_version", "started_at", "last_answer_result", "engine_config")
	if diff := cmp.Diff(want, keysOf(t, b)); diff != "" {
		t.Errorf("state keys (-want +got)\n%s", diff)
	}
	nested := map[string][]string{
		"topic": sorted("topic_id", "topic_name", "subject", "grade_level", "plan_version_id"),
		"last_question": sorted("question_text", "expected_answer", "concept", "rubric", "hints", "hints_used",
			"wrong_attempts", "previous_student_answers", "phase", "question_id", "answer_kind", "idk_count", "asked_at"),
		"student_context": sorted("grade", "board", "language_level", "preferred_examples", "student_name", "student_age", "about_me", "language", "style"),
		"session_summary": sorted("turn_timeline", "concepts_taught", "depth_reached", "examples_used", "analogies_used",
			"student_responses_summary", "progress_trend", "stuck_points", "what_helped", "next_focus"),
	}
	for key, want := range nested {
		if diff := cmp.Diff(want, keysOf(t, doc[key])); diff != "" {
			t.Errorf("%s keys (-want +got)\n%s", key, diff)
		}
	}
	var misc []json.RawMessage
	json.Unmarshal(doc["misconceptions"], &misc)
	if len(misc) != 1 {
		t.Fatalf("misconceptions = %s", doc["misconceptions"])
	}
	if diff := cmp.Diff(sorted("concept", "description", "detected_at", "resolved", "count", "last_detected_at"), keysOf(t, misc[0])); diff != "" {
		t.Errorf("misconception keys (-want +got)\n%s", diff)
	}
	var msgs []json.RawMessage
	json.Unmarshal(doc["conversation_history"], &msgs)
	if diff := cmp.Diff(sorted("role", "content", "timestamp", "message_id"), keysOf(t, msgs[0])); diff != "" {
		t.Errorf("message keys (-want +got)\n%s", diff)
	}
}

func TestZeroStateJSONHasNoNullLists(t *testing.T) {
	b, err := json.Marshal(State{})
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, key := range []string{"mastery_estimates", "misconceptions", "weak_areas", "safety_flags", "concepts_covered_set",
		"exam_questions", "concepts_discussed", "conversation_history", "turn_timeline", "concepts_taught",
		"examples_used", "analogies_used", "student_responses_summary", "stuck_points", "what_helped", "preferred_examples"} {
		if !strings.Contains(got, `"`+key+`":[]`) && !strings.Contains(got, `"`+key+`":{}`) {
			t.Errorf("%s is not an empty list or object in %s", key, got)
		}
	}
	for _, key := range []string{"topic", "last_question", "exam_feedback", "last_concept_taught", "started_at", "last_answer_result", "next_focus"} {
		if !strings.Contains(got, `"`+key+`":null`) {
			t.Errorf("%s is not null", key)
		}
	}
}

func TestMarshalDoesNotModifyState(t *testing.T) {
	s := State{LastQuestion: &Question{}, ExamFeedback: &ExamFeedback{}}
	if _, err := json.Marshal(s); err != nil {
		t.Fatal(err)
	}
	if s.LastQuestion.Hints != nil || s.ExamFeedback.Strengths != nil || s.History != nil {
		t.Error("MarshalJSON changed the state it marshalled")
	}
}

func TestIsComplete(t *testing.T) {
	tp := planOf(3)
	tests := []struct {
		name string
		s    State
		tp   *Topic
		want bool
	}{
		{"teach_me on the last step", State{Mode: ModeTeachMe, CurrentStep: 3}, tp, false},
		{"teach_me past the last step", State{Mode: ModeTeachMe, CurrentStep: 4}, tp, true},
		{"teach_me without topic", State{Mode: ModeTeachMe, CurrentStep: 9}, nil, false},
		{"teach_me with an empty plan", State{Mode: ModeTeachMe, CurrentStep: 1}, lesson(), true},
		{"clarify not complete", State{Mode: ModeClarify, CurrentStep: 9}, tp, false},
		{"clarify complete", State{Mode: ModeClarify, ClarifyComplete: true}, tp, true},
		{"exam unfinished even past the steps", State{Mode: ModeExam, CurrentStep: 9}, tp, false},
		{"exam finished", State{Mode: ModeExam, CurrentStep: 1, ExamFinished: true}, tp, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.s.IsComplete(tt.tp); got != tt.want {
				t.Errorf("IsComplete = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestProgressPercentage(t *testing.T) {
	tp := planOf(3)
	tests := []struct {
		step int
		tp   *Topic
		want float64
	}{
		{1, tp, 0}, {2, tp, 33.33333333333333}, {3, tp, 66.66666666666666}, // Python: (step-1)/total*100 {4, tp, 100}, {9, tp, 100}, {0, tp, 0}, {5, nil, 0}, {2, lesson(), 0},
	}
	for _, tt := range tests {
		if got := (State{CurrentStep: tt.step}).ProgressPercentage(tt.tp); got != tt.want {
			t.Errorf("step %d: got %v, want %v", tt.step, got, tt.want)
		}
	}
}

func TestCoverage(t *testing.T) {
	tests := []struct {
		name    string
		tp      *Topic
		covered []string
		want    float64
	}{
		{"nothing covered", planOf(3), nil, 0},
		{"one of three rounds to 33.3", planOf(3), []string{"c1"}, 33.3},
		{"two of three rounds to 66.7", planOf(3), []string{"c1", "c2"}, 66.7},
		{"all", planOf(3), []string{"c3", "c1", "c2"}, 100},
		{"concepts outside the plan do not count", planOf(3), []string{"c1", "zebra"}, 33.3},
		{"repeated step concepts count once", lesson("x", "y", "x"), []string{"x"}, 50},
		{"single-concept plan", lesson("x", "x", "x", "x"), []string{"x"}, 100},
		{"one of eight: 12.5 stays", planOf(8), []string{"c1"}, 12.5},
		{"empty plan", lesson(), []string{"x"}, 0},
		{"no topic", nil, []string{"x"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := (State{ConceptsCovered: tt.covered}).Coverage(tt.tp); got != tt.want {
				t.Errorf("Coverage = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestCurrentConcept(t *testing.T) {
	tp := planOf(2)
	for step, want := range map[int]string{1: "c1", 2: "c2", 3: ""} {
		got, ok := (State{CurrentStep: step}).CurrentConcept(tp)
		if got != want || ok != (want != "") {
			t.Errorf("step %d: got %q, %v", step, got, ok)
		}
	}
}

func TestPostCompletion(t *testing.T) {
	tp := planOf(3) // 2 × total_steps = 6
	tests := []struct {
		name string
		s    State
		want bool
	}{
		{"teach_me not complete", State{Mode: ModeTeachMe, CurrentStep: 3, TurnCount: 50, AllowExtension: true}, false},
		{"teach_me complete, extension turns = 10", State{Mode: ModeTeachMe, CurrentStep: 4, TurnCount: 16, AllowExtension: true}, false},
		{"teach_me complete, extension turns = 11", State{Mode: ModeTeachMe, CurrentStep: 4, TurnCount: 17, AllowExtension: true}, true},
		{"teach_me complete, extension off", State{Mode: ModeTeachMe, CurrentStep: 4, TurnCount: 1}, true},
		{"clarify complete", State{Mode: ModeClarify, ClarifyComplete: true}, true},
		{"clarify open", State{Mode: ModeClarify, TurnCount: 99}, false},
		{"exam finished is not short-circuited", State{Mode: ModeExam, ExamFinished: true, TurnCount: 99}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.s.PostCompletion(tp); got != tt.want {
				t.Errorf("PostCompletion = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestCloneIsDeep(t *testing.T) {
	tp := lesson("a", "b")
	s := newState(t, ModeTeachMe, tp)
	s, _ = ApplyTurn(s, tp, turnAt(1, "hi", tutorSays(asks("q?", "1", "a"), func(o *TutorOutput) { o.MisconceptionsDetected = []string{"m"} })))
	s.ExamQuestions = examQuestions(1)
	s.ExamFeedback = &ExamFeedback{Strengths: []string{"x"}}
	s.EngineConfig.Components["tutor"] = ComponentConfig{Temperature: ptr(0.5)}
	c := s.Clone()
	if diff := cmp.Diff(s, c); diff != "" {
		t.Fatalf("clone differs (-orig +clone)\n%s", diff)
	}
	c.LastQuestion.Hints = append(c.LastQuestion.Hints, "h")
	c.LastQuestion.WrongAttempts = 9
	c.MasteryEstimates[0].Score = 0.9
	c.Misconceptions[0].Count = 9
	c.History[0].Content = "changed"
	c.ExamQuestions[0].QuestionText = "changed"
	c.ExamFeedback.Strengths[0] = "changed"
	*c.EngineConfig.Components["tutor"].Temperature = 2
	c.SessionSummary.TurnTimeline[0] = "changed"
	if s.LastQuestion.WrongAttempts != 0 || len(s.LastQuestion.Hints) != 0 || s.MasteryEstimates[0].Score != 0 ||
		s.Misconceptions[0].Count != 1 || s.History[0].Content != "hi" || s.ExamQuestions[0].QuestionText != "Question 1?" ||
		s.ExamFeedback.Strengths[0] != "x" || *s.EngineConfig.Components["tutor"].Temperature != 0.5 ||
		s.SessionSummary.TurnTimeline[0] == "changed" {
		t.Error("changing the clone changed the original")
	}
}

func TestLastReply(t *testing.T) {
	s := State{History: []Message{{Role: RoleTeacher, Content: "a"}, {Role: RoleStudent, Content: "b"}}}
	if got, ok := s.LastReply(); !ok || got != "a" {
		t.Errorf("LastReply = %q, %v", got, ok)
	}
	if _, ok := (State{}).LastReply(); ok {
		t.Error("empty history has a reply")
	}
}
