package tutor

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
)

// Mastery rule constants.
const (
	// EMAAlpha smooths a tutor's mastery update when no answer was judged:
	// new = old + EMAAlpha × (update − old). It is the reference's constant.
	EMAAlpha = 0.4
	// TutorWeight is the weight of the tutor's update against the knowledge-
	// tracing estimate when an answer was judged: new = w × tutor + (1−w) × BKT.
	TutorWeight = 0.5
)

// ConceptScore is one concept's mastery estimate, in [0, 1].
type ConceptScore struct {
	Concept string
	Score   float64
}

// Mastery holds the per-concept mastery estimates in the order the concepts
// were added (the plan's order for teach_me). It is a slice rather than a
// map so that iteration, means and JSON are deterministic; it marshals as a
// JSON object, the reference's {concept: score}.
type Mastery []ConceptScore

// Get returns the estimate of a concept.
func (m Mastery) Get(concept string) (float64, bool) {
	for _, cs := range m {
		if cs.Concept == concept {
			return cs.Score, true
		}
	}
	return 0, false
}

// Mean returns the arithmetic mean of the estimates; 0 when there are none.
func (m Mastery) Mean() float64 {
	if len(m) == 0 {
		return 0
	}
	var sum float64
	for _, cs := range m {
		sum += cs.Score
	}
	return sum / float64(len(m))
}

// Map returns the estimates as a new map.
func (m Mastery) Map() map[string]float64 {
	out := make(map[string]float64, len(m))
	for _, cs := range m {
		out[cs.Concept] = cs.Score
	}
	return out
}

// set sets a concept's estimate, clamped to [0, 1], adding the concept at
// the end when it is new. The receiver must not share its array with
// another State (ApplyTurn works on a clone).
func (m *Mastery) set(concept string, score float64) {
	score = clamp01(score)
	for i := range *m {
		if (*m)[i].Concept == concept {
			(*m)[i].Score = score
			return
		}
	}
	*m = append(*m, ConceptScore{Concept: concept, Score: score})
}

// MarshalJSON implements json.Marshaler: a JSON object in concept order.
func (m Mastery) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, cs := range m {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(cs.Concept)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(cs.Score)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON implements json.Unmarshaler. Keys keep the document's
// order; a repeated key keeps its first position and its last value, as a
// Python dict does.
func (m *Mastery) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		*m = nil
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return errors.New("mastery_estimates must be a JSON object")
	}
	out := Mastery{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		var v float64
		if err := dec.Decode(&v); err != nil {
			return err
		}
		out.set(key, v)
	}
	*m = out
	return nil
}

// Update returns the knowledge-tracing estimate after one observed answer:
// the posterior that the concept is known given the answer, then the chance
// to learn it at this opportunity.
func (b BKT) Update(p float64, correct bool) float64 {
	p = clamp01(p)
	var num, den float64
	if correct {
		num = p * (1 - b.Slip)
		den = num + (1-p)*b.Guess
	} else {
		num = p * b.Slip
		den = num + (1-p)*(1-b.Guess)
	}
	post := p
	if den > 0 {
		post = num / den
	}
	return clamp01(post + (1-post)*b.Learn)
}

// UpdatePartial returns the estimate after a partly correct answer: the
// mean of the updates for a right and a wrong answer (half evidence each way).
func (b BKT) UpdatePartial(p float64) float64 {
	return (b.Update(p, true) + b.Update(p, false)) / 2
}

// Level is a mastery display level.
type Level string

// The display levels, from the reference's score bands.
const (
	LevelMastered   Level = "mastered"   // ≥ 0.9
	LevelStrong     Level = "strong"     // ≥ 0.7
	LevelAdequate   Level = "adequate"   // ≥ 0.5
	LevelDeveloping Level = "developing" // ≥ 0.3
	LevelNeedsWork  Level = "needs_work" // below
)

// MasteryLevel returns the display level of a score.
func MasteryLevel(score float64) Level {
	switch {
	case score >= 0.9:
		return LevelMastered
	case score >= 0.7:
		return LevelStrong
	case score >= 0.5:
		return LevelAdequate
	case score >= 0.3:
		return LevelDeveloping
	default:
		return LevelNeedsWork
	}
}

// evidence is an answer whose correctness is known, for one concept.
type evidence struct {
	concept string
	result  Result
}

// applyMastery applies a teach_me turn's mastery updates. The judged answer
// (if any) moves its concept by knowledge tracing, blended with the tutor's
// update for that concept; the tutor's other updates are smoothed. Updates
// arrive guarded: known plan concepts only, scores in [0, 1].
func applyMastery(n *State, t *Topic, updates []MasteryUpdate, ev *evidence) []Event {
	var events []Event
	b := t.BKTParams()
	traced := func(old float64) float64 {
		if old == 0 {
			// A concept at exactly 0 has never shown anything: start from the
			// prior rather than from certainty that it is unknown.
			old = b.Prior
		}
		switch ev.result {
		case ResultCorrect:
			return b.Update(old, true)
		case ResultPartial:
			return b.UpdatePartial(old)
		default:
			return b.Update(old, false)
		}
	}
	if ev != nil && !t.HasConcept(ev.concept) {
		ev = nil
	}
	usedEvidence := false
	for i, u := range updates {
		if laterUpdate(updates[i+1:], u.Concept) {
			continue // the reference overwrote in order: the last update wins
		}
		old, _ := n.MasteryEstimates.Get(u.Concept)
		var v float64
		if ev != nil && u.Concept == ev.concept {
			t := traced(old)
			v = evidenced(ev.result, old, TutorWeight*u.Score+(1-TutorWeight)*t, t)
			usedEvidence = true
		} else {
			v = old + EMAAlpha*(u.Score-old)
		}
		n.MasteryEstimates.set(u.Concept, v)
		events = append(events, MasteryUpdated{Concept: u.Concept, From: old, To: clamp01(v), Evidence: ev != nil && u.Concept == ev.concept})
	}
	if ev != nil && !usedEvidence {
		old, _ := n.MasteryEstimates.Get(ev.concept)
		t := traced(old)
		v := evidenced(ev.result, old, t, t)
		n.MasteryEstimates.set(ev.concept, v)
		events = append(events, MasteryUpdated{Concept: ev.concept, From: old, To: v, Evidence: true})
	}
	return events
}

// evidenced keeps a judged answer's update v on the side of its evidence:
// a wrong answer never raises the concept's estimate old, nor leaves it
// above knowledge tracing's value traced (a tutor's 0.3 would lift a new
// concept above its prior; a concept still at 0 stays there), and a right
// one never lowers it.
func evidenced(r Result, old, v, traced float64) float64 {
	switch r {
	case ResultIncorrect:
		return min(v, traced, old)
	case ResultCorrect:
		return max(v, old)
	}
	return v
}

func laterUpdate(rest []MasteryUpdate, concept string) bool {
	for _, u := range rest {
		if u.Concept == concept {
			return true
		}
	}
	return false
}

// clamp01 clamps x to [0, 1]; NaN becomes 0.
func clamp01(x float64) float64 {
	switch {
	case !(x > 0): // also NaN
		return 0
	case x > 1:
		return 1
	}
	return x
}

// pyRound rounds like Python's round(x, digits): to the nearest decimal,
// ties to even, judged on the exact binary value (so 0.15 → 0.1). Formatting
// with strconv rounds the same way.
func pyRound(x float64, digits int) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	var buf [32]byte
	v, err := strconv.ParseFloat(string(strconv.AppendFloat(buf[:0], x, 'f', digits, 64)), 64)
	if err != nil {
		return x
	}
	return v
}
