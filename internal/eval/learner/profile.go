// Package learner plays the learner's side of an evaluation: simulated
// learners with the reference evaluation's personas, answering from the
// curriculum's question bank.
//
// A simulated learner is a rules-based player: its Profile gives the
// probabilities of a right answer, of "I don't know", of off-topic chatter
// and of questions back to the tutor, with a message length and a style.
// It is deterministic: the same seed and the same tutor messages give the
// same learner messages. A right answer is the bank's answer, phrased in
// the persona's style; a wrong one is the answer the question's recorded
// misconception leads to, or a near miss. Every phrasing is checked with
// the same answer evaluator tutord uses, so that "right" and "wrong" mean
// what the tutor will judge.
package learner

import (
	"fmt"
	"slices"
	"sort"
)

// Length is how much a learner writes.
type Length string

// The lengths, from a bare answer to a few sentences.
const (
	Terse  Length = "terse"  // the bare answer, "ok", "idk"
	Short  Length = "short"  // a few words: "It's 7/9"
	Medium Length = "medium" // a sentence: "I think the answer is 7/9."
	Long   Length = "long"   // a sentence and some reasoning around it
)

// Lengths lists the lengths in order.
var Lengths = []Length{Terse, Short, Medium, Long}

// Profile parameterises a simulated learner. Probabilities are from 0 to 1.
type Profile struct {
	// Correct is the probability of answering a question right.
	Correct float64 `yaml:"correct" json:"correct"`
	// Learning is added to Correct for each wrong attempt at the same
	// question: how much the tutor's hints help.
	Learning float64 `yaml:"learning" json:"learning"`
	// IDK is the probability of "I don't know" instead of an answer.
	IDK float64 `yaml:"idk" json:"idk"`
	// OffTopic is the probability of chatter away from the lesson.
	OffTopic float64 `yaml:"off_topic" json:"off_topic"`
	// Ask is the probability of asking the tutor something back: to say it
	// more simply, why, or what a word means.
	Ask float64 `yaml:"ask" json:"ask"`
	// Emoji is the probability of ending a message with an emoji.
	Emoji float64 `yaml:"emoji" json:"emoji"`
	// Length is how much the learner writes.
	Length Length `yaml:"length" json:"length"`
	// Confident learners state wrong answers as firmly as right ones.
	Confident bool `yaml:"confident" json:"confident"`
	// Simpler learners ask for a simpler explanation when a reply runs
	// longer than three sentences (with probability Ask).
	Simpler bool `yaml:"simpler" json:"simpler"`
	// NoticesRepeats learners say so when the tutor repeats itself.
	NoticesRepeats bool `yaml:"notices_repeats" json:"notices_repeats"`
	// Doubts is how many doubts the learner raises in a clarify_doubts
	// session before saying it has no more.
	Doubts int `yaml:"doubts" json:"doubts"`
}

// Personas are the reference evaluation's personas as profiles.
var Personas = map[string]Profile{
	// ace knows the material: right answers, full sentences.
	"ace": {Correct: 0.95, Learning: 0.05, Length: Medium, Doubts: 2},
	// average_student gets most answers right and sometimes needs a hint.
	"average_student": {Correct: 0.7, Learning: 0.15, IDK: 0.08, OffTopic: 0.03, Ask: 0.05, Emoji: 0.05, Length: Short, Doubts: 3},
	// struggler often does not know and learns from the hints.
	"struggler": {Correct: 0.3, Learning: 0.25, IDK: 0.25, Ask: 0.05, Length: Short, Doubts: 3},
	// confused_but_confident states misconceptions firmly.
	"confused_but_confident": {Correct: 0.35, Learning: 0.2, Confident: true, Length: Medium, Doubts: 2},
	// distractor drifts off topic and uses emoji.
	"distractor": {Correct: 0.65, Learning: 0.15, IDK: 0.05, OffTopic: 0.35, Emoji: 0.4, Length: Short, Doubts: 3},
	// quiet_one answers in a word or two.
	"quiet_one": {Correct: 0.65, Learning: 0.15, IDK: 0.15, Length: Terse, Doubts: 1},
	// repetition_detector notices when the tutor says the same thing twice.
	"repetition_detector": {Correct: 0.6, Learning: 0.15, IDK: 0.1, NoticesRepeats: true, Length: Short, Doubts: 2},
	// simplicity_seeker asks for simpler explanations of long replies.
	"simplicity_seeker": {Correct: 0.6, Learning: 0.15, IDK: 0.05, Ask: 0.4, Simpler: true, Length: Short, Doubts: 3},
}

// PersonaNames returns the personas' names, sorted.
func PersonaNames() []string {
	names := make([]string, 0, len(Personas))
	for n := range Personas {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Overrides change some parameters of a persona; nil fields keep the
// persona's value.
type Overrides struct {
	Correct        *float64 `yaml:"correct" json:"correct,omitempty"`
	Learning       *float64 `yaml:"learning" json:"learning,omitempty"`
	IDK            *float64 `yaml:"idk" json:"idk,omitempty"`
	OffTopic       *float64 `yaml:"off_topic" json:"off_topic,omitempty"`
	Ask            *float64 `yaml:"ask" json:"ask,omitempty"`
	Emoji          *float64 `yaml:"emoji" json:"emoji,omitempty"`
	Length         *Length  `yaml:"length" json:"length,omitempty"`
	Confident      *bool    `yaml:"confident" json:"confident,omitempty"`
	Simpler        *bool    `yaml:"simpler" json:"simpler,omitempty"`
	NoticesRepeats *bool    `yaml:"notices_repeats" json:"notices_repeats,omitempty"`
	Doubts         *int     `yaml:"doubts" json:"doubts,omitempty"`
}

// Apply returns p with the overrides applied.
func (o Overrides) Apply(p Profile) Profile {
	set := func(dst *float64, v *float64) {
		if v != nil {
			*dst = *v
		}
	}
	set(&p.Correct, o.Correct)
	set(&p.Learning, o.Learning)
	set(&p.IDK, o.IDK)
	set(&p.OffTopic, o.OffTopic)
	set(&p.Ask, o.Ask)
	set(&p.Emoji, o.Emoji)
	if o.Length != nil {
		p.Length = *o.Length
	}
	if o.Confident != nil {
		p.Confident = *o.Confident
	}
	if o.Simpler != nil {
		p.Simpler = *o.Simpler
	}
	if o.NoticesRepeats != nil {
		p.NoticesRepeats = *o.NoticesRepeats
	}
	if o.Doubts != nil {
		p.Doubts = *o.Doubts
	}
	return p
}

// Validate reports the first parameter out of range, naming its field.
func (p Profile) Validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"correct", p.Correct}, {"learning", p.Learning}, {"idk", p.IDK}, {"off_topic", p.OffTopic}, {"ask", p.Ask}, {"emoji", p.Emoji}} {
		if !(f.v >= 0 && f.v <= 1) {
			return fmt.Errorf("%s: must be a probability from 0 to 1, not %v", f.name, f.v)
		}
	}
	if p.IDK+p.OffTopic+p.Ask > 1 {
		return fmt.Errorf("idk + off_topic + ask must be at most 1, not %.2f", p.IDK+p.OffTopic+p.Ask)
	}
	if !slices.Contains(Lengths, p.Length) {
		return fmt.Errorf("length: must be one of terse, short, medium, long, not %q", p.Length)
	}
	if p.Doubts < 0 || p.Doubts > 20 {
		return fmt.Errorf("doubts: must be from 0 to 20, not %d", p.Doubts)
	}
	return nil
}
