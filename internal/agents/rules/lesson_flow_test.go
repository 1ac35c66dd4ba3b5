package rules

import (
	"regexp"
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

const (
	multiplyingFractions = "mathematics/fractions/multiplying-fractions"
	dividingFractions    = "mathematics/fractions/dividing-fractions"
	statesOfMatter       = "science/states-of-matter/solids-liquids-and-gases"
)

// reachQuestion answers every question rightly (and says "ok" between
// them) until the bank question id is pending; it reports whether it got
// there within n turns.
func reachQuestion(d *driver, id string, n int) bool {
	d.t.Helper()
	for range n {
		if bq := d.pending(); bq != nil && bq.ID == id {
			return true
		}
		if d.state.IsComplete(d.topic) {
			return false
		}
		msg := "ok"
		if q := d.state.LastQuestion; q != nil {
			msg = q.Expected(d.topic).Answer
		}
		d.say(msg)
	}
	bq := d.pending()
	return bq != nil && bq.ID == id
}

// sharedSentences returns the sentences (longer than 25 bytes) that two
// replies share, leaving out the text of the question asked in both.
func sharedSentences(a, b, question string) []string {
	var out []string
	for _, s := range sentences(b) {
		if len(s) > 25 && strings.Contains(a, s) && !strings.Contains(question, s) {
			out = append(out, s)
		}
	}
	return out
}

// "skip", "skip this part please" between steps go past the explanation;
// they were read as "I don't know", and the part was explained again and
// again: the lesson never went on.
func TestSkipBetweenSteps(t *testing.T) {
	for _, msg := range []string{"skip this", "skip", "skip this part please", "I know this already, skip"} {
		t.Run(msg, func(t *testing.T) {
			tp := sampleTopic(t, addingFractions)
			d := newDriver(t, tp, "flow-skip", tutor.ModeTeachMe)
			first := d.say("ok").text() // the first piece of step 1
			opening := sentences(first)[0]
			repeats := 0
			for range 6 {
				x := d.say(msg)
				if strings.Contains(x.text(), opening) {
					repeats++
				}
			}
			if repeats > 0 {
				t.Errorf("%q: the piece the learner asked to skip was shown again %d times in 6 replies; transcript:\n%s",
					msg, repeats, strings.Join(d.transcript(), "\n"))
			}
			if d.state.LastQuestion == nil && d.state.CurrentStep == 1 {
				t.Errorf("%q six times: the lesson has not moved on at all (still step 1, no question)", msg)
			}
		})
	}
}

// After the worked solution, a further wrong answer does not get the same
// solution again, word for word: the learner is asked for the answer, which
// the solution above gives. (The question stands: a learner who gets there
// after the solution is still judged right, as MathDial's learners often
// do.)
func TestWorkedSolutionIsNotRepeated(t *testing.T) {
	tp := sampleTopic(t, dividingFractions)
	d := newDriver(t, tp, "flow-wrong", tutor.ModeTeachMe)
	d.until(12, func() bool { return d.state.LastQuestion != nil })
	bq := d.pending()
	if bq == nil {
		t.Fatal("no bank question asked")
	}
	for range 11 {
		if q := d.pending(); q == nil || q.ID != bq.ID {
			break
		}
		d.say(wrongAnswer(t, *bq))
	}
	// The step back to another question on the same idea happens once per
	// step; look at the question pending now (the one stepped back to, or
	// the first) from its third miss on.
	for n := 1; n < len(d.log); n++ {
		a, b := d.log[n-1], d.log[n]
		if a.before.LastQuestion == nil || b.before.LastQuestion == nil || a.before.LastQuestion.QuestionID != b.before.LastQuestion.QuestionID {
			continue
		}
		if shared := sharedSentences(a.text(), b.text(), b.before.LastQuestion.QuestionText); len(shared) > 0 {
			t.Errorf("turns %d and %d (wrong answers to %s) repeat %q\n  %q\n  %q",
				n, n+1, b.before.LastQuestion.QuestionID, shared[0], a.text(), b.text())
			return
		}
	}
	// Keep answering the question pending now wrongly: the solution should
	// not come back in consecutive replies.
	id := d.state.LastQuestion.QuestionID
	q2, _ := tp.Question(id)
	start := len(d.log)
	for range 6 {
		if d.state.LastQuestion == nil || d.state.LastQuestion.QuestionID != id {
			break
		}
		d.say(wrongAnswer(t, q2))
	}
	for n := start + 1; n < len(d.log); n++ {
		if shared := sharedSentences(d.log[n-1].text(), d.log[n].text(), q2.Text); len(shared) > 0 {
			t.Errorf("consecutive replies to wrong answers on %s repeat the worked solution %q:\n  %q\n  %q",
				id, shared[0], d.log[n-1].text(), d.log[n].text())
			return
		}
	}
}

// The easier question a stuck learner is stepped back to never states the
// answer of the one they are stuck on ("In which state does diffusion
// happen fastest?" to "what is this spreading called?").
func TestStepBackKeepsTheAnswer(t *testing.T) {
	cases := []struct{ key, session, id, msg string }{
		{statesOfMatter, "flow-stuck", "diffusion-1", "I don't know"},
		{multiplyingFractions, "flow-stuck-2", "mixed-2", "I don't know"},
	}
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			tp := sampleTopic(t, c.key)
			d := newDriver(t, tp, c.session, tutor.ModeTeachMe)
			if !reachQuestion(d, c.id, 40) {
				t.Fatalf("%s is not asked in this session", c.id)
			}
			bq := *d.pending()
			for range 4 {
				if p := d.pending(); p == nil || p.ID != c.id {
					break
				}
				x := d.say(c.msg)
				if x.reply.NextQuestion == nil || x.reply.NextQuestion.ID == c.id {
					continue
				}
				leaks := answer.DetectLeaks(answer.LeakCheck{Expected: bq.Expected(), Question: bq.Text, Reply: x.reply.NextQuestion.Text})
				if len(leaks) > 0 || strings.Contains(strings.ToLower(x.reply.NextQuestion.Text), strings.ToLower(bq.Answer)) {
					t.Errorf("stuck on %s (answer %q), the learner is stepped back to %s, whose text states it: %q",
						c.id, bq.Answer, x.reply.NextQuestion.ID, x.text())
				}
				return
			}
			// No step back (no easier question keeps the answer): nothing
			// was given away.
		})
	}
}

// The praise of a right answer does not repeat, as its key idea, the clue
// given in the reply just before.
func TestPraiseDoesNotRepeatTheClue(t *testing.T) {
	topics, keys := sampleTopics(t)
	found := 0
	for _, key := range keys {
		tp := topics[key]
		for _, q := range tp.Questions {
			d := newDriver(t, tp, "flow-praise", tutor.ModeTeachMe)
			if !reachQuestion(d, q.ID, 40) {
				continue
			}
			clue := d.say("can you give me a hint please, I am not sure how to start this one")
			if p := d.pending(); p == nil || p.ID != q.ID {
				continue
			}
			praise := d.say(q.Answer)
			if praise.reply.Output.AnswerCorrect == nil || !*praise.reply.Output.AnswerCorrect {
				continue
			}
			if shared := sharedSentences(clue.text(), praise.text(), q.Text); len(shared) > 0 {
				found++
				t.Errorf("%s %s: the praise repeats the clue just given, %q:\n  clue:   %q\n  praise: %q", key, q.ID, shared[0], clue.text(), praise.text())
			}
		}
	}
	t.Logf("%d questions where the praise repeats the clue", found)
}

// "why?" after a part was said again does not get the same sentences a
// third time.
func TestWhyAfterARepeat(t *testing.T) {
	tp := sampleTopic(t, addingFractions)
	d := newDriver(t, tp, "flow-why", tutor.ModeTeachMe)
	d.say("ok")
	again := d.say("no")
	if !says(again.text(), mAgain) {
		t.Fatalf("setup: \"no\" did not repeat the piece: %q", again.text())
	}
	why := d.say("why?")
	if shared := sharedSentences(again.text(), why.text(), ""); len(shared) > 0 {
		t.Errorf("\"why?\" after a repeat repeats the same piece again (%q):\n  %q\n  %q", shared[0], again.text(), why.text())
	}
}

// A question left at the end of the lesson is not left with "keep going"
// or "carry on" in the reply that ends the lesson.
func TestLeavingTheLastQuestion(t *testing.T) {
	topics, _ := sampleTopics(t)
	goOn := regexp.MustCompile(`(?i)\b(?:keep going|carry on)\b`)
	checked := 0
	for _, key := range []string{addingFractions, percentages} {
		tp := topics[key]
		for _, session := range []string{"flow-idk"} {
			d := newDriver(t, tp, session, tutor.ModeTeachMe)
			for range 80 {
				if d.state.IsComplete(tp) {
					break
				}
				msg := "ok"
				if d.state.LastQuestion != nil {
					msg = "I don't know"
				}
				d.say(msg)
			}
			last := d.log[len(d.log)-1]
			if !last.reply.Output.SessionComplete || !says(last.text(), mLeave) {
				continue
			}
			checked++
			if goOn.MatchString(last.text()) {
				t.Errorf("%s (%s): the last reply says to keep going and ends the lesson: %q", key, session, last.text())
			}
		}
	}
	if checked == 0 {
		t.Fatal("no lesson ended on a question left")
	}
}

// The name in a phrasing of leaving a question reads as an address, not as
// the subject of what follows ("for now, Asha and keep going").
func TestLeaveWithTheName(t *testing.T) {
	for _, p := range phrasebook[mLeave] {
		filled := strings.ReplaceAll(p, "{name}", ", Asha")
		if regexp.MustCompile(`, Asha [a-z]`).MatchString(filled) {
			t.Errorf("mLeave phrasing reads %q: the name needs a closing comma", filled)
		}
	}
	// And in a lesson: a learner who always answers wrongly meets it.
	tp := sampleTopic(t, multiplyingFractions)
	d := newDriver(t, tp, "flow-wrong", tutor.ModeTeachMe)
	for range 80 {
		if d.state.IsComplete(tp) {
			break
		}
		msg := "ok"
		if bq := d.pending(); bq != nil {
			msg = wrongAnswer(t, *bq)
		}
		if x := d.say(msg); strings.Contains(x.text(), ", Asha and keep going") {
			t.Errorf("reply: %q", x.text())
			return
		}
	}
}

// "samajh nahi aaya yaar" ("I didn't understand") to a yes/no question
// whose answer is "no" is not praised as right.
func TestSamajhNahiIsNoAnswer(t *testing.T) {
	tp := sampleTopic(t, photosynthesis)
	d := newDriver(t, tp, "flow-stuck-2", tutor.ModeTeachMe)
	if !reachQuestion(d, "starch-3", 40) {
		t.Fatal("starch-3 is not asked")
	}
	for _, msg := range []string{"samajh nahi aaya yaar"} {
		x := d.say(msg)
		if c := x.reply.Output.AnswerCorrect; c != nil && *c || says(x.text(), mPraise) {
			t.Errorf("%q (\"I didn't understand\") to a yes/no question is praised as right: %q", msg, x.text())
		}
	}
}

// "samajh nahi aaya yaar" and a rude remark to a question with a word
// answer are not graded as wrong answers.
func TestNoAnswerIsNotAWrongAnswer(t *testing.T) {
	for _, msg := range []string{"samajh nahi aaya yaar", "this is so dumb, you are useless"} {
		t.Run(msg, func(t *testing.T) {
			tp := sampleTopic(t, photosynthesis)
			d := newDriver(t, tp, "flow-nonanswer", tutor.ModeTeachMe)
			if !reachQuestion(d, "leaf-1", 40) {
				t.Fatal("leaf-1 is not asked")
			}
			x := d.say(msg)
			if c := x.reply.Output.AnswerCorrect; c != nil && !*c {
				t.Errorf("%q is graded as a wrong answer (wrong attempts now %d): %q", msg, x.after.LastQuestion.WrongAttempts, x.text())
			}
		})
	}
}

// "I don't think it's carbon dioxide" is not praised as the answer
// carbon dioxide.
func TestDoubtedAnswerIsNotPraised(t *testing.T) {
	tp := sampleTopic(t, photosynthesis)
	for _, c := range []struct{ id, msg string }{{"raw-1", "I don't think it's carbon dioxide"}, {"leaf-1", "i don't think it is chlorophyll"}} {
		d := newDriver(t, tp, "flow-negated", tutor.ModeTeachMe)
		if !reachQuestion(d, c.id, 40) {
			t.Errorf("%s is not asked", c.id)
			continue
		}
		x := d.say(c.msg)
		if ac := x.reply.Output.AnswerCorrect; ac != nil && *ac {
			t.Errorf("%q is praised as right: %q", c.msg, x.text())
		}
	}
}
