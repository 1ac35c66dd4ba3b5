package rules

import (
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
	parts  map[int]int      // the last part explained of each explain step
	last   [2]int           // the step and part explained most recently; zero when none
}

func readRecord(s tutor.State, t *tutor.Topic) record {
	r := record{asked: map[string]bool{}, atStep: map[int][]string{}, parts: map[int]int{}}
	for _, e := range s.SessionSummary.TurnTimeline {
		_, e, _ = strings.Cut(e, ": ") // "Turn 4: "
		step, part, body, ok := parseSummary(e)
		if !ok {
			continue
		}
		if part > 0 {
			r.parts[step] = max(r.parts[step], part)
			r.last = [2]int{step, part}
		}
		if id, ok := askedID(body); ok {
			if _, inBank := t.Question(id); inBank {
				r.asked[id] = true
				r.atStep[step] = append(r.atStep[step], id)
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
// asked like-2; like-1 correct" or "Step 1, part 2/3: explained Like
// fractions". The parts a machine reads come first, so that cutting the
// summary to 80 characters cuts only the prose.
type summary struct {
	step, part, parts int
	asked             string
	notes             []string
}

func (m summary) String() string {
	var b strings.Builder
	b.WriteString("Step ")
	b.WriteString(strconv.Itoa(m.step))
	if m.part > 0 {
		b.WriteString(", part " + strconv.Itoa(m.part) + "/" + strconv.Itoa(m.parts))
	}
	b.WriteString(": ")
	notes := m.notes
	if m.asked != "" {
		notes = append([]string{"asked " + m.asked}, notes...)
	}
	b.WriteString(strings.Join(notes, "; "))
	return b.String()
}

// parseSummary reads a summary written by summary.String.
func parseSummary(s string) (step, part int, body string, ok bool) {
	head, body, ok := strings.Cut(s, ": ")
	if !ok {
		return 0, 0, "", false
	}
	head, ok = strings.CutPrefix(head, "Step ")
	if !ok {
		return 0, 0, "", false
	}
	head, partText, hasPart := strings.Cut(head, ", part ")
	step, err := strconv.Atoi(head)
	if err != nil {
		return 0, 0, "", false
	}
	if hasPart {
		k, _, _ := strings.Cut(partText, "/")
		if part, err = strconv.Atoi(k); err != nil {
			part = 0
		}
	}
	return step, part, body, true
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
