package runner

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tutord/tutord/internal/eval/client"
	"github.com/tutord/tutord/internal/eval/scenario"
)

// fail records a failed expectation.
func (p *player) fail(at, check, want, got string) {
	p.res.Failures = append(p.res.Failures, Failure{At: at, Check: check, Want: want, Got: got})
}

// checkTurn checks a fixed turn against its expectations. A REST action
// must answer 200 and a message must not get an error frame unless the
// turn expects otherwise.
func (p *player) checkTurn(t *Turn, st scenario.Turn) {
	at := "turn " + strconv.Itoa(t.Index)
	e := st.Expect
	if e == nil {
		e = &scenario.Expect{}
	}
	if st.Action.REST() {
		want := e.Status
		if want == 0 {
			want = 200
		}
		if t.Status != want {
			p.fail(at, "status", strconv.Itoa(want), fmt.Sprintf("%d %s", t.Status, clip(string(t.Response), 200)))
		}
	}
	if t.Chat() {
		switch {
		case e.Error != "" && !strings.Contains(strings.ToLower(t.Error), strings.ToLower(e.Error)):
			p.fail(at, "error", "an error frame containing "+strconv.Quote(e.Error), describeError(t))
		case e.Error == "" && t.Error != "":
			p.fail(at, "error", "no error frame", strconv.Quote(t.Error))
		}
	}
	if e.SafetyFlag != nil && t.Flagged != *e.SafetyFlag {
		want, got := "a safety flag", "none"
		if !*e.SafetyFlag {
			want, got = "no safety flag", "a safety flag"
		}
		p.fail(at, "safety_flag", want, got)
	}
	for _, f := range replyFailures(t, e.Reply, p.sc.Learner.Name) {
		p.fail(at, "reply."+f.Check, f.Want, f.Got)
	}
	for _, f := range stateFailures(t.State, &p.doc, e.State) {
		p.fail(at, "state."+f.Check, f.Want, f.Got)
	}
}

// checkSimulated checks a simulated turn: a simulated learner expects no
// error frame, so one fails the turn. A frame that asks to wait and send
// again is the exception: it says the run went too fast, not that the
// tutor failed, and is counted among the resends.
func (p *player) checkSimulated(t *Turn) {
	if _, resend := waitFor(t.Error, 0); t.Error != "" && !resend {
		p.fail("turn "+strconv.Itoa(t.Index), "error", "no error frame", strconv.Quote(t.Error))
	}
}

func describeError(t *Turn) string {
	if t.Error == "" {
		return "no error frame (reply " + strconv.Quote(clip(t.Tutor, 120)) + ")"
	}
	return strconv.Quote(t.Error)
}

// checkSession checks the expectations on the whole session.
func (p *player) checkSession() {
	e := p.sc.Expect
	if e == nil {
		return
	}
	const at = "session"
	for _, f := range stateFailures(p.state, &p.doc, e.State) {
		p.fail(at, "state."+f.Check, f.Want, f.Got)
	}
	if e.EveryReply != nil {
		for i := range p.res.Turns {
			t := &p.res.Turns[i]
			if !t.Replied() {
				continue
			}
			for _, f := range replyFailures(t, e.EveryReply, p.sc.Learner.Name) {
				p.fail("turn "+strconv.Itoa(t.Index), "every_reply."+f.Check, f.Want, f.Got)
			}
		}
	}
	if e.SomeReply != nil {
		found, replies := false, 0
		for i := range p.res.Turns {
			t := &p.res.Turns[i]
			if t.Replied() {
				replies++
				found = found || len(replyFailures(t, e.SomeReply, p.sc.Learner.Name)) == 0
			}
		}
		if !found {
			p.fail(at, "some_reply", "a reply that "+describeReply(e.SomeReply), fmt.Sprintf("none of %d replies", replies))
		}
	}
	m := p.res.Metrics
	if e.Completed != nil && m.Completed != *e.Completed {
		p.fail(at, "completed", strconv.FormatBool(*e.Completed), fmt.Sprintf("%t after %d messages", m.Completed, m.Turns))
	}
	values := m.Values()
	for _, name := range sortedNames(e.Metrics) {
		r := e.Metrics[name]
		if v := values[name]; !r.Contains(v) {
			p.fail(at, "metrics."+name, r.String(), formatNumber(v))
		}
	}
}

// replyFailures checks a turn's reply. The failures' Check is the field.
func replyFailures(t *Turn, r *scenario.ReplyExpect, name string) []Failure {
	if r == nil {
		return nil
	}
	if !t.Replied() {
		return []Failure{{Check: "reply", Want: "a tutor reply", Got: describeError(t)}}
	}
	var out []Failure
	add := func(check, want, got string) { out = append(out, Failure{Check: check, Want: want, Got: got}) }
	reply := t.Tutor
	switch r.Answer {
	case scenario.Withheld:
		if len(t.Leaks) > 0 {
			l := t.Leaks[0]
			add("answer", "withheld", fmt.Sprintf("revealed %q (answer %s) in %q", l.Form, l.Answer, l.Sentence))
		}
	case scenario.Revealed:
		if t.Question == nil {
			add("answer", "revealed", "no question was waiting for an answer")
		} else if !slices.ContainsFunc(t.Leaks, func(l Leak) bool { return l.Question == nameOf(t.Question) }) {
			add("answer", "revealed (answer "+t.Question.Answer+")", "withheld in "+strconv.Quote(clip(reply, 200)))
		}
	}
	if r.MaxSentences > 0 && t.Sentences > r.MaxSentences {
		add("max_sentences", "at most "+strconv.Itoa(r.MaxSentences), fmt.Sprintf("%d in %q", t.Sentences, clip(reply, 200)))
	}
	if r.MentionsName && !mentions(reply, name) {
		add("mentions_name", strconv.Quote(firstName(name)), strconv.Quote(clip(reply, 200)))
	}
	if r.NoInternalLanguage && len(t.Internal) > 0 {
		add("no_internal_language", "none", strings.Join(t.Internal, "; "))
	}
	lower := strings.ToLower(reply)
	for _, s := range r.Contains {
		if !strings.Contains(lower, strings.ToLower(s)) {
			add("contains", strconv.Quote(s), strconv.Quote(clip(reply, 200)))
		}
	}
	for _, s := range r.NotContains {
		if strings.Contains(lower, strings.ToLower(s)) {
			add("not_contains", strconv.Quote(s), strconv.Quote(clip(reply, 200)))
		}
	}
	if r.Matches != "" {
		if re, err := regexp.Compile(r.Matches); err != nil || !re.MatchString(reply) {
			add("matches", "/"+r.Matches+"/", strconv.Quote(clip(reply, 200)))
		}
	}
	return out
}

func nameOf(q *QuestionRef) string {
	if q.ID != "" {
		return q.ID
	}
	return q.Text
}

// describeReply says in words what a reply expectation asks.
func describeReply(r *scenario.ReplyExpect) string {
	var parts []string
	if r.Answer != "" {
		parts = append(parts, "has the answer "+string(r.Answer))
	}
	if r.MaxSentences > 0 {
		parts = append(parts, "has at most "+strconv.Itoa(r.MaxSentences)+" sentences")
	}
	if r.MentionsName {
		parts = append(parts, "mentions the learner's name")
	}
	if r.NoInternalLanguage {
		parts = append(parts, "has no internal language")
	}
	for _, s := range r.Contains {
		parts = append(parts, "contains "+strconv.Quote(s))
	}
	for _, s := range r.NotContains {
		parts = append(parts, "does not contain "+strconv.Quote(s))
	}
	if r.Matches != "" {
		parts = append(parts, "matches /"+r.Matches+"/")
	}
	return strings.Join(parts, " and ")
}

// apostrophes makes a typographic apostrophe the typed one.
var apostrophes = strings.NewReplacer("’", "'")

// mentions reports whether text names the learner by first name: the name
// as a whole, hyphens and apostrophes included ("Anne-Marie", "D'Andre"),
// between characters that are not letters or digits.
func mentions(text, name string) bool {
	first := apostrophes.Replace(firstName(name))
	if first == "" {
		return false
	}
	re := regexp.MustCompile(`(?i)(?:^|[^\p{L}\p{N}])` + regexp.QuoteMeta(first) + `(?:$|[^\p{L}\p{N}])`)
	return re.MatchString(apostrophes.Replace(text))
}

func firstName(name string) string {
	if f := strings.Fields(name); len(f) > 0 {
		return f[0]
	}
	return ""
}

// stateFailures checks a state and document. The failures' Check is the
// field.
func stateFailures(s *client.State, d *client.Document, e *scenario.StateExpect) []Failure {
	if e == nil {
		return nil
	}
	if s == nil {
		return []Failure{{Check: "state", Want: "a state_update", Got: "none"}}
	}
	var out []Failure
	add := func(check, want, got string) { out = append(out, Failure{Check: check, Want: want, Got: got}) }
	inRange := func(check string, r *scenario.Range, v float64) {
		if r != nil && !r.Contains(v) {
			add(check, r.String(), formatNumber(v))
		}
	}
	boolean := func(check string, want *bool, got bool) {
		if want != nil && *want != got {
			add(check, strconv.FormatBool(*want), strconv.FormatBool(got))
		}
	}
	inRange("current_step", e.CurrentStep, float64(s.CurrentStep))
	if e.QuestionPhase != "" {
		if got := orNone(s.Phase()); got != e.QuestionPhase {
			add("question_phase", e.QuestionPhase, got)
		}
	}
	if e.LastAnswerResult != "" {
		if got := orNone(s.Result()); got != e.LastAnswerResult {
			add("last_answer_result", e.LastAnswerResult, got)
		}
	}
	boolean("is_complete", e.IsComplete, s.IsComplete)
	boolean("is_paused", e.IsPaused, s.IsPaused)
	for _, c := range sortedNames(e.Mastery) {
		r := e.Mastery[c]
		v, ok := s.MasteryEstimates[c]
		if !ok {
			add("mastery."+c, r.String(), "no such concept (concepts: "+strings.Join(sortedNames(s.MasteryEstimates), ", ")+")")
			continue
		}
		inRange("mastery."+c, &r, v)
	}
	inRange("coverage", e.Coverage, s.Coverage)
	for _, c := range e.ConceptsDiscussed {
		if !slices.ContainsFunc(s.ConceptsDiscussed, func(x string) bool { return strings.EqualFold(x, c) }) {
			add("concepts_discussed", "to include "+strconv.Quote(c), fmt.Sprintf("%q", s.ConceptsDiscussed))
		}
	}
	if d != nil {
		inRange("exam_score", e.ExamScore, float64(d.ExamTotalCorrect))
		boolean("exam_finished", e.ExamFinished, d.ExamFinished)
		inRange("safety_flags", e.SafetyFlags, float64(len(d.SafetyFlags)))
		inRange("turn_count", e.TurnCount, float64(d.TurnCount))
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func formatNumber(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "..."
	}
	return s
}

func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
