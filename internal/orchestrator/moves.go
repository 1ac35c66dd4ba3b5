package orchestrator

import (
	"regexp"
	"slices"
	"strings"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// Reasons a reply contradicts what the program decided this turn.
const (
	reasonPraisesWrong = "tells a wrong answer it is right"
	reasonFaultsRight  = "tells a right answer it is wrong"
	reasonEndsEarly    = "ends the lesson before its final step"
)

// moveCorrections say what a regenerated reply must not do again, by the
// reason the previous one was not shown.
var moveCorrections = map[string]string{
	reasonPraisesWrong: "telling the learner their answer is right: the program checked it and it is wrong (say so kindly, then help them find the answer)",
	reasonFaultsRight:  "telling the learner their answer is wrong: the program checked it and it is right (tell them so)",
	reasonEndsEarly:    "saying goodbye or that the lesson is over: the lesson goes on (keep teaching the current step)",
}

// replyProblems returns what keeps a tutor reply from being shown: the
// sentences findProblems finds, and those that contradict the turn's
// move as the guardrails settle it (see moveProblems).
func replyProblems(turn agents.Turn, out *tutor.Outcome, reply string, dl []answer.Utterance) []problem {
	return append(findProblems(reply, protectedAnswers(turn, out), dl), moveProblems(turn, out, reply)...)
}

// moveProblems returns the sentences of a teach_me reply that tell the
// learner the opposite of what the program decided: that a wrong answer is
// right or a right one wrong, when the evaluator's verdict decides it
// (DESIGN §1: program code decides correctness; the guardrails fix the
// state, but the learner reads the reply), or that the lesson is over
// when the guardrails kept it going.
func moveProblems(turn agents.Turn, out *tutor.Outcome, reply string) []problem {
	s := turn.State
	if s.Mode != tutor.ModeTeachMe || out.Output == nil {
		return nil
	}
	g := tutor.Guard(s, turn.Topic, *out)
	var ps []problem
	if s.LastQuestion != nil && g.Result != nil && out.Verdict.Known() {
		// The judgement opens a reply: only its first two sentences are
		// read, so that talk of mistakes in general further on is not.
		sents := answer.SplitSentences(reply)
		for _, sent := range sents[:min(len(sents), judgementSentences)] {
			switch {
			case out.Verdict == answer.Incorrect && judges(praise, sent.Text):
				ps = append(ps, problem{span: sent, reason: reasonPraisesWrong})
			case out.Verdict == answer.Correct && judges(fault, sent.Text):
				ps = append(ps, problem{span: sent, reason: reasonFaultsRight})
			}
		}
	}
	if out.Output.SessionComplete && !g.TimeUp && slices.Contains(g.Overrides, tutor.OverrideCompletionEarly) {
		// The learner who reads a goodbye leaves a lesson that goes on.
		for _, sent := range answer.SplitSentences(reply) {
			if judges(farewell, sent.Text) {
				ps = append(ps, problem{span: sent, reason: reasonEndsEarly})
			}
		}
	}
	return ps
}

// judgementSentences is how many opening sentences of a reply are read for
// its judgement of the learner's answer.
const judgementSentences = 2

// The judgements of an answer and the goodbyes, read in lower case with
// straight apostrophes. They are kept narrow: praise of effort ("Good
// try!", "Nice thinking") and of a part ("You're right that we need two
// 7s") is no judgement of the answer. Each runs only on a sentence that
// holds one of its cues: most sentences hold none, and the expressions
// cost a few microseconds each. "Try adding again" faults the answer only
// as a command, opening its sentence or clause: "Let's try doubling
// again" after a right answer invites more practice.
var (
	praise = phrases{regexp.MustCompile(`^(?:yes|yay|excellent|brilliant|fantastic|awesome)\s*!|^(?:correct|exactly|perfect|bingo)\s*[!.,]|` +
		`\b(?:that's|thats|that is|that was|it's|it is|you're|youre|you are|you were)\s+(?:absolutely\s+|exactly\s+|totally\s+|completely\s+|quite\s+|so\s+)?(?:right|correct)\s*(?:[!.,;]|$)|` +
		`\byou(?:'ve)? got it\s*(?:[!.,]|$)|\bwell done\s*(?:[!.,]|$)|\b(?:nailed it|spot on)\b`),
		[]string{"yes", "yay", "excellent", "brilliant", "fantastic", "awesome", "correct", "exactly", "perfect", "bingo", "right", "got it", "well done", "nailed it", "spot on"}}
	fault = phrases{regexp.MustCompile(`\bnot quite\b|^(?:nope|incorrect|wrong|oops)\b|` +
		`\b(?:that's|thats|that is|it's|it is|this is|you're|youre|you are)\s+(?:not\s+(?:quite\s+)?(?:right|correct)|incorrect|wrong)\b|` +
		`\bnot (?:the )?(?:right|correct) answer\b|\btry (?:it |that )?again\s*[.!]*$|(?:^|[,;:]\s*)try \w+ing (?:it |that )?again\s*[.!]*$`),
		[]string{"not", "nope", "incorrect", "wrong", "oops", "again"}}
	farewell = phrases{regexp.MustCompile(`\b(?:good ?bye|bye for now|see you (?:next time|later|soon|tomorrow)|until next time|till next time|` +
		`that's (?:all|it) for (?:today|now)|end of (?:our|the|this|today's) (?:lesson|session)|` +
		`(?:our|the|this|today's) (?:lesson|session) is (?:over|complete|finished|done)|we(?:'re| are) (?:all )?done for today)\b`),
		[]string{"bye", "see you", "next time", "for today", "for now", "end of", "lesson is", "session is", "done for"}}
)

// phrases is an expression and the cues, one of which a text it matches
// holds.
type phrases struct {
	re   *regexp.Regexp
	cues []string
}

// apostrophes straightens curly apostrophes.
var apostrophes = strings.NewReplacer("’", "'", "‘", "'")

// judges reports whether sentence says what p reads, other than as a
// question to check ("Let's see if it's right.").
func judges(p phrases, sentence string) bool {
	low := apostrophes.Replace(strings.ToLower(strings.TrimSpace(sentence)))
	if !slices.ContainsFunc(p.cues, func(c string) bool { return strings.Contains(low, c) }) {
		return false
	}
	for _, m := range p.re.FindAllStringIndex(low, -1) {
		before := strings.Fields(low[:m[0]])
		if len(before) > 0 && checkWords[strings.Trim(before[len(before)-1], ",")] {
			continue
		}
		return true
	}
	return false
}

// checkWords come before a judgement that is only to be checked: "check
// whether it's right", "see if that's correct".
var checkWords = map[string]bool{"if": true, "whether": true, "sure": true, "see": true, "check": true}
