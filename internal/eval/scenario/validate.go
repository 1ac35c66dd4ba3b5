package scenario

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/tutord/tutord/internal/eval/learner"
	"github.com/tutord/tutord/internal/yamldoc"
)

// MetricNames are the per-scenario metrics that expect.metrics may bound.
// The harness's report documents each.
var MetricNames = []string{
	"turns", "replies", "turns_to_complete", "questions_asked", "answers_correct", "answers_incorrect",
	"leaks_before_explain", "reveals", "sanitization_leaks", "replies_over_budget", "repeated_replies",
	"exam_score", "exam_percentage", "unsafe_turns", "unsafe_flagged", "safe_flagged",
	"conflicts", "error_frames", "resends", "latency_p50_ms", "latency_p95_ms", "latency_max_ms",
}

// Phases are the question phases a state may expect; none means no
// question is pending.
var Phases = []string{"asked", "probe", "hint", "explain", "none"}

// Results are the answer results a state may expect; none means the turn
// judged no answer.
var Results = []string{"correct", "partial", "incorrect", "none"}

var keyPattern = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*(?:/[a-z0-9]+(?:-[a-z0-9]+)*){2}$`)

// checker checks a decoded scenario.
type checker struct {
	d  *yamldoc.Decoder
	sc *Scenario
}

// errorf reports an issue with the field at path, unless the decoder has
// already reported that field or one that holds it.
func (c *checker) errorf(path, format string, args ...any) { c.d.Errorf(path, format, args...) }

func (c *checker) present(path string) bool { return c.d.Present(path) }

func oneOf[T ~string](c *checker, path string, v T, allowed ...T) {
	if v == "" || slices.Contains(allowed, v) {
		return
	}
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = string(a)
	}
	c.errorf(path, "must be one of %s, not %q", strings.Join(names, ", "), v)
}

func (c *checker) scenario() {
	sc := c.sc
	switch {
	case strings.TrimSpace(sc.Subtopic) == "":
		c.errorf("subtopic", "required: the subtopic's full key, like %q", "mathematics/fractions/adding-and-subtracting-fractions")
	case !keyPattern.MatchString(sc.Subtopic):
		c.errorf("subtopic", "%q is not a full subtopic key like %q", sc.Subtopic, "mathematics/fractions/adding-and-subtracting-fractions")
	}
	if c.present("grade") && (sc.Grade < 1 || sc.Grade > 12) {
		c.errorf("grade", "must be an integer from 1 to 12, not %d", sc.Grade)
	}
	oneOf(c, "mode", sc.Mode, Modes...)
	c.learner()
	if len(sc.Turns) == 0 && sc.Learner.Persona == "" {
		c.errorf("", "needs turns, a simulated learner (learner.persona), or both")
	}
	for i, t := range sc.Turns {
		c.turn(fmt.Sprintf("turns[%d]", i), t)
	}
	if e := sc.Expect; e != nil {
		c.state("expect.state", e.State)
		c.reply("expect.every_reply", e.EveryReply)
		c.reply("expect.some_reply", e.SomeReply)
		for _, name := range sortedKeys(e.Metrics) {
			p := "expect.metrics." + name
			if !slices.Contains(MetricNames, name) {
				c.errorf(p, "unknown metric; known metrics: %s", strings.Join(MetricNames, ", "))
				continue
			}
			high := inf
			if name == "exam_percentage" {
				high = 100
			}
			c.rangeWithin(p, e.Metrics[name], 0, high)
		}
	}
}

func (c *checker) learner() {
	l := c.sc.Learner
	if c.present("learner.age") && (l.Age < 3 || l.Age > 100) {
		c.errorf("learner.age", "must be from 3 to 100, not %d", l.Age)
	}
	if l.Persona == "" {
		for _, f := range []string{"traits", "seed", "max_turns", "after_complete"} {
			if c.present("learner." + f) {
				c.errorf("learner."+f, "needs a simulated learner: set learner.persona")
			}
		}
		return
	}
	p, ok := learner.Personas[l.Persona]
	if !ok {
		c.errorf("learner.persona", "unknown persona %q; known personas: %s", l.Persona, strings.Join(learner.PersonaNames(), ", "))
		return
	}
	if err := l.Traits.Apply(p).Validate(); err != nil {
		field, msg, _ := strings.Cut(err.Error(), ": ")
		if strings.Contains(field, " ") {
			field, msg = "", err.Error()
		}
		path := "learner.traits"
		if field != "" {
			path += "." + field
		}
		c.errorf(path, "%s", msg)
	}
	if l.MaxTurns < 0 || l.MaxTurns > 500 {
		c.errorf("learner.max_turns", "must be from 0 to 500, not %d", l.MaxTurns)
	}
	if l.AfterComplete < 0 || l.AfterComplete > 50 {
		c.errorf("learner.after_complete", "must be from 0 to 50, not %d", l.AfterComplete)
	}
}

func (c *checker) turn(p string, t Turn) {
	set := 0
	for _, f := range []string{"say", "answer", "action"} {
		if c.present(p + "." + f) {
			set++
		}
	}
	if set != 1 {
		c.errorf(p, "needs exactly one of say, answer and action")
		return
	}
	for _, f := range []struct{ name, v string }{{"say", t.Say}, {"answer", string(t.Answer)}, {"action", string(t.Action)}} {
		if c.present(p+"."+f.name) && strings.TrimSpace(f.v) == "" {
			c.errorf(p+"."+f.name, "must not be empty")
		}
	}
	oneOf(c, p+".answer", t.Answer, AnswerCorrect, AnswerWrong)
	oneOf(c, p+".action", t.Action, Actions...)
	if t.Unsafe && t.Action != "" {
		c.errorf(p+".unsafe", "marks a message; an action sends none")
	}
	e := t.Expect
	if e == nil {
		return
	}
	chat := t.Action == ""
	if !chat && e.Reply != nil {
		c.errorf(p+".expect.reply", "an action has no tutor reply to check")
	}
	switch {
	case c.present(p+".expect.error") && strings.TrimSpace(e.Error) == "":
		// Blank, it would read as no error frame expected: the opposite
		// of what was written.
		c.errorf(p+".expect.error", "must not be empty: leave it out when no error frame is expected")
	case !chat && e.Error != "":
		c.errorf(p+".expect.error", "only a message can be answered with an error frame")
	}
	if !chat && e.SafetyFlag != nil {
		c.errorf(p+".expect.safety_flag", "an action sends no message to flag")
	}
	if c.present(p+".expect.status") && !t.Action.REST() {
		c.errorf(p+".expect.status", "only REST actions (pause, resume, end_exam, end_clarify) have a status")
	} else if c.present(p+".expect.status") && (e.Status < 100 || e.Status > 599) {
		c.errorf(p+".expect.status", "must be an HTTP status from 100 to 599, not %d", e.Status)
	}
	c.reply(p+".expect.reply", e.Reply)
	c.state(p+".expect.state", e.State)
}

func (c *checker) reply(p string, r *ReplyExpect) {
	if r == nil {
		return
	}
	oneOf(c, p+".answer", r.Answer, Withheld, Revealed)
	if c.present(p+".max_sentences") && r.MaxSentences < 1 {
		c.errorf(p+".max_sentences", "must be at least 1, not %d", r.MaxSentences)
	}
	if r.MentionsName && c.sc.Learner.Name == "" {
		c.errorf(p+".mentions_name", "needs the learner's name: set learner.name")
	}
	if r.Matches != "" {
		if _, err := regexp.Compile(r.Matches); err != nil {
			c.errorf(p+".matches", "not a regular expression: %v", err)
		}
	}
	for i, s := range r.Contains {
		if strings.TrimSpace(s) == "" {
			c.errorf(fmt.Sprintf("%s.contains[%d]", p, i), "must not be empty")
		}
	}
	for i, s := range r.NotContains {
		if strings.TrimSpace(s) == "" {
			c.errorf(fmt.Sprintf("%s.not_contains[%d]", p, i), "must not be empty")
		}
	}
}

func (c *checker) state(p string, s *StateExpect) {
	if s == nil {
		return
	}
	c.noneIfBlank(p+".question_phase", &s.QuestionPhase)
	c.noneIfBlank(p+".last_answer_result", &s.LastAnswerResult)
	oneOf(c, p+".question_phase", s.QuestionPhase, Phases...)
	oneOf(c, p+".last_answer_result", s.LastAnswerResult, Results...)
	for _, f := range []struct {
		name      string
		r         *Range
		low, high float64
	}{
		{"current_step", s.CurrentStep, 1, inf}, {"coverage", s.Coverage, 0, 100}, {"exam_score", s.ExamScore, 0, inf},
		{"safety_flags", s.SafetyFlags, 0, inf}, {"turn_count", s.TurnCount, 0, inf},
	} {
		if f.r != nil {
			c.rangeWithin(p+"."+f.name, *f.r, f.low, f.high)
		}
	}
	for _, concept := range sortedKeys(s.Mastery) {
		r := s.Mastery[concept]
		c.rangeOK(p+".mastery."+concept, r)
		switch {
		case r.Contains(0) && r.Contains(1):
			c.errorf(p+".mastery."+concept, "every mastery is %s: bound it", r)
		case !r.meets(0, 1):
			msg := fmt.Sprintf("no mastery is %s: mastery is a fraction from 0 to 1", r)
			if pc := r.largest(); pc > 1 && pc <= 100 {
				msg += fmt.Sprintf(" (%g for %g%%)", pc/100, pc)
			}
			c.errorf(p+".mastery."+concept, "%s", msg)
		}
	}
	for i, concept := range s.ConceptsDiscussed {
		if strings.TrimSpace(concept) == "" {
			c.errorf(fmt.Sprintf("%s.concepts_discussed[%d]", p, i), "must not be empty")
		}
	}
}

// noneIfBlank reads a written but blank phase or result (null, ~ or
// nothing) as none: a state_update says "no question pending" and "no
// answer judged" with null, so an author copying it means none, not "check
// nothing".
func (c *checker) noneIfBlank(path string, v *string) {
	if c.present(path) && strings.TrimSpace(*v) == "" {
		*v = "none"
	}
}

func (c *checker) rangeOK(p string, r Range) {
	if msg := r.check(); msg != "" {
		c.errorf(p, "%s", msg)
	}
}

// rangeWithin checks a range on a value that lies from low to high (a
// count, a percentage): a range that holds none of those values, such as
// coverage above 100 or turns below 0, can never be met.
func (c *checker) rangeWithin(p string, r Range, low, high float64) {
	switch {
	case r.check() != "":
		c.rangeOK(p, r)
	case !r.meets(low, high) && high == inf:
		c.errorf(p, "no value is %s: it is at least %g", r, low)
	case !r.meets(low, high):
		c.errorf(p, "no value is %s: it is from %g to %g", r, low, high)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
