package learner

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/tutord/tutord/internal/curriculum"
	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// Bank is the curriculum a suite runs on, as the harness sees it: each
// subtopic's place in the curriculum, plan and question bank.
type Bank struct {
	subtopics map[string]*Subtopic
}

// Subtopic is one subtopic of the bank.
type Subtopic struct {
	Key        string // the full key, e.g. mathematics/fractions/adding-and-subtracting-fractions
	Country    string
	Board      string
	Grade      int
	Subject    string
	TopicTitle string
	// Topic is the lesson as tutord builds it from the file: plan steps and
	// bank questions with their defaults applied.
	Topic tutor.Topic
}

// NewBank returns the bank of files loaded with curriculum.LoadPaths or
// curriculum.LoadFS.
func NewBank(files []*curriculum.File) *Bank {
	b := &Bank{subtopics: map[string]*Subtopic{}}
	for _, f := range files {
		for _, g := range f.Guidelines() {
			b.subtopics[g.Key] = &Subtopic{
				Key: g.Key, Country: g.Country, Board: g.Board, Grade: g.Grade, Subject: g.Subject, TopicTitle: g.Topic.Title,
				Topic: curriculum.TopicOf(curriculum.LessonMeta{Subject: g.Subject, Grade: g.Grade, TopicTitle: g.Topic.Title}, g.Subtopic),
			}
		}
	}
	return b
}

// Subtopic returns the subtopic with the full key.
func (b *Bank) Subtopic(key string) (*Subtopic, bool) {
	if b == nil {
		return nil, false
	}
	s, ok := b.subtopics[key]
	return s, ok
}

// Question finds a bank question by id, or else by its text: the exact
// text, or the longest bank question that the text contains (a tutor may
// add words around the question).
func (s *Subtopic) Question(id, text string) (tutor.BankQuestion, bool) {
	if s == nil {
		return tutor.BankQuestion{}, false
	}
	if id != "" {
		for _, q := range s.Topic.Questions {
			if q.ID == id {
				return q, true
			}
		}
	}
	t := normalize(text)
	if t == "" {
		return tutor.BankQuestion{}, false
	}
	best, found := tutor.BankQuestion{}, false
	for _, q := range s.Topic.Questions {
		qt := normalize(q.Text)
		if qt == t {
			return q, true
		}
		if qt != "" && strings.Contains(t, qt) && len(qt) > len(normalize(best.Text)) {
			best, found = q, true
		}
	}
	return best, found
}

// normalize lowercases text and collapses its spaces.
func normalize(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// WrongAnswer returns a plausible wrong answer to q: the one its recorded
// misconception leads to (the bank's first misconception answer, or the
// value the misconception names: "Adds the denominators too and gets
// 7/18"), else a near miss (another option, the other truth value, a
// number off by one, another question's answer). others are the
// subtopic's other questions. It returns "" when it finds no answer the
// evaluator judges wrong.
func WrongAnswer(q tutor.BankQuestion, others []tutor.BankQuestion) string {
	exp := q.Expected()
	wrong := func(s string) bool {
		return strings.TrimSpace(s) != "" && answer.Evaluate(exp, s).Verdict == answer.Incorrect
	}
	for _, a := range q.MisconceptionAnswers {
		if wrong(a) {
			return a
		}
	}
	if numeric(q) {
		// A numeric misconception names its wrong value; for words, the
		// evaluator would take the whole description as the answer.
		if r := answer.Evaluate(exp, q.Misconception); r.Verdict == answer.Incorrect && r.Extracted != "" && wrong(r.Extracted) {
			return r.Extracted
		}
	}
	for _, c := range nearMisses(q) {
		if wrong(c) {
			return c
		}
	}
	for _, o := range others {
		if o.ID != q.ID && wrong(o.Answer) {
			return o.Answer
		}
	}
	return ""
}

// numeric reports whether q's answer is a number or an expression.
func numeric(q tutor.BankQuestion) bool {
	kind := q.Expected().KindOf()
	return kind.Numeric() || kind == answer.KindExpression
}

// nearMisses lists candidate wrong answers close to q's answer.
func nearMisses(q tutor.BankQuestion) []string {
	var out []string
	for i, opt := range q.Options {
		out = append(out, string(rune('A'+i)), opt)
	}
	switch strings.ToLower(strings.TrimSpace(q.Answer)) {
	case "yes":
		out = append(out, "no")
	case "no":
		out = append(out, "yes")
	case "true":
		out = append(out, "false")
	case "false":
		out = append(out, "true")
	}
	for _, d := range []int{1, 2, -1, 10} {
		if s, ok := bumpLastNumber(q.Answer, d); ok {
			out = append(out, s)
		}
	}
	return out
}

// bumpLastNumber adds d to the last run of digits in s: "7/9" → "7/10".
func bumpLastNumber(s string, d int) (string, bool) {
	end := strings.LastIndexFunc(s, unicode.IsDigit)
	if end < 0 {
		return "", false
	}
	start := end
	for start > 0 && unicode.IsDigit(rune(s[start-1])) {
		start--
	}
	n, err := strconv.Atoi(s[start : end+1])
	if err != nil || n+d < 0 {
		return "", false
	}
	return s[:start] + strconv.Itoa(n+d) + s[end+1:], true
}
