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
	found  map[string]place
	walked map[int]bool // grades walked in full
}

func newResolver(c *client.Client, bank *learner.Bank, country, board string) *resolver {
	return &resolver{c: c, bank: bank, country: country, board: board, found: map[string]place{}, walked: map[int]bool{}}
}

// resolve returns the place of the subtopic with the full key. grade, when
// not 0, is the grade to look in; else the bank's grade of the subtopic, or
// every grade.
func (r *resolver) resolve(ctx context.Context, key string, grade int) (place, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if p, ok := r.found[key]; ok {
		return p, nil
	}
	country, board := r.country, r.board
	if s, ok := r.bank.Subtopic(key); ok {
		country, board = s.Country, s.Board
		if grade == 0 || grade == s.Grade {
			if err := r.subtopics(ctx, client.CurriculumQuery{Country: country, Board: board, Grade: s.Grade, Subject: s.Subject, Topic: s.TopicTitle}); err != nil {
				return place{}, err
			}
			if p, ok := r.found[key]; ok {
				return p, nil
			}
		}
	}
	grades := []int{grade}
	if grade == 0 {
		grades = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	}
	for _, g := range grades {
		if err := r.walk(ctx, country, board, g); err != nil {
			return place{}, err
		}
		if p, ok := r.found[key]; ok {
			return p, nil
		}
	}
	return place{}, fmt.Errorf("subtopic %s is not in the curriculum of %s (%s, %s)", key, r.c.BaseURL, country, board)
}

// walk records every subtopic of a grade.
func (r *resolver) walk(ctx context.Context, country, board string, grade int) error {
	if r.walked[grade] {
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
	r.walked[grade] = true
	return nil
}

func (r *resolver) subtopics(ctx context.Context, q client.CurriculumQuery) error {
	cur, err := r.c.Curriculum(ctx, q)
	if err != nil {
		return err
	}
	for _, e := range cur.Subtopics {
		if e.Key != "" {
			r.found[e.Key] = place{GuidelineID: e.GuidelineID, Grade: q.Grade, Board: q.Board}
		}
	}
	return nil
}
