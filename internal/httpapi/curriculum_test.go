package httpapi_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tutord/tutord/curricula"
	"github.com/tutord/tutord/internal/curriculum"
	"github.com/tutord/tutord/internal/httpapi"
	"github.com/tutord/tutord/internal/lessons"
	"github.com/tutord/tutord/internal/pgtest"
	"github.com/tutord/tutord/internal/store"
)

func TestGetCurriculum(t *testing.T) {
	st := store.New(pgtest.Pool(t))
	files, err := curriculum.LoadFS(curricula.FS())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lessons.Import(context.Background(), st, files, time.Time{}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(httpapi.New(httpapi.Deps{DB: st, Curriculum: st}).Handler())
	defer srv.Close()

	code, body := get(t, srv.URL+"/curriculum?country=India&board=CBSE&grade=7")
	if code != 200 || body["topics"] != nil || body["subtopics"] != nil {
		t.Fatalf("subjects: %d %v", code, body)
	}
	if subjects := body["subjects"].([]any); len(subjects) != 2 || subjects[0] != "Mathematics" || subjects[1] != "Science" {
		t.Fatalf("subjects = %v", subjects)
	}
	// A topic without a subject is ignored, as in the reference.
	if _, body := get(t, srv.URL+"/curriculum?country=India&board=CBSE&grade=7&topic=Fractions"); body["subjects"] == nil {
		t.Fatalf("topic alone: %v", body)
	}
	_, body = get(t, srv.URL+"/curriculum?country=India&board=CBSE&grade=7&subject=Mathematics")
	if topics := body["topics"].([]any); len(topics) != 3 || body["subjects"] != nil {
		t.Fatalf("topics = %v", body)
	}
	_, body = get(t, srv.URL+"/curriculum?country=India&board=CBSE&grade=7&subject=Mathematics&topic=Fractions")
	subs := body["subtopics"].([]any)
	if len(subs) != 3 {
		t.Fatalf("subtopics = %v", subs)
	}
	first := subs[0].(map[string]any)
	if first["subtopic"] != "Adding and subtracting fractions" || first["key"] != "mathematics/fractions/adding-and-subtracting-fractions" || first["guideline_id"] == "" {
		t.Fatalf("first subtopic = %v", first)
	}
	// Nothing for another board: empty lists, not null.
	_, body = get(t, srv.URL+"/curriculum?country=India&board=ICSE&grade=7")
	if s, ok := body["subjects"].([]any); !ok || len(s) != 0 {
		t.Fatalf("unknown board: %v", body)
	}

	// A grade nobody teaches has nothing, however large.
	for _, q := range []string{"grade=3000000000", "grade=-3000000000", "grade=9223372036854775807&subject=Mathematics",
		"grade=3000000000&subject=Mathematics&topic=Fractions"} {
		code, body := get(t, srv.URL+"/curriculum?country=India&board=CBSE&"+q)
		key := map[int]string{1: "subjects", 2: "topics", 3: "subtopics"}[strings.Count(q, "=")]
		if l, ok := body[key].([]any); code != 200 || !ok || len(l) != 0 {
			t.Errorf("%s: %d %v, want 200 and no %s", q, code, body, key)
		}
	}

	for _, tt := range []struct{ query, loc, typ string }{
		{"country=India&board=CBSE&grade=seven", "grade", "int_parsing"},
		{"country=India&board=CBSE", "grade", "missing"},
		{"board=CBSE&grade=7", "country", "missing"},
	} {
		code, body := get(t, srv.URL+"/curriculum?"+tt.query)
		if code != 422 {
			t.Fatalf("%s: status %d, want 422", tt.query, code)
		}
		item := body["detail"].([]any)[0].(map[string]any)
		if loc := item["loc"].([]any); loc[0] != "query" || loc[1] != tt.loc || item["type"] != tt.typ {
			t.Fatalf("%s: detail %v", tt.query, item)
		}
		if body["error"].(map[string]any)["code"] != "validation_error" {
			t.Fatalf("%s: error %v", tt.query, body["error"])
		}
	}
}
