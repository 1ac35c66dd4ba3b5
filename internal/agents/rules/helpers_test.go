package rules

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tutord/tutord/curricula"
	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/curriculum"
	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// sampleTopics returns the lessons of the shipped curriculum, keyed by the
// subtopic's full key, and the keys in curriculum order.
func sampleTopics(t testing.TB) (map[string]*tutor.Topic, []string) {
	t.Helper()
	files, err := curriculum.LoadFS(curricula.FS())
	if err != nil {
		t.Fatalf("the sample curriculum does not load: %v", err)
	}
	topics := map[string]*tutor.Topic{}
	var keys []string
	for _, f := range files {
		for _, g := range f.Guidelines() {
			tp := curriculum.TopicOf(curriculum.LessonMeta{
				GuidelineID: g.Key, PlanVersionID: g.Hash, Subject: g.Subject, Grade: g.Grade, TopicTitle: g.Topic.Title,
			}, g.Subtopic)
			topics[g.Key] = &tp
			keys = append(keys, g.Key)
		}
	}
	return topics, keys
}

func sampleTopic(t testing.TB, key string) *tutor.Topic {
	t.Helper()
	topics, _ := sampleTopics(t)
	tp, ok := topics[key]
	if !ok {
		t.Fatalf("the sample has no subtopic %s", key)
	}
	return tp
}

const (
	addingFractions = "mathematics/fractions/adding-and-subtracting-fractions"
	photosynthesis  = "science/nutrition-in-plants/photosynthesis"
)

var epoch = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

// exchange is one turn of a driven session.
type exchange struct {
	msg    string
	before tutor.State
	after  tutor.State
	eval   answer.Result
	guard  tutor.Guarded // the directives ApplyTurn computed for the final output
	reply  agents.TutorReply
	events []tutor.Event
}

func (x exchange) text() string { return x.reply.Output.Response }

// driver runs a session turn by turn as the orchestrator does: pre-check,
// evaluation of the pending question, guardrails, the tutor, ApplyTurn.
type driver struct {
	t      *testing.T
	topic  *tutor.Topic
	state  tutor.State
	tutor  *Tutor
	pre    *tutor.Prechecker
	safety *Safety
	log    []exchange
	// noGuard sends turns without guardrail directives, as a caller that
	// does not compute them would.
	noGuard bool
}

func newDriver(t *testing.T, topic *tutor.Topic, id string, mode tutor.Mode) *driver {
	t.Helper()
	s, err := tutor.NewState(tutor.NewSession{
		ID: id, Mode: mode, Topic: topic, Now: epoch,
		Student: tutor.StudentContext{Grade: topic.GradeLevel, StudentName: new("Asha Rao")},
	})
	if err != nil {
		t.Fatal(err)
	}
	return &driver{t: t, topic: topic, state: s, tutor: NewTutor(), pre: tutor.NewPrechecker(tutor.DefaultPrecheckConfig()), safety: newSafety(t)}
}

// say sends one learner message and checks the reply against the rules
// every reply keeps (see checkReply).
func (d *driver) say(msg string) exchange {
	d.t.Helper()
	return d.sayWith(msg, nil)
}

func (d *driver) sayWith(msg string, past []agents.PastDiscussion) exchange {
	d.t.Helper()
	now := epoch.Add(time.Duration(len(d.log)+1) * time.Minute)
	pre := d.pre.CheckIn(d.state.Mode, msg)
	var ev answer.Result
	if q := d.state.LastQuestion; q != nil && pre == tutor.PrecheckNone && d.state.Mode == tutor.ModeTeachMe {
		ev = answer.Evaluate(q.Expected(d.topic), msg)
	}
	o := tutor.Outcome{Now: now, StudentMessage: msg, Precheck: pre, Verdict: ev.Verdict, Output: &tutor.TutorOutput{}}
	turn := agents.Turn{State: d.state, Topic: d.topic, Message: msg, Precheck: pre, Evaluation: ev, PastDiscussions: past, Now: now}
	if !d.noGuard {
		turn.Guard = tutor.Guard(d.state, d.topic, o)
	}
	reply, c, err := d.tutor.Respond(context.Background(), turn)
	if err != nil {
		d.t.Fatalf("turn %d %q: %v", len(d.log)+1, msg, err)
	}
	if err := reply.Output.Validate(); err != nil {
		d.t.Fatalf("turn %d %q: %v", len(d.log)+1, msg, err)
	}
	if c.Provider != Provider || c.Agent != agents.NameMasterTutor || c.InputTokens != 0 || len(c.Output) == 0 {
		d.t.Errorf("turn %d: call record %+v", len(d.log)+1, c)
	}
	o.Output, o.Reply, o.NextQuestion = &reply.Output, reply.Output.Response, reply.NextQuestion
	x := exchange{msg: msg, before: d.state, eval: ev, guard: tutor.Guard(d.state, d.topic, o), reply: reply}
	x.after, x.events = tutor.ApplyTurn(d.state, d.topic, o)
	d.state = x.after
	d.log = append(d.log, x)
	checkReply(d.t, d.topic, x)
	if v := check(d.t, d.safety, "tutor", x.text(), d.state); !v.Safe {
		d.t.Errorf("turn %d: reply %q fails the safety check: %s", len(d.log), x.text(), v.Reasoning)
	}
	return x
}

// untilAnswering is until, answering each question asked rightly on the
// way.
func (d *driver) untilAnswering(n int, cond func() bool) {
	d.t.Helper()
	d.walk(n, cond, true)
}

// untilAsked answers each question rightly until the bank question id is
// the one waiting, and fails the test if it never is.
func (d *driver) untilAsked(id string) {
	d.t.Helper()
	d.walk(40, func() bool { bq := d.pending(); return bq != nil && bq.ID == id }, true)
}

// until says "ok" until cond holds, at most n times, and fails the test
// if it never does.
func (d *driver) until(n int, cond func() bool) {
	d.t.Helper()
	d.walk(n, cond, false)
}

func (d *driver) walk(n int, cond func() bool, answer bool) {
	d.t.Helper()
	for range n {
		if cond() {
			return
		}
		msg := "ok"
		if q := d.state.LastQuestion; q != nil && answer {
			msg = q.Expected(d.topic).Answer
		}
		d.say(msg)
	}
	if !cond() {
		d.t.Fatalf("condition not reached after %d turns; last reply %q", n, d.log[len(d.log)-1].text())
	}
}

func (d *driver) pending() *tutor.BankQuestion {
	if q := d.state.LastQuestion; q != nil {
		if bq, ok := d.topic.Question(q.QuestionID); ok {
			return &bq
		}
	}
	return nil
}

func (d *driver) transcript() []string {
	var out []string
	for _, x := range d.log {
		out = append(out, "learner: "+x.msg, "tutor: "+x.text())
	}
	return out
}

// internalLanguage is what a reply must never contain: the reference
// service's sanitizer pattern (CONTRACT §9.2) and tutord's additions.
var internalLanguage = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\b(?:the student'?s?|the message contains|the answer is incorrect because|assessment:|diagnostic:|the learner|student appears to|misconception detected|the response should)\b`),
	regexp.MustCompile(`(?i)\b(?:expected_answer|answer_correct|mastery_signal|mastery_updates|question_asked|question_concept|session_complete|advance_to_step|turn_summary|misconceptions_detected)\b`),
	regexp.MustCompile(`(?i)\b(?:as an ai|language model|the user|verdict|mastery|hint level|phase|not_attempt|cannot_check|rules engine)\b`),
	regexp.MustCompile(`[{}\[\]]|"\w+":`),
	regexp.MustCompile(`\*\*|(?m)^#|(?m)^\s*[-*] `),
	regexp.MustCompile(`(?i)\b(?:great job|incorrect|wrong)\b`),
	regexp.MustCompile(`[\x{1F300}-\x{1FAFF}\x{2600}-\x{27BF}]`),
}

// curriculumText returns the texts of a lesson that replies quote: the
// questions as asked, hints, worked solutions, explanations and the
// guideline's common misconceptions, and the glossary's definitions.
// Checks of the engine's own wording look at a reply without them.
func curriculumText(t *tutor.Topic) []string {
	var out []string
	for _, def := range glossary {
		out = append(out, def)
	}
	for _, q := range t.Questions {
		out = append(out, questionText(q), q.Text, oneLine(q.Solution), idea(q), lowerFirst(idea(q))) // "The key was to {idea}"
		out = append(out, q.Hints...)
	}
	for _, m := range t.Guideline.CommonMisconceptions {
		out = append(out, lowerFirst(strings.TrimRight(strings.TrimSpace(m), "."))+".")
	}
	for _, st := range t.Steps {
		out = append(out, explanation(st)...)
		for _, p := range paragraphs(st.Content) {
			out = append(out, sentences(p)...)
		}
	}
	return out
}

// ownWords returns the reply without the curriculum's text.
func ownWords(t *tutor.Topic, reply string) string {
	texts := curriculumText(t)
	// Longest first, so that a sentence inside a longer text goes with it.
	for changed := true; changed; {
		changed = false
		longest := ""
		for _, s := range texts {
			if s != "" && strings.Contains(reply, s) && len(s) > len(longest) {
				longest = s
			}
		}
		if longest != "" {
			reply = strings.ReplaceAll(reply, longest, " ")
			changed = true
		}
	}
	return reply
}

// checkReply checks the rules every teach_me and doubts reply keeps: no
// internal language, no more than three sentences of the engine's own,
// and no answer given away: the pending question's unless the guardrails
// allowed it, the new question's never.
func checkReply(t *testing.T, topic *tutor.Topic, x exchange) {
	t.Helper()
	reply := x.text()
	own := ownWords(topic, reply)
	for _, re := range internalLanguage {
		if m := re.FindString(own); m != "" {
			t.Errorf("turn %d: reply %q has %q (%s)", x.after.TurnCount, reply, m, re)
		}
	}
	n := 0
	for _, s := range sentences(own) {
		if strings.IndexFunc(s, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }) >= 0 {
			n++
		}
	}
	if n > 3 {
		t.Errorf("turn %d: reply %q has %d sentences of its own", x.after.TurnCount, reply, n)
	}
	if q := x.before.LastQuestion; q != nil && !x.guard.MayRevealAnswer {
		check := answer.LeakCheck{Expected: q.Expected(topic), Question: q.QuestionText, Dialogue: dialogueSince(x, q), Reply: reply}
		if leaks := answer.DetectLeaks(check); len(leaks) > 0 {
			t.Errorf("turn %d: reply %q gives away %q of %s (%s)", x.after.TurnCount, reply, leaks[0].Form, q.QuestionID, leaks[0].Reason)
		}
	}
	if nq := x.reply.NextQuestion; nq != nil {
		check := answer.LeakCheck{Expected: nq.Expected(), Question: nq.Text, Reply: reply}
		if leaks := answer.DetectLeaks(check); len(leaks) > 0 {
			t.Errorf("turn %d: reply %q gives away %q of the question it asks, %s", x.after.TurnCount, reply, leaks[0].Form, nq.ID)
		}
	}
}

func dialogueSince(x exchange, q *tutor.Question) []answer.Utterance {
	var d []answer.Utterance
	for _, m := range x.before.History {
		if m.Role == tutor.RoleStudent && (q.AskedAt == nil || !m.Timestamp.Time().Before(q.AskedAt.Time())) {
			d = append(d, answer.Utterance{Role: answer.RoleStudent, Text: m.Content})
		}
	}
	return append(d, answer.Utterance{Role: answer.RoleStudent, Text: x.msg})
}

// says reports whether text has one of the phrasings of move m, with any
// slots filled.
func says(text string, m move) bool {
	for _, p := range phrasebook[m] {
		pattern := regexp.QuoteMeta(p)
		pattern = strings.ReplaceAll(pattern, `\{name\}`, `(?:, \w+)?`)
		pattern = regexp.MustCompile(`\\\{\w+\\\}`).ReplaceAllString(pattern, `.+?`)
		if regexp.MustCompile(pattern).MatchString(text) {
			return true
		}
	}
	return false
}

// rightAnswer is what a learner who knows says.
func rightAnswer(q tutor.BankQuestion) string { return q.Answer }

// wrongAnswer is a wrong answer to q that the evaluator judges incorrect.
func wrongAnswer(t *testing.T, q tutor.BankQuestion) string {
	t.Helper()
	var candidates []string
	switch answer.InferKind(q.Answer) {
	case answer.KindChoice:
		candidates = []string{"A", "B", "C", "D"}
	case answer.KindBoolean:
		candidates = []string{"yes", "no"}
	default:
		candidates = []string{"997", "banana", "1/1000", "x = 997", "997 kg"}
	}
	if q.Kind == answer.KindText || q.Kind == answer.KindSet || q.Kind == answer.KindList {
		candidates = append([]string{"banana"}, candidates...)
	}
	for _, c := range candidates {
		if answer.Evaluate(q.Expected(), c).Verdict == answer.Incorrect {
			return c
		}
	}
	t.Fatalf("no wrong answer found for %s (%q)", q.ID, q.Answer)
	return ""
}

// lessonAt starts teach_me lessons on key (with different session ids,
// which vary the questions) until the first question asked is the bank
// question id, and returns the driver there.
func lessonAt(t *testing.T, key, id string) (*driver, tutor.BankQuestion) {
	t.Helper()
	for i := range 40 {
		d := newDriver(t, sampleTopic(t, key), fmt.Sprintf("at-%s-%d", id, i), tutor.ModeTeachMe)
		d.say("yes")
		d.until(15, func() bool { return d.state.LastQuestion != nil })
		if bq := d.pending(); bq != nil && bq.ID == id {
			return d, *bq
		}
	}
	t.Fatalf("no lesson on %s asked %s first", key, id)
	return nil, tutor.BankQuestion{}
}
