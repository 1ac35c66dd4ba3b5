package orchestrator

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// internalLanguage matches what a learner must never read: talk about "the
// student" in the third person and diagnostic labels (the reference's
// sanitizer patterns, with its colon quirk fixed), structured-output field
// names and JSON fragments, and talk of being an AI or of instructions.
// Word problems are left alone: "3/4 of the students walk", "she works as
// an assistant".
//
// Each pattern comes with lowercase fragments one of which every match of
// it contains: a reply that holds none of a pattern's fragments is clean of
// it without running the expression, which is most replies and most
// patterns.
var internalLanguage = []struct {
	re    *regexp.Regexp
	hints []string
}{
	{regexp.MustCompile(`(?i)\b(?:(?:the|this|that) (?:student|learner)(?:'s)?|the message contains|the answer is incorrect because|student appears to|misconception detected|the response should|the user)\b`),
		[]string{"student", "learner", "message contains", "incorrect because", "misconception detected", "response should", "the user"}},
	{regexp.MustCompile(`(?i)\b(?:assessment|diagnostic)\s*:`), []string{"assessment", "diagnostic"}},
	{regexp.MustCompile(`\b(?:expected_answer|answer_correct|mastery_signal|mastery_updates|mastery_estimates|misconceptions_detected|advance_to_step|question_asked|question_concept|session_complete|turn_summary|needs_remediation)\b`),
		[]string{"_"}},
	{regexp.MustCompile(`(?i)\bmastery\s*(?:score|estimate)s?\b|\bmastery\s*[:=]\s*\d|\bmastery\s+(?:is|was|level|now)\s+(?:now\s+|at\s+|about\s+)?\d`),
		[]string{"mastery"}},
	{regexp.MustCompile(`[{\[,]\s*"[A-Za-z_]+"\s*:|[{\[,]\s*['‘“][A-Za-z_]+['’”]\s?:`), []string{"\"", "':", "' :", "’:", "’ :", "”:", "” :"}},
	{regexp.MustCompile(`(?i)\bas an? (?:(?:ai|artificial intelligence|language model|(?:virtual|digital) assistant)\b|a\.i\.)|\b(?:i['’]?m|i am) (?:just |only )?(?:an? )?(?:(?:ai|artificial intelligence|chatbot|bot)\b|a\.i\.)|\blanguage model\b|\bsystem prompt\b`),
		[]string{"as a", "i'm ", "i’m ", "im ", "i am ", "language model", "system prompt"}},
}

// internalPatterns returns the expressions of internalLanguage that reply
// holds a fragment of, appended to dst.
func internalPatterns(dst []*regexp.Regexp, reply string) []*regexp.Regexp {
	low := strings.Map(foldForHints, reply)
	for _, p := range internalLanguage {
		if slices.ContainsFunc(p.hints, func(h string) bool { return strings.Contains(low, h) }) {
			dst = append(dst, p.re)
		}
	}
	return dst
}

// foldForHints lowers r as (?i) matches it: strings.ToLower keeps the long
// s (ſ), which (?i) takes for an s. It also makes every space that \s
// matches a plain one, as the fragments write it.
func foldForHints(r rune) rune {
	switch r {
	case 'ſ':
		return 's'
	case '\t', '\n', '\f', '\r':
		return ' '
	}
	return unicode.ToLower(r)
}

// problem is one sentence of a reply that must not be shown.
type problem struct {
	span   answer.Sentence
	reason string
	// pending marks a sentence that gives away the pending question's
	// answer before the reply may show it: the reply written instead must
	// keep it back, even in the explain phase the turn would reach.
	pending bool
}

// protected is an answer a reply must not give away, with its question.
type protected struct {
	expected answer.Expected
	question string
	// pending marks the answer of the pending question (see problem).
	pending bool
	// otherLanguage reports that the reply may be in a language other
	// than English (see answer.LeakCheck.OtherLanguage).
	otherLanguage bool
}

// findProblems returns the sentences of reply that hold internal language
// or give a protected answer away.
func findProblems(reply string, answers []protected, dialogue []answer.Utterance) []problem {
	var out []problem
	if patterns := internalPatterns(make([]*regexp.Regexp, 0, len(internalLanguage)), reply); len(patterns) > 0 {
		for _, sent := range answer.SplitSentences(reply) {
			if slices.ContainsFunc(patterns, func(re *regexp.Regexp) bool { return re.MatchString(sent.Text) }) {
				out = append(out, problem{span: sent, reason: reasonInternal})
			}
		}
	}
	// The questions the reply asks may be quoted as they are.
	quoted := make([]string, len(answers))
	for i, p := range answers {
		quoted[i] = p.question
	}
	for _, p := range answers {
		for _, l := range answer.DetectLeaks(answer.LeakCheck{Expected: p.expected, Question: p.question, Dialogue: dialogue, Reply: reply, Quoted: quoted, OtherLanguage: p.otherLanguage}) {
			out = append(out, problem{span: l.Sentence, reason: reasonLeak + " (" + l.Reason + ")", pending: p.pending})
		}
	}
	return out
}

// protectedAnswers lists the answers this turn's reply must not reveal:
// the pending question's, until the learner has given it or the explain
// phase allows it, the exam question that stands (the tutor speaks in an
// exam only to ask which of two answers the learner means), and that of
// any new question the reply asks. The pending answer may be shown only
// when the guardrails allow it both before the tutor's move (turn.Guard)
// and with it: a right intermediate step (tutor.TutorOutput.RightStep) is
// no wrong attempt, so it never leads to the explain phase.
func protectedAnswers(turn agents.Turn, out *tutor.Outcome) []protected {
	var ps []protected
	s, t := turn.State, turn.Topic
	if s.Mode == tutor.ModeTeachMe && s.LastQuestion != nil && !(turn.Guard.MayRevealAnswer && tutor.Guard(s, t, *out).MayRevealAnswer) {
		ps = append(ps, protected{expected: s.LastQuestion.Expected(t), question: s.LastQuestion.QuestionText, pending: true})
	}
	if s.Mode == tutor.ModeExam && !s.ExamFinished && s.ExamCurrentIdx < len(s.ExamQuestions) {
		q := s.ExamQuestions[s.ExamCurrentIdx]
		ps = append(ps, protected{expected: q.Expected(t), question: q.QuestionText})
	}
	switch {
	case out.NextQuestion != nil:
		ps = append(ps, protected{expected: out.NextQuestion.Expected(), question: out.NextQuestion.Text})
	case out.Output != nil && out.Output.QuestionAsked != nil && out.Output.ExpectedAnswer != nil && strings.TrimSpace(*out.Output.ExpectedAnswer) != "":
		// The value the question will be judged against, as the domain
		// keeps it ("16" of "Double 8 is 16.").
		if exp := answer.StatedValue(*out.Output.ExpectedAnswer); s.LastQuestion == nil || s.LastQuestion.ExpectedAnswer != exp {
			ps = append(ps, protected{expected: answer.Expected{Answer: exp}, question: *out.Output.QuestionAsked})
		}
	}
	// A model writes in the learner's language when asked to, and says
	// "the answer is" in it.
	if !englishPreferred(s.StudentContext.Language) {
		for i := range ps {
			ps[i].otherLanguage = true
		}
	}
	return ps
}

// englishPreferred reports whether a learner's language preference ("",
// "en", "en-IN", "English") is English, which prompts then write in.
func englishPreferred(lang string) bool {
	code, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(lang)), "-")
	code, _, _ = strings.Cut(code, "_")
	return code == "" || code == "en" || code == "english"
}

func dialogue(s tutor.State, msg string) []answer.Utterance {
	d := make([]answer.Utterance, 0, len(s.History)+1)
	for _, m := range s.History {
		role := answer.RoleTutor
		if m.Role == tutor.RoleStudent {
			role = answer.RoleStudent
		}
		d = append(d, answer.Utterance{Role: role, Text: m.Content})
	}
	return append(d, answer.Utterance{Role: answer.RoleStudent, Text: msg})
}

// sanitize checks a reply for internal language, answer leaks and words
// that contradict the turn's move (see moveProblems). A tutor reply with
// problems is regenerated once with a corrective instruction;
// whatever still breaks a rule is replaced sentence by sentence with a safe
// sentence. The reference only logged such replies; tutord repairs them.
//
// A reply that is a JSON object, as a model may double-encode its answer,
// is read as its "response" text. When the route kept the tutor's words
// but not its move (an exam's hedge, where the question stands unjudged),
// a regenerated reply brings no move either. When a sentence that asked
// the turn's new question is replaced, the question is asked again after
// the reply, so that the learner sees the question their next message is
// checked against. A reply after the session ended loses the sentences
// instead (see drop): it must not invite more work.
func (r *run) sanitize(ctx context.Context, turn agents.Turn, out *tutor.Outcome, reply, writer string) string {
	canRegenerate := writer == agents.NameMasterTutor
	reply = unwrapJSON(reply)
	dl := dialogue(turn.State, turn.Message)
	problems := replyProblems(turn, out, reply, dl)
	if len(problems) == 0 {
		return reply
	}
	r.o.log.Warn("reply needs repair", "session_id", turn.State.SessionID, "turn_id", r.turnID, "problem", problems[0].reason)
	if canRegenerate {
		turn.Correction = correction(problems)
		if slices.ContainsFunc(problems, func(p problem) bool { return p.pending }) {
			// Only a reply that gave the pending answer away too early
			// is written again without it; one regenerated for other
			// reasons keeps the explain phase's solution.
			turn.Guard.MayRevealAnswer = false
		}
		start := time.Now()
		tr, call, err := r.set.Tutor.Respond(ctx, turn)
		r.log(call, start, "Regenerate: "+problems[0].reason)
		if err == nil {
			candidate := *out // the turn's verdict, pre-check and time, with the new move
			if out.Output != nil {
				candidate.Output, candidate.NextQuestion = &tr.Output, tr.NextQuestion
			}
			text := unwrapJSON(tr.Output.Response)
			again := replyProblems(turn, &candidate, text, dl)
			*out = candidate
			reply, problems = text, again
			if len(problems) == 0 {
				return reply
			}
		}
	}
	if writer == agents.NamePostCompletion {
		return drop(reply, problems, PostCompletionFallback)
	}
	reply, askedRemoved := redact(reply, problems)
	if q := askedQuestion(out); askedRemoved && q != "" && !strings.Contains(reply, q) {
		reply += "\n\n" + q
	}
	return reply
}

// askedQuestion returns the text of the question a turn's move asks, if any.
func askedQuestion(out *tutor.Outcome) string {
	switch {
	case out.NextQuestion != nil:
		return strings.TrimSpace(out.NextQuestion.Text)
	case out.Output != nil && out.Output.QuestionAsked != nil:
		return strings.TrimSpace(*out.Output.QuestionAsked)
	}
	return ""
}

// unwrapJSON returns the "response" text of a reply that is a JSON object
// holding one, bare or in a code fence; any other reply as it is.
func unwrapJSON(reply string) string {
	s := strings.TrimSpace(reply)
	if f, ok := strings.CutPrefix(s, "```"); ok {
		f = strings.TrimPrefix(f, "json")
		if body, ok := strings.CutSuffix(f, "```"); ok {
			s = strings.TrimSpace(body)
		}
	}
	if !strings.HasPrefix(s, "{") {
		return reply
	}
	var v struct {
		Response *string `json:"response"`
	}
	if err := json.Unmarshal([]byte(s), &v); err != nil || v.Response == nil || strings.TrimSpace(*v.Response) == "" {
		return reply
	}
	return strings.TrimSpace(*v.Response)
}

// Reasons a reply is not shown as written.
const (
	reasonInternal = "internal language"
	reasonLeak     = "reveals the answer" // followed by how
)

func correction(ps []problem) string {
	var b strings.Builder
	b.WriteString("Your previous reply broke a rule and was not shown. Write it again without: ")
	seen := map[string]bool{}
	for _, p := range ps {
		var what string
		switch {
		case strings.HasPrefix(p.reason, reasonLeak):
			what = "stating or hinting the answer value in any form (guide the learner to find it)"
		case p.reason == reasonInternal:
			what = "internal language (talking about the student in the third person, field names, JSON, being an AI)"
		default:
			what = moveCorrections[p.reason]
		}
		if seen[what] {
			continue
		}
		seen[what] = true
		if len(seen) > 1 {
			b.WriteString("; ")
		}
		b.WriteString(what)
	}
	b.WriteString(". Speak directly to the learner.")
	return b.String()
}

// safeSentence replaces a sentence that could not be shown.
const safeSentence = "Let's work it out together, one step at a time."

// replacements stand for a sentence that contradicted the turn's move,
// saying what the program decided: after a right answer, "let's work it
// out together" would read as another wrong one.
var replacements = map[string]string{
	reasonPraisesWrong: "Not quite yet.",
	reasonFaultsRight:  "That's right.",
	reasonEndsEarly:    "Let's keep going.",
}

// replacement returns the sentence that stands for one shown for reason.
func replacement(reason string) string {
	if r, ok := replacements[reason]; ok {
		return r
	}
	return safeSentence
}

// drop removes each problem sentence of a reply that teaches nothing (a
// welcome, a reply after the session ended), where a tutoring sentence in
// its place would invite more work; fallback when nothing is left.
func drop(reply string, ps []problem, fallback string) string {
	var b strings.Builder
	last := 0
	for _, sent := range answer.SplitSentences(reply) {
		if slices.ContainsFunc(ps, func(p problem) bool { return sent.Start < p.span.End && p.span.Start < sent.End }) {
			b.WriteString(reply[last:sent.Start])
			last = sent.End
		}
	}
	b.WriteString(reply[last:])
	out := strings.TrimSpace(strings.ReplaceAll(b.String(), "  ", " "))
	if out == "" {
		return fallback
	}
	return out
}

// redact replaces each problem sentence with the sentence its reason
// calls for (see replacement), each written once. It reports whether a
// replaced sentence was a question.
func redact(reply string, ps []problem) (string, bool) {
	var b strings.Builder
	last := 0
	written := map[string]bool{}
	question := false
	for _, sent := range answer.SplitSentences(reply) {
		i := slices.IndexFunc(ps, func(p problem) bool { return sent.Start < p.span.End && p.span.Start < sent.End })
		if i < 0 {
			continue
		}
		question = question || strings.Contains(sent.Text, "?")
		b.WriteString(reply[last:sent.Start])
		if r := replacement(ps[i].reason); !written[r] {
			b.WriteString(r)
			written[r] = true
		}
		last = sent.End
	}
	b.WriteString(reply[last:])
	out := strings.TrimSpace(strings.ReplaceAll(b.String(), "  ", " "))
	if out == "" {
		return safeSentence, question
	}
	return out, question
}
