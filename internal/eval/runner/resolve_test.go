package runner

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/tutord/tutord/internal/curriculum"
	"github.com/tutord/tutord/internal/eval/client"
	"github.com/tutord/tutord/internal/eval/learner"
)

// A subtopic resolves to the same place whatever was resolved before, even
// when an earlier lookup walked the same grade of another board.
func TestResolveDoesNotDependOnEarlierLookups(t *testing.T) {
	type entry struct{ subject, topic, title, guideline, key string }
	// board/grade → its subtopics. Halves is in grade 7 of both boards.
	server := map[string][]entry{
		"ICSE/8": {{"Mathematics", "Algebra", "Expressions", "g-expr", "mathematics/algebra/expressions"}},
		"ICSE/7": {{"Mathematics", "Fractions", "Halves", "g-icse-halves", "mathematics/fractions/halves"}},
		"CBSE/7": {{"Mathematics", "Fractions", "Halves", "g-halves", "mathematics/fractions/halves"}},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		out := map[string]any{"subjects": []string{}}
		for _, e := range server[q.Get("board")+"/"+q.Get("grade")] {
			switch {
			case q.Get("subject") == "":
				out = map[string]any{"subjects": []string{e.subject}}
			case q.Get("topic") == "" && q.Get("subject") == e.subject:
				out = map[string]any{"topics": []string{e.topic}}
			case q.Get("subject") == e.subject && q.Get("topic") == e.topic:
				out = map[string]any{"subtopics": []map[string]string{{"subtopic": e.title, "guideline_id": e.guideline, "key": e.key}}}
			}
		}
		json.NewEncoder(w).Encode(out)
	}))
	defer srv.Close()
	// The harness's curriculum knows only the ICSE algebra subtopic:
	// halves resolves in the resolver's board, CBSE.
	bank := learner.NewBank([]*curriculum.File{{
		Country: "India", Board: "ICSE", Grade: 8, Subject: "Mathematics", Topic: curriculum.Topic{Key: "algebra", Title: "Algebra"},
		Subtopics: []curriculum.Subtopic{{Key: "expressions", Title: "Expressions"}},
	}})
	fresh := func() *resolver { return newResolver(&client.Client{BaseURL: srv.URL}, bank, "India", "CBSE") }
	ctx := context.Background()
	alone, err := fresh().resolve(ctx, "mathematics/fractions/halves", 0)
	if err != nil || alone != (place{GuidelineID: "g-halves", Grade: 7, Board: "CBSE"}) {
		t.Fatalf("halves alone: %+v, %v; want g-halves of CBSE grade 7", alone, err)
	}
	r := fresh()
	// The ICSE subtopic played at grade 7, where ICSE has no such subtopic:
	// the resolver walks ICSE's grade 7 before it finds it in grade 8.
	if p, err := r.resolve(ctx, "mathematics/algebra/expressions", 7); err != nil || p.GuidelineID != "g-expr" {
		t.Fatalf("expressions at grade 7: %+v, %v; want g-expr", p, err)
	}
	if p, err := r.resolve(ctx, "mathematics/fractions/halves", 0); err != nil || p != alone {
		t.Errorf("halves after a walk of ICSE's grade 7: %+v, %v; want %+v, as alone", p, err, alone)
	}
}
