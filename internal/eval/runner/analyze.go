package runner

import (
	"regexp"
	"strings"

	"github.com/tutord/tutord/internal/eval/learner"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// internalLanguage holds what a learner must never read, by name. The
// first is the reference's sanitization pattern verbatim (CONTRACT §9.2);
// the others catch what it misses: its "assessment:" alternatives only
// match when a word character follows the colon, and it knows nothing of
// field names, JSON or talk of being a model.
var internalLanguage = []struct {
	name string
	re   *regexp.Regexp
}{
	{"reference", regexp.MustCompile(`(?i)\b(?:the student'?s?|the message contains|the answer is incorrect because|assessment:|diagnostic:|the learner|student appears to|misconception detected|the response should)\b`)},
	{"label", regexp.MustCompile(`(?i)\b(?:assessment|diagnostic|evaluation|reasoning)\s*:`)},
	{"field", regexp.MustCompile(`\b(?:expected_answer|answer_correct|mastery_signal|mastery_updates|mastery_estimates|misconceptions_detected|advance_to_step|question_asked|question_concept|session_complete|turn_summary|needs_remediation|last_question)\b`)},
	{"json", regexp.MustCompile(`[{\[,]\s*"[A-Za-z_]+"\s*:`)},
	{"directive", regexp.MustCompile(`\b(?:PACING|STYLE)\s*:`)},
	{"model", regexp.MustCompile(`(?i)\bas an? (?:ai|language model)\b|\blanguage model\b|\bsystem prompt\b|\bmy instructions\b`)},
}

// internalMatches returns the names of the internal-language patterns the
// reply matches, with what matched.
func internalMatches(reply string) []string {
	var out []string
	for _, p := range internalLanguage {
		if m := p.re.FindString(reply); m != "" {
			out = append(out, p.name+": "+m)
		}
	}
	return out
}

// Pacing directives, after the reference's (CONTRACT §9.3, §9.4), as the
// harness can tell them from outside: the turn, the learner's messages and
// the mastery the state shows.
const (
	paceFirst      = "first_turn" // the first turn: short, one gauging question
	paceQuiet      = "quiet"      // a learner who writes five words or fewer
	paceSimplify   = "simplify"   // low mastery: short sentences, one or two ideas
	paceAccelerate = "accelerate" // high mastery: little scaffolding
	paceSteady     = "steady"
	paceExpressive = "expressive" // a learner who writes a lot: room to elaborate
)

// pacing returns the directive of a turn and the sentences it allows.
// turn is the learner's message count so far (this one included), said
// their messages, mastery the state before the turn.
func pacing(turn int, said []string, mastery map[string]float64) (string, int) {
	if turn <= 1 {
		return paceFirst, 3
	}
	words, n := 0, 0
	for i := len(said) - 1; i >= 0 && n < 5; i-- {
		words += len(strings.Fields(said[i]))
		n++
	}
	avgWords := float64(words) / float64(max(n, 1))
	sum, real := 0.0, false
	for _, v := range mastery {
		sum += v
		real = real || v > 0
	}
	avg := 0.0
	if len(mastery) > 0 {
		avg = sum / float64(len(mastery))
	}
	switch {
	case real && avg < 0.4:
		return paceSimplify, 4
	case avg >= 0.8:
		return paceAccelerate, 4
	case avgWords <= 5:
		return paceQuiet, 3
	case avgWords > 15:
		return paceExpressive, 7
	}
	return paceSteady, 5
}

// question is a question waiting for an answer, as the harness knows it.
type question struct {
	ref QuestionRef
	exp answer.Expected // Answer is "" when the harness does not know it
	// wrong is a plausible wrong answer ("" when unknown).
	wrong string
	// since is how many learner messages had been sent when it was first
	// seen pending: what the learner said after is no longer secret.
	since int
}

// same reports whether q and o are the same question.
func (q *question) same(o *question) bool {
	if q == nil || o == nil {
		return q == o
	}
	if q.ref.ID != "" || o.ref.ID != "" {
		return q.ref.ID == o.ref.ID
	}
	return q.ref.Text == o.ref.Text
}

// leaks returns the sentences of reply that give q's answer away, given
// what the learner said. The texts of the questions the turn is about
// (asked) are taken out of the reply first: asking a question gives nothing
// away, even when it names an answer among its choices ("Answer yes or
// no.", "B) condensation").
func leaks(q *question, reply string, said []string, asked ...*question) []answer.Leak {
	if q == nil || q.exp.Answer == "" || reply == "" {
		return nil
	}
	for _, a := range append(asked, q) {
		if a == nil {
			continue
		}
		if text := strings.TrimSpace(a.ref.Text); text != "" {
			reply = strings.ReplaceAll(reply, text, "")
		}
	}
	var d []answer.Utterance
	for _, s := range said[min(q.since, len(said)):] {
		d = append(d, answer.Utterance{Role: answer.RoleStudent, Text: s})
	}
	return answer.DetectLeaks(answer.LeakCheck{Expected: q.exp, Question: q.ref.Text, Dialogue: d, Reply: reply})
}

func toLeaks(q *question, found []answer.Leak, beforeExplain bool) []Leak {
	out := make([]Leak, len(found))
	for i, l := range found {
		name := q.ref.ID
		if name == "" {
			name = q.ref.Text
		}
		out[i] = Leak{Question: name, Answer: q.exp.Answer, Sentence: l.Sentence.Text, Form: l.Form, Reason: l.Reason, BeforeExplain: beforeExplain}
	}
	return out
}

// repeats reports whether reply says what an earlier one said.
func repeats(reply string, earlier []string) bool {
	for _, e := range earlier {
		if learner.Similarity(reply, e) >= 0.9 {
			return true
		}
	}
	return false
}
