package rules

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// rank orders difficulties from easy to hard; an unset difficulty counts
// as medium, as the domain treats it.
func rank(d tutor.Difficulty) int {
	switch d {
	case tutor.Easy:
		return 0
	case tutor.Hard:
		return 2
	}
	return 1
}

// candidate is a bank question with the keys that order the choice.
type candidate struct {
	q     tutor.BankQuestion
	asked bool
	keys  []int
	tie   uint64
}

// choose returns the first bank question that keep accepts, ordered by:
// not yet asked in the session, then the keys that key returns (smallest
// first), then a hash of the session id, salt and question id. The hash
// varies the choice between sessions; nothing varies it between reruns.
func choose(t *tutor.Topic, r record, session, salt string, keep func(tutor.BankQuestion) bool, key func(tutor.BankQuestion) []int) (tutor.BankQuestion, bool) {
	var cs []candidate
	for _, q := range t.Questions {
		if keep(q) {
			cs = append(cs, candidate{q: q, asked: r.asked[q.ID], keys: key(q), tie: hash(session, salt, q.ID)})
		}
	}
	if len(cs) == 0 {
		return tutor.BankQuestion{}, false
	}
	best := slices.MinFunc(cs, func(a, b candidate) int {
		if a.asked != b.asked {
			if a.asked {
				return 1
			}
			return -1
		}
		if c := slices.Compare(a.keys, b.keys); c != 0 {
			return c
		}
		return cmp.Compare(a.tie, b.tie)
	})
	return best.q, true
}

// sameConcept reports whether a question checks concept c; plan concepts
// and question concepts are matched ignoring case and surrounding space,
// as the domain does.
func sameConcept(q tutor.BankQuestion, c string) bool {
	return strings.EqualFold(strings.TrimSpace(q.Concept), strings.TrimSpace(c))
}

// forStep chooses the question for a check or practice step: one on the
// step's concept, not asked before when possible, easiest first, varied
// between sessions by the session id and the step.
func forStep(t *tutor.Topic, r record, session string, st tutor.Step) (tutor.BankQuestion, bool) {
	return choose(t, r, session, "step "+strconv.Itoa(st.ID),
		func(q tutor.BankQuestion) bool { return sameConcept(q, st.Concept) },
		func(q tutor.BankQuestion) []int { return []int{rank(q.Difficulty)} })
}

// simpler chooses a question to step back to after repeated misses on q: on
// the same concept, one not asked yet, no harder than q when possible and
// the easiest such.
func simpler(t *tutor.Topic, r record, session string, q *tutor.Question) (tutor.BankQuestion, bool) {
	cur := 1
	if bq, ok := t.Question(q.QuestionID); ok {
		cur = rank(bq.Difficulty)
	}
	return choose(t, r, session, "simpler "+q.QuestionID,
		func(b tutor.BankQuestion) bool {
			return b.ID != q.QuestionID && !r.asked[b.ID] && sameConcept(b, q.Concept)
		},
		func(b tutor.BankQuestion) []int {
			harder := 0
			if rank(b.Difficulty) > cur {
				harder = 1
			}
			return []int{harder, rank(b.Difficulty)}
		})
}

// harder chooses a question for after the lesson: one not asked yet, on any
// concept, the hardest first.
func harder(t *tutor.Topic, r record, session string) (tutor.BankQuestion, bool) {
	return choose(t, r, session, "harder",
		func(q tutor.BankQuestion) bool { return !r.asked[q.ID] },
		func(q tutor.BankQuestion) []int { return []int{-rank(q.Difficulty)} })
}

// questionText is the question as the learner sees it: the bank text and,
// for a choice question whose text does not name its options, the options
// lettered A, B, C...
func questionText(q tutor.BankQuestion) string {
	text := strings.TrimSpace(q.Text)
	if len(q.Options) == 0 {
		return text
	}
	lower := strings.ToLower(text)
	named := true
	opts := make([]string, len(q.Options))
	for i, o := range q.Options {
		o = strings.TrimSpace(o)
		if !strings.Contains(lower, strings.ToLower(o)) {
			named = false
		}
		opts[i] = string(rune('A'+i%26)) + ") " + o
	}
	if named {
		return text
	}
	return text + " Is it " + joinOr(opts) + "?"
}

// joinOr joins items as "a, b or c".
func joinOr(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// answerName is how praise names a right answer: the option's text for a
// choice question, else the learner's own form when the evaluator found a
// short one, else the bank's answer when it is short; "" when the answer
// is too long to name in passing.
func answerName(q tutor.BankQuestion, res answer.Result) string {
	if i, ok := optionIndex(q, q.Answer); ok && len(q.Options) > 0 {
		if o := strings.TrimSpace(q.Options[i]); utf8.RuneCountInString(o) <= 40 {
			return o
		}
		return ""
	}
	// The learner's own form of the answer ("0.5" for 1/2, "5 metres")
	// unless it carries letters the answer does not have: a slip of
	// spelling ("chlorophyl") or a word that is no unit ("14 hai") is not
	// repeated back.
	x := echo(res.Extracted)
	if x != "" && res.Kind != answer.KindText && (hasLetter(q.Answer) || !hasLetter(x)) {
		return x
	}
	return echo(q.Answer)
}

func hasLetter(s string) bool {
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}

// optionIndex returns the option an answer names, by letter or by text.
func optionIndex(q tutor.BankQuestion, a string) (int, bool) {
	a = strings.TrimSpace(a)
	if len(a) == 1 {
		if i := int(strings.ToUpper(a)[0]) - 'A'; i >= 0 && i < len(q.Options) {
			return i, true
		}
	}
	for i, o := range q.Options {
		if strings.EqualFold(strings.TrimSpace(o), a) {
			return i, true
		}
	}
	return 0, false
}

// idea returns the idea behind a question's answer, for specific praise:
// the first sentence of its worked solution that explains in words rather
// than only calculating, short enough to say aloud, or else its first hint,
// which names the idea to use.
func idea(q tutor.BankQuestion) string {
	for _, s := range sentences(oneLine(q.Solution)) {
		n := 0
		for _, w := range words(s) {
			if len(w) >= 3 && !isDigits(w) {
				n++
			}
		}
		if n >= 4 && utf8.RuneCountInString(s) <= 160 {
			return s
		}
	}
	if len(q.Hints) > 0 && utf8.RuneCountInString(q.Hints[0]) <= 160 {
		return strings.TrimSpace(q.Hints[0])
	}
	return ""
}

// bankOf returns the bank question of a pending question, or one made from
// the pending question itself when it is not from the bank.
func bankOf(t *tutor.Topic, q *tutor.Question) tutor.BankQuestion {
	if bq, ok := t.Question(q.QuestionID); ok {
		return bq
	}
	return tutor.BankQuestion{
		ID: q.QuestionID, Text: q.QuestionText, Answer: q.ExpectedAnswer, Kind: q.AnswerKind,
		Concept: q.Concept, Hints: q.Hints,
	}
}

// hint returns a question's hint at level 1 or 2, or a general one when the
// question has none.
func hint(q tutor.BankQuestion, level int) string {
	level = min(max(level, 1), 2)
	if level <= len(q.Hints) {
		if h := strings.TrimSpace(q.Hints[level-1]); h != "" {
			return h
		}
	}
	return fallbackHints[level-1]
}

// solution returns a question's worked solution on one line, or a plain
// statement of its answer when it has none.
func solution(q tutor.BankQuestion) string {
	if s := oneLine(q.Solution); s != "" {
		return s
	}
	if i, ok := optionIndex(q, q.Answer); ok && len(q.Options) > 0 {
		return "The answer is " + string(rune('A'+i%26)) + ", " + strings.TrimSpace(q.Options[i]) + "."
	}
	return "The answer is " + strings.TrimSpace(q.Answer) + "."
}
