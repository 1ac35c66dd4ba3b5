package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tutord/tutord/internal/tutor"
)

// record is what the engine has done so far in a session: which bank
// questions it asked, at which step, and how far it has explained each
// explain step. The state keeps no such account, so the engine writes it
// into its turn summaries, which the domain keeps in the session's
// timeline ("Turn 4: Step 2: asked like-1"), and reads it back from there
// and from the questions visible in the history window.
type record struct {
	asked  map[string]bool
	atStep map[int][]string // the question ids asked at each step, in order
	told   map[int]int      // the sentences of each explain step's content explained so far
	last   shown            // the piece explained most recently; zero when none
}

// shown is a piece of an explain step's content: sentences [from, to).
type shown struct{ step, from, to int }

func readRecord(s tutor.State, t *tutor.Topic) record {
	r := record{asked: map[string]bool{}, atStep: map[int][]string{}, told: map[int]int{}}
	for _, e := range s.SessionSummary.TurnTimeline {
		_, e, _ = strings.Cut(e, ": ") // "Turn 4: "
		m, body, ok := parseSummary(e)
		if !ok {
			continue
		}
		if m.part > 0 {
			// Written before explanations were tracked by sentence: part
			// p of the three-sentence pieces.
			st, _ := t.Step(m.step)
			m.from, m.to = partSentences(st, m.part)
		}
		if m.to > 0 {
			r.told[m.step] = max(r.told[m.step], m.to)
			r.last = shown{m.step, m.from, m.to}
		}
		if id, ok := askedID(body); ok {
			if _, inBank := t.Question(id); inBank {
				r.asked[id] = true
				r.atStep[m.step] = append(r.atStep[m.step], id)
			}
		}
	}
	// The timeline keeps the last 30 turns; the history shows what was
	// asked recently even when an older summary has dropped out.
	for _, m := range s.History {
		if m.Role != tutor.RoleTeacher {
			continue
		}
		for _, q := range t.Questions {
			if !r.asked[q.ID] && strings.Contains(m.Content, q.Text) {
				r.asked[q.ID] = true
			}
		}
	}
	if q := s.LastQuestion; q != nil && q.QuestionID != "" {
		r.asked[q.QuestionID] = true
	}
	return r
}

// summary is a turn summary in the form the record reads back: "Step 2:
// asked like-2; like-1 correct" or "Step 1, told 3-4/9: explained Like
// fractions" (sentences 3 to 4 of the step's 9). The parts a machine reads
// come first, so that cutting the summary to 80 characters cuts only the
// prose.
type summary struct {
	step     int
	from, to int // the sentences explained, [from, to); to is 0 when none
	total    int // the sentences of the step's content
	part     int // read only: "part p/n" of summaries written before "told"
	asked    string
	notes    []string
}

func (m summary) String() string {
	var b strings.Builder
	b.WriteString("Step ")
	b.WriteString(strconv.Itoa(m.step))
	if m.to > 0 {
		fmt.Fprintf(&b, ", told %d-%d/%d", m.from+1, m.to, m.total)
	}
	b.WriteString(": ")
	notes := m.notes
	if m.asked != "" {
		notes = append([]string{"asked " + m.asked}, notes...)
	}
	b.WriteString(strings.Join(notes, "; "))
	return b.String()
}

// parseSummary reads a summary written by summary.String, and the "part
// p/n" of earlier ones; notes stay in body.
func parseSummary(s string) (m summary, body string, ok bool) {
	head, body, ok := strings.Cut(s, ": ")
	if !ok {
		return summary{}, "", false
	}
	head, ok = strings.CutPrefix(head, "Step ")
	if !ok {
		return summary{}, "", false
	}
	head, detail, _ := strings.Cut(head, ", ")
	if m.step, ok = atoi(head); !ok {
		return summary{}, "", false
	}
	if span, ok := strings.CutPrefix(detail, "told "); ok {
		span, total, _ := strings.Cut(span, "/")
		a, b, _ := strings.Cut(span, "-")
		from, ok1 := atoi(a)
		to, ok2 := atoi(b)
		n, ok3 := atoi(total)
		if ok1 && ok2 && ok3 && from >= 1 && to >= from {
			m.from, m.to, m.total = from-1, to, n
		}
	}
	if part, ok := strings.CutPrefix(detail, "part "); ok {
		p, _, _ := strings.Cut(part, "/")
		if n, ok := atoi(p); ok && n > 0 {
			m.part = n
		}
	}
	return m, body, true
}

func atoi(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// askedID returns the question id of "asked <id>" at the start of a
// summary's body.
func askedID(body string) (string, bool) {
	rest, ok := strings.CutPrefix(body, "asked ")
	if !ok {
		return "", false
	}
	id, _, _ := strings.Cut(rest, ";")
	id = strings.TrimSpace(id)
	return id, id != ""
}
