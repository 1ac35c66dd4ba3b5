package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tutord/tutord/internal/store"
)

// reportEntries flattens a report card into "subject/topic_key/subtopic_key"
// → the entries under that key, and returns the topics' titles by
// "subject/topic_key".
func reportEntries(t *testing.T, body []byte) (map[string][]map[string]any, map[string]string) {
	t.Helper()
	var rc struct {
		Subjects []struct {
			Subject string `json:"subject"`
			Topics  []struct {
				Topic     string           `json:"topic"`
				TopicKey  string           `json:"topic_key"`
				Subtopics []map[string]any `json:"subtopics"`
			} `json:"topics"`
		} `json:"subjects"`
	}
	if err := json.Unmarshal(body, &rc); err != nil {
		t.Fatalf("report card %s: %v", body, err)
	}
	out, topics := map[string][]map[string]any{}, map[string]string{}
	for _, s := range rc.Subjects {
		for _, tp := range s.Topics {
			topics[s.Subject+"/"+tp.TopicKey] = tp.Topic
			for _, st := range tp.Subtopics {
				k := fmt.Sprintf("%s/%s/%s", s.Subject, tp.TopicKey, st["subtopic_key"])
				out[k] = append(out[k], st)
			}
		}
	}
	return out, topics
}

// onlyEntry fetches the caller's report card, in which one topic is
// studied, and returns its one entry under key and the topics' titles.
func onlyEntry(t *testing.T, s *apiServer, tok, key string) (map[string]any, map[string]string) {
	t.Helper()
	r := s.do("GET", "/sessions/report-card", nil, tok)
	if r.Status != 200 {
		t.Fatalf("report card: %d %s", r.Status, r.Body)
	}
	entries, topics := reportEntries(t, r.Body)
	if n := len(entries[key]); n != 1 {
		t.Fatalf("%d report-card entries for %s, want 1\nbody: %s", n, key, r.Body)
	}
	if m := r.JSON(t); m["total_topics_studied"] != float64(1) {
		t.Errorf("total_topics_studied = %v, want 1", m["total_topics_studied"])
	}
	return entries[key][0], topics
}

// TestReportCardGroupsSessionsBySubtopicKeys: CONTRACT §2.5 groups a report
// card subject → topic_key → subtopic_key, so one subtopic is one entry
// whatever guideline rows its sessions point at: a subtopic removed from
// the curriculum and added again (a new id), or the same subtopic in two
// grades. The entry's guideline and names are its latest session's.
func TestReportCardGroupsSessionsBySubtopicKeys(t *testing.T) {
	ctx := context.Background()
	key := "Mathematics/fractions/adding-and-subtracting-fractions"

	t.Run("subtopic removed and added again", func(t *testing.T) {
		s := newServer(t)
		tok := token(t, "learner-readded", false)
		l, err := s.st.EnsureLearner(ctx, "learner-readded")
		if err != nil {
			t.Fatal(err)
		}
		// Last month, on the subtopic's former guideline row (since deleted,
		// so its id is unknown to the guidelines table).
		old := uuid.New()
		if err := s.st.CreateSession(ctx, store.NewSession{
			ID: uuid.New(), LearnerID: &l.ID, Mode: "teach_me", GuidelineID: &old, Subject: "Mathematics",
			State: json.RawMessage(`{}`), Now: time.Now().AddDate(0, -1, 0),
			Summary: store.Summary{TopicName: "Fractions - Adding and subtracting fractions", CurrentStep: 3, TotalSteps: 7,
				ConceptsCovered:  []string{"Like fractions", "Unlike fractions"},
				MasteryByConcept: map[string]float64{"Like fractions": 0.8, "Unlike fractions": 0.6, "Mixed numbers": 0, "Word problems": 0}},
		}); err != nil {
			t.Fatal(err)
		}
		// Today, on the current guideline row.
		s.newSession(fractions, "", tok)

		e, _ := onlyEntry(t, s, tok, key)
		if c := e["coverage"]; c != float64(50) {
			t.Errorf("coverage of %s = %v, want 50 (the concepts covered in both sessions against the latest plan)", key, c)
		}
		if g := e["guideline_id"]; g != s.subject[fractions].String() {
			t.Errorf("guideline_id = %v, want the current guideline's %v", g, s.subject[fractions])
		}
		if e["session_count"] != float64(2) || e["last_studied"] == nil || e["subtopic"] != "Adding and subtracting fractions" {
			t.Errorf("entry %v; want 2 sessions, a last_studied, the guideline's subtopic title", e)
		}
	})

	t.Run("same subtopic in two grades", func(t *testing.T) {
		s := newServer(t)
		tok := token(t, "learner-grades", false)
		l, err := s.st.EnsureLearner(ctx, "learner-grades")
		if err != nil {
			t.Fatal(err)
		}
		g, err := s.st.GetGuideline(ctx, s.subject[fractions])
		if err != nil {
			t.Fatal(err)
		}
		// The grade 8 copy has the same keys under other titles.
		if _, err := s.st.ImportGuidelines(ctx, []store.GuidelineImport{{
			Country: g.Country, Board: g.Board, Grade: 8, Subject: g.Subject, SubjectKey: g.SubjectKey,
			TopicKey: g.TopicKey, TopicTitle: g.TopicTitle + " (grade 8)", SubtopicKey: g.SubtopicKey, SubtopicTitle: g.SubtopicTitle + " (grade 8)",
			Key: g.Key, Approved: true, Guideline: g.Guideline, Plan: g.Plan.Plan, PlanHash: g.Plan.Hash,
		}}, time.Time{}); err != nil {
			t.Fatal(err)
		}
		var grade8 uuid.UUID
		gs, _ := s.st.ListGuidelines(ctx)
		for _, x := range gs {
			if x.Key == g.Key && x.Grade == 8 {
				grade8 = x.ID
			}
		}
		if grade8 == uuid.Nil {
			t.Fatal("grade 8 copy not imported")
		}
		s.newSession(fractions, "", tok)
		s.newSession(fractions, "exam", tok)
		if err := s.st.CreateSession(ctx, store.NewSession{
			ID: uuid.New(), LearnerID: &l.ID, Mode: "teach_me", GuidelineID: &grade8, Subject: g.Subject,
			State: json.RawMessage(`{}`), Now: time.Now().Add(time.Minute),
			Summary: store.Summary{TopicName: "Fractions - Adding and subtracting fractions", CurrentStep: 1, TotalSteps: 7},
		}); err != nil {
			t.Fatal(err)
		}
		e, topics := onlyEntry(t, s, tok, key)
		if e["guideline_id"] != grade8.String() || e["subtopic"] != g.SubtopicTitle+" (grade 8)" || e["session_count"] != float64(3) {
			t.Errorf("entry %v; want the latest session's guideline (grade 8, %v) and title, 3 sessions", e, grade8)
		}
		if tt := topics["Mathematics/fractions"]; tt != g.TopicTitle+" (grade 8)" {
			t.Errorf("topic title %q, want the latest session's %q", tt, g.TopicTitle+" (grade 8)")
		}
	})
}
