package tutor

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

var fixtureVersion = regexp.MustCompile(`^state_v(\d+)`)

// TestDecodeFixtures decodes a fixture of every released schema version
// and compares the upgraded state, re-encoded, with its golden file.
func TestDecodeFixtures(t *testing.T) {
	files, err := filepath.Glob("testdata/state_v*.json")
	if err != nil {
		t.Fatal(err)
	}
	versions := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, ".golden.json") {
			continue
		}
		if m := fixtureVersion.FindStringSubmatch(filepath.Base(f)); m != nil {
			versions[m[1]] = true
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			in, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			s, err := DecodeState(in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(s, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := strings.TrimSuffix(f, ".json") + ".golden.json"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("upgraded state differs from %s (-want +got)\n%s", golden, diff)
			}
			again, err := DecodeState(got)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(s, again); diff != "" {
				t.Errorf("the golden state does not decode to itself (-first +second)\n%s", diff)
			}
		})
	}
	for v := 0; v <= SchemaVersion; v++ {
		if !versions[strconv.Itoa(v)] {
			t.Errorf("no fixture for schema version %d", v)
		}
	}
}

func TestDecodeCurrentVersionIsLossless(t *testing.T) {
	in, err := os.ReadFile("testdata/state_v1.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := DecodeState(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(bytes.TrimSpace(in), out) {
		t.Errorf("a version-1 state changed in a round trip:\n%s", cmp.Diff(string(in), string(out)))
	}
}

func TestDecodeV0Upgrade(t *testing.T) {
	in, err := os.ReadFile("testdata/state_v0.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := DecodeState(in)
	if err != nil {
		t.Fatal(err)
	}
	if s.SchemaVersion != SchemaVersion {
		t.Errorf("schema_version %d", s.SchemaVersion)
	}
	wantTopic := &TopicRef{TopicID: "guideline-42", TopicName: "Fractions - Comparing Fractions", Subject: "Mathematics", GradeLevel: 5}
	if diff := cmp.Diff(wantTopic, s.Topic); diff != "" {
		t.Errorf("topic (-want +got)\n%s", diff)
	}
	wantM := []Misconception{
		{Concept: "Like denominators", Description: "Bigger denominator means bigger fraction", DetectedAt: mustTime(t, "2026-02-27T10:14:00.5"),
			Count: 2, LastDetectedAt: mustTime(t, "2026-02-27T10:18:00")},
		{Concept: "Like denominators", Description: "Compares numerators backwards", DetectedAt: mustTime(t, "2026-02-27T10:16:00"),
			Count: 1, LastDetectedAt: mustTime(t, "2026-02-27T10:16:00")},
	}
	if diff := cmp.Diff(wantM, s.Misconceptions); diff != "" {
		t.Errorf("misconceptions (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff(Mastery{{"Like denominators", 0.3}, {"Unlike denominators", 0}, {"Pizza fractions", 0.6}}, s.MasteryEstimates); diff != "" {
		t.Errorf("mastery (-want +got)\n%s", diff)
	}
	b, _ := json.Marshal(s)
	if bytes.Contains(b, []byte("full_conversation_log")) {
		t.Error("full_conversation_log survived the upgrade")
	}
	if len(s.History) != 7 || s.LastQuestion.Phase != PhaseHint || s.LastQuestion.WrongAttempts != 2 {
		t.Errorf("history %d, question %+v", len(s.History), s.LastQuestion)
	}

	// An upgraded reference session goes on with the reference's topic.
	var doc struct {
		Topic ReferenceTopic `json:"topic"`
	}
	if err := json.Unmarshal(in, &doc); err != nil {
		t.Fatal(err)
	}
	tp := doc.Topic.Topic()
	if err := tp.Validate(); err != nil {
		t.Fatal(err)
	}
	next, _ := ApplyTurn(s, &tp, turnAt(60, "5/8", tutorSays(correct, advance(3))))
	if next.CurrentStep != 3 || next.LastQuestion != nil || next.Coverage(&tp) != 50 {
		t.Errorf("step %d, question %v, coverage %v", next.CurrentStep, next.LastQuestion, next.Coverage(&tp))
	}
}

func mustTime(t *testing.T, s string) Time {
	t.Helper()
	v, err := ParseTime(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		is   error
	}{
		{"empty", ``, ErrInvalid},
		{"null", `null`, ErrInvalid},
		{"array", `[]`, ErrInvalid},
		{"string", `"state"`, ErrInvalid},
		{"newer version", `{"schema_version": 2}`, ErrUnsupportedVersion},
		{"negative version", `{"schema_version": -1}`, ErrUnsupportedVersion},
		{"unknown mode", `{"schema_version": 1, "mode": "lecture"}`, ErrInvalid},
		{"truncated", `{"schema_version": 1, "mode": "exam"`, nil},
		{"wrong type", `{"schema_version": 1, "turn_count": "three"}`, nil},
		{"bad timestamp", `{"created_at": "yesterday"}`, nil},
		{"fractional version", `{"schema_version": 1.5}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeState([]byte(tt.in))
			if err == nil {
				t.Fatal("no error")
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("err = %v, want %v", err, tt.is)
			}
		})
	}
}

func TestDecodeRepairs(t *testing.T) {
	in := `{
		"schema_version": 1, "mode": "", "current_step": -3, "turn_count": -1, "off_topic_count": -2,
		"mastery_estimates": {"a": 1.5, "b": -0.5},
		"last_question": {"question_text": "q", "wrong_attempts": -4, "phase": "weird", "hints_used": 7},
		"awaiting_response": false,
		"misconceptions": [{"description": "m", "count": 0, "detected_at": "2026-01-01T00:00:00"}],
		"exam_questions": [{"question_idx": 5, "result": "maybe"}, {"question_idx": 9, "result": "correct"}],
		"exam_current_question_idx": 7, "exam_total_correct": 9,
		"concepts_covered_set": ["a", "a", "b"],
		"session_summary": {"progress_trend": "skyrocketing", "turn_timeline": ["1","2","3","4","5","6","7","8","9","10","11","12","13","14","15","16","17","18","19","20","21","22","23","24","25","26","27","28","29","30","31","32"]},
		"conversation_history": [{"role":"student","content":"1"},{"role":"student","content":"2"},{"role":"student","content":"3"},{"role":"student","content":"4"},{"role":"student","content":"5"},{"role":"student","content":"6"},{"role":"student","content":"7"},{"role":"student","content":"8"},{"role":"student","content":"9"},{"role":"student","content":"10"},{"role":"student","content":"11"}],
		"last_answer_result": "great"
	}`
	s, err := DecodeState([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name string
		ok   bool
	}{
		{"mode defaults to teach_me", s.Mode == ModeTeachMe},
		{"current_step ≥ 1", s.CurrentStep == 1},
		{"counters ≥ 0", s.TurnCount == 0 && s.OffTopicCount == 0},
		{"mastery clamped", cmp.Equal(s.MasteryEstimates, Mastery{{"a", 1}, {"b", 0}})},
		{"question repaired", s.LastQuestion.WrongAttempts == 0 && s.LastQuestion.Phase == PhaseAsked && s.LastQuestion.HintsUsed == 2},
		{"awaiting follows the question", s.AwaitingResponse},
		{"misconception count ≥ 1", s.Misconceptions[0].Count == 1 && s.Misconceptions[0].LastDetectedAt.Equal(s.Misconceptions[0].DetectedAt)},
		{"exam renumbered", s.ExamQuestions[0].QuestionIdx == 0 && s.ExamQuestions[1].QuestionIdx == 1},
		{"unknown result dropped", s.ExamQuestions[0].Result == nil},
		{"totals from results", s.ExamTotalCorrect == 1 && s.ExamTotalPartial == 0 && s.ExamTotalIncorrect == 0},
		{"exam index clamped", s.ExamCurrentIdx == 2},
		{"covered set de-duplicated", cmp.Equal(s.ConceptsCovered, []string{"a", "b"})},
		{"trend reset", s.SessionSummary.ProgressTrend == TrendSteady},
		{"timeline capped", len(s.SessionSummary.TurnTimeline) == TimelineCap && s.SessionSummary.TurnTimeline[0] == "3"},
		{"history capped", len(s.History) == HistoryWindow && s.History[0].Content == "2"},
		{"unknown last answer result dropped", s.LastAnswerResult == nil},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: %+v", c.name, s)
		}
	}
}

func FuzzDecodeState(f *testing.F) {
	files, _ := filepath.Glob("testdata/state_v*.json")
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"mode":"exam","exam_current_question_idx":-5,"exam_questions":[{}]}`))
	f.Add([]byte(`{"current_step":0,"last_question":{"phase":"explain","wrong_attempts":99}}`))
	f.Add([]byte(`{"mastery_estimates":{"a":1e308,"a":-1}}`))
	tp := planOf(3)
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := DecodeState(data)
		if err != nil {
			return
		}
		// A decoded state is usable: every function runs on it, and it
		// round-trips.
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		again, err := DecodeState(b)
		if err != nil {
			t.Fatalf("re-decode: %v\n%s", err, b)
		}
		if diff := cmp.Diff(s, again); diff != "" {
			t.Fatalf("round trip (-first +second)\n%s", diff)
		}
		s.DTO(tp)
		s.Summary(tp)
		s.ExamScore()
		Pacing(s, tp)
		Style(s.History, "x")
		ExamReply(s, tp)
		for _, o := range []Outcome{
			turnAt(1, "42", tutorSays(correct, advance(9), complete)),
			{Now: t0, StudentMessage: "stop", Precheck: PrecheckStop},
			{Now: t0, StudentMessage: "idk", Precheck: PrecheckIDK, Output: tutorSays(wrong)},
		} {
			n, _ := ApplyTurn(s, tp, o)
			if _, err := json.Marshal(n); err != nil {
				t.Fatalf("marshal after a turn: %v", err)
			}
		}
		EndExam(s, t0)
		Pause(s, tp, t0)
		EndClarify(s, t0)
	})
}

// A finished exam of a reference document gets its weighted score from its
// questions; the reference kept none.
func TestDecodeV0FinishedExamWeightedScore(t *testing.T) {
	in, err := os.ReadFile("testdata/state_v0_exam.json")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(in)
	doc = strings.Replace(doc, `"exam_finished": false`, `"exam_finished": true`, 1)
	doc = strings.Replace(doc, `"exam_feedback": null`, `"exam_feedback": {"score": 1, "total": 3, "percentage": 33.3, "strengths": ["Tenths"], "weak_areas": ["Tenths"], "patterns": [], "next_steps": ["Review these concepts in Teach Me: Tenths", "Clarify your understanding of: Tenths"]}`, 1)
	s, err := DecodeState([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if s.ExamFeedback == nil || s.ExamFeedback.Score != 1 {
		t.Fatalf("setup: feedback %+v", s.ExamFeedback)
	}
	sc := s.ExamScore()
	if sc.WeightedScore != 1.5 || s.ExamFeedback.WeightedPercentage != 50 {
		t.Errorf("weighted_score %v, weighted_percentage %v; want 1.5 and 50 (1 correct + 1 partial of 3)",
			sc.WeightedScore, s.ExamFeedback.WeightedPercentage)
	}
}

// A document without allow_extension has the reference's default, true
// (§4.4): a completed lesson keeps its extension turns.
func TestDecodeMissingAllowExtension(t *testing.T) {
	in, err := os.ReadFile("testdata/state_v0.json")
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Replace(string(in), `"allow_extension": true,`, ``, 1)
	if doc == string(in) {
		t.Fatal("setup: allow_extension not found in the fixture")
	}
	doc = strings.Replace(doc, `"current_step": 2,`, `"current_step": 5,`, 1) // the 4-step plan is complete
	s, err := DecodeState([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Topic ReferenceTopic `json:"topic"`
	}
	if err := json.Unmarshal(in, &ref); err != nil {
		t.Fatal(err)
	}
	tp := ref.Topic.Topic()
	if !s.IsComplete(&tp) || s.TurnCount != 4 {
		t.Fatalf("setup: complete %v, turn_count %d", s.IsComplete(&tp), s.TurnCount)
	}
	if !s.AllowExtension || s.PostCompletion(&tp) {
		t.Errorf("allow_extension %v, post-completion %v at turn 4 of a 4-step plan; want true/false (extension until turn 18)",
			s.AllowExtension, s.PostCompletion(&tp))
	}
}
