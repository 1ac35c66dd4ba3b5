package runner

import (
	"context"
	"fmt"
	"sync"

	"github.com/tutord/tutord/internal/eval/client"
	"github.com/tutord/tutord/internal/eval/learner"
)

// place is where a subtopic is in the server's curriculum.
type place struct {
	GuidelineID string
	Grade       int
	Board       string
}

// resolver finds subtopics' guideline ids through GET /curriculum, the
// way the frontend browses: grade → subjects → topics → subtopics, whose
// entries carry their keys. It remembers what it found.
type resolver struct {
	c              *client.Client
	bank           *learner.Bank
	country, board string

	mu     sync.Mutex
	found  map[string]map[boardGrade]place // key → grade → place
	walked map[boardGrade]bool             // grades walked in full
}

// boardGrade is a grade of a country's board. Bank subtopics are looked
// for in their own board, others in the resolver's: what a walk of one
// board found says nothing of another.
type boardGrade struct {
	country, board string
	grade          int
}

func newResolver(c *client.Client, bank *learner.Bank, country, board string) *resolver {
	return &resolver{c: c, bank: bank, country: country, board: board, found: map[string]map[boardGrade]place{}, walked: map[boardGrade]bool{}}
}

// resolve returns the place of the subtopic with the full key. grade, when
// not 0, is the learner's grade: the subtopic of that grade when it has
// one, else the subtopic in the bank's grade, or in any grade. The answer
// does not depend on what was resolved before.
func (r *resolver) resolve(ctx context.Context, key string, grade int) (place, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	country, board := r.country, r.board
	s, inBank := r.bank.Subtopic(key)
	if inBank {
		country, board = s.Country, s.Board
	}
	var grades []int
	if grade != 0 {
		grades = append(grades, grade)
	}
	if inBank {
		grades = append(grades, s.Grade)
	}
	for g := 1; g <= 12; g++ {
		grades = append(grades, g)
	}
	for _, g := range grades {
		if p, ok := r.found[key][boardGrade{country, board, g}]; ok {
			return p, nil
		}
		if inBank && g == s.Grade {
			if err := r.subtopics(ctx, client.CurriculumQuery{Country: country, Board: board, Grade: s.Grade, Subject: s.Subject, Topic: s.TopicTitle}); err != nil {
				return place{}, err
			}
		} else if err := r.walk(ctx, country, board, g); err != nil {
			return place{}, err
		}
		if p, ok := r.found[key][boardGrade{country, board, g}]; ok {
			return p, nil
		}
	}
	return place{}, fmt.Errorf("subtopic %s is not in the curriculum of %s (%s, %s)", key, r.c.BaseURL, country, board)
}

// walk records every subtopic of a grade.
func (r *resolver) walk(ctx context.Context, country, board string, grade int) error {
	w := boardGrade{country, board, grade}
	if r.walked[w] {
		return nil
	}
	q := client.CurriculumQuery{Country: country, Board: board, Grade: grade}
	subjects, err := r.c.Curriculum(ctx, q)
	if err != nil {
		return err
	}
	for _, subject := range subjects.Subjects {
		q.Subject = subject
		topics, err := r.c.Curriculum(ctx, q)
		if err != nil {
			return err
		}
		for _, topic := range topics.Topics {
			q.Topic = topic
			if err := r.subtopics(ctx, q); err != nil {
				return err
			}
		}
		q.Topic = ""
	}
	r.walked[w] = true
	return nil
}

func (r *resolver) subtopics(ctx context.Context, q client.CurriculumQuery) error {
	cur, err := r.c.Curriculum(ctx, q)
	if err != nil {
		return err
	}
	for _, e := range cur.Subtopics {
		if e.Key == "" {
			continue
		}
		if r.found[e.Key] == nil {
			r.found[e.Key] = map[boardGrade]place{}
		}
		r.found[e.Key][boardGrade{q.Country, q.Board, q.Grade}] = place{GuidelineID: e.GuidelineID, Grade: q.Grade, Board: q.Board}
	}
	return nil
}
