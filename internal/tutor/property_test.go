package tutor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tutord/tutord/internal/tutor/answer"
)

// TestProperties applies thousands of random turn sequences, including
// nonsense from a model, and checks the invariants after every step.
func TestProperties(t *testing.T) {
	sequences := 2000
	if testing.Short() {
		sequences = 200
	}
	rng := rand.New(rand.NewPCG(4, 2))
	pre := NewPrechecker(DefaultPrecheckConfig())
	for seq := range sequences {
		tp := randomTopic(rng)
		mode := []Mode{ModeTeachMe, ModeTeachMe, ModeClarify, ModeExam}[rng.IntN(4)]
		cfg := Config{}
		if rng.IntN(4) == 0 {
			cfg.TimeLimitSeconds = 25 * 60
		}
		s, err := NewState(NewSession{ID: fmt.Sprint("s", seq), Mode: mode, Topic: tp, Student: StudentContext{Grade: 1 + rng.IntN(12)},
			Config: cfg, ExamQuestions: examQuestions(1 + rng.IntN(6)), Now: t0})
		if err != nil {
			t.Fatal(err)
		}
		now := t0
		turns := 1 + rng.IntN(30)
		for turn := range turns {
			now = now.Add(time.Duration(rng.IntN(240)) * time.Second)
			before := s.Clone()
			beforeJSON, _ := json.Marshal(s)
			var next State
			var ev []Event
			op := "turn"
			switch k := rng.IntN(100); {
			case k < 2:
				op = "pause"
				next, _, _ = Pause(s, tp, now)
			case k < 4:
				op = "resume"
				next, _ = Resume(s, now)
			case k < 5:
				op = "end-exam"
				next, _, _ = EndExam(s, now)
			case k < 6:
				op = "end-clarify"
				next, _ = EndClarify(s, now)
			default:
				o := randomOutcome(rng, tp, s, pre, now)
				next, ev = ApplyTurn(s, tp, o)
			}
			where := fmt.Sprintf("sequence %d (%s, %d steps), turn %d (%s)", seq, mode, tp.TotalSteps(), turn, op)
			// JSON shows every field; a deep comparison now and then also
			// catches what JSON could hide.
			if turn%8 == 0 && !cmp.Equal(before, s) {
				t.Fatalf("%s: the input state changed (-before +after)\n%s", where, cmp.Diff(before, s))
			}
			if afterJSON, _ := json.Marshal(s); !bytes.Equal(beforeJSON, afterJSON) {
				t.Fatalf("%s: the input state's JSON changed", where)
			}
			checkInvariants(t, where, s, next, tp, ev, turn%8 == 0)
			s = next
		}
	}
}

func checkInvariants(t *testing.T, where string, prev, s State, tp *Topic, ev []Event, deep bool) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s: "+format, append([]any{where}, args...)...)
	}
	total := tp.TotalSteps()
	plan := tp.Concepts()
	for _, cs := range s.MasteryEstimates {
		if !(cs.Score >= 0 && cs.Score <= 1) {
			fail("mastery %q = %v", cs.Concept, cs.Score)
		}
		if s.Mode == ModeTeachMe && !slices.Contains(plan, cs.Concept) {
			fail("mastery of %q, outside the plan %v", cs.Concept, plan)
		}
	}
	if s.Mode != ModeTeachMe && len(s.MasteryEstimates) != 0 {
		fail("%s has mastery %v", s.Mode, s.MasteryEstimates)
	}
	if s.CurrentStep < 1 || s.CurrentStep > total+1 || s.CurrentStep < prev.CurrentStep {
		fail("current_step %d after %d (total %d)", s.CurrentStep, prev.CurrentStep, total)
	}
	for _, c := range s.ConceptsCovered {
		if !slices.Contains(plan, c) {
			fail("covered %q outside the plan %v", c, plan)
		}
	}
	if s.Mode == ModeTeachMe && s.IsComplete(tp) {
		if s.CurrentStep != total+1 {
			fail("complete on step %d of %d", s.CurrentStep, total)
		}
		for _, c := range plan {
			if !slices.Contains(s.ConceptsCovered, c) {
				fail("complete but %q not covered", c)
			}
		}
	}
	if _, ok := hasEvent[SessionCompleted](ev); ok && (prev.IsComplete(tp) || !s.IsComplete(tp)) {
		fail("SessionCompleted from complete=%v to complete=%v", prev.IsComplete(tp), s.IsComplete(tp))
	}
	var answered, withResult int
	for i, q := range s.ExamQuestions {
		if q.QuestionIdx != i {
			fail("exam question %d has index %d", i, q.QuestionIdx)
		}
		if q.Result != nil {
			withResult++
			if i >= s.ExamCurrentIdx {
				fail("question %d answered beyond the index %d", i, s.ExamCurrentIdx)
			}
		}
	}
	answered = s.ExamTotalCorrect + s.ExamTotalPartial + s.ExamTotalIncorrect
	if answered != withResult || answered != s.ExamCurrentIdx {
		fail("exam totals %d, results %d, index %d", answered, withResult, s.ExamCurrentIdx)
	}
	if s.ExamFinished && s.ExamFeedback == nil {
		fail("finished exam without feedback")
	}
	if s.Mode == ModeExam && s.LastAnswerResult != nil {
		fail("exam shows last_answer_result")
	}
	if len(s.SessionSummary.TurnTimeline) > TimelineCap || len(s.History) > HistoryWindow ||
		len(s.SafetyFlags) > maxSafetyFlags || len(s.Misconceptions) > maxMisconceptions || len(s.ConceptsDiscussed) > maxConceptsDiscussed {
		fail("a list outgrew its cap: timeline %d, history %d, flags %d, misconceptions %d, discussed %d",
			len(s.SessionSummary.TurnTimeline), len(s.History), len(s.SafetyFlags), len(s.Misconceptions), len(s.ConceptsDiscussed))
	}
	if q := s.LastQuestion; q != nil {
		if q.Phase != phaseFor(q.WrongAttempts) || len(q.PreviousStudentAnswers) > maxPreviousAnswers {
			fail("question phase %s after %d wrong attempts, %d previous answers", q.Phase, q.WrongAttempts, len(q.PreviousStudentAnswers))
		}
	}
	if s.AwaitingResponse != (s.LastQuestion != nil) {
		fail("awaiting_response %v with question %v", s.AwaitingResponse, s.LastQuestion)
	}
	if s.TurnCount < prev.TurnCount || s.TurnCount > prev.TurnCount+1 {
		fail("turn_count %d after %d", s.TurnCount, prev.TurnCount)
	}
	b, err := json.Marshal(s)
	if err != nil {
		fail("marshal: %v", err)
	}
	back, err := DecodeState(b)
	if err != nil {
		fail("decode: %v", err)
	}
	// Equal JSON after a round trip, and now and then a deep comparison.
	if b2, _ := json.Marshal(back); !bytes.Equal(b, b2) || (deep && !cmp.Equal(s, back)) {
		fail("JSON round trip (-state +decoded)\n%s", cmp.Diff(s, back))
	}
}

func randomTopic(rng *rand.Rand) *Topic {
	n := rng.IntN(9) // 0..8 steps, concepts may repeat
	cs := make([]string, n)
	for i := range cs {
		cs[i] = fmt.Sprint("k", rng.IntN(6))
	}
	return lesson(cs...)
}

var (
	messages = []string{"42", "41", "I don't know", "", "  ", "bye", "tell me a joke", "maybe 3/4", "ok", "why?",
		"I'm done, it's 12", "nahi pata", strings.Repeat("long answer ", 40), "done"}
	verdicts = []answer.Verdict{"", "", answer.Correct, answer.Partial, answer.Incorrect, answer.NotAttempt, answer.CannotCheck}
	intents  = []Intent{IntentAnswer, IntentAnswerChange, IntentQuestion, IntentConfusion, IntentNovelStrategy, IntentOffTopic,
		IntentContinuation, IntentFollowup, IntentDone, "weird"}
	misconceptionPool = []string{"adds denominators", "Adds  Denominators", "bigger denominator is bigger", "", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9", "m10", "m11"}
)

func randomOutcome(rng *rand.Rand, tp *Topic, s State, pre *Prechecker, now time.Time) Outcome {
	pick := func(n int) int { return rng.IntN(n) }
	msg := messages[pick(len(messages))]
	o := Outcome{Now: now, StudentMessage: msg, Precheck: pre.Check(msg), Verdict: verdicts[pick(len(verdicts))]}
	if pick(3) > 0 {
		o.Reply = "reply"
	}
	if pick(20) == 0 {
		o.Unsafe = &Unsafe{Flag: []string{"", "violence"}[pick(2)], Warn: pick(2) == 0}
	}
	if pick(5) == 0 && len(tp.Questions) > 0 {
		o.NextQuestion = &tp.Questions[pick(len(tp.Questions))]
	}
	if pick(10) == 0 {
		return o // no tutor output
	}
	concepts := append(tp.Concepts(), "zebra", " K1 ", "")
	out := &TutorOutput{Response: "r", Intent: intents[pick(len(intents))], TurnSummary: strings.Repeat("s", pick(120))}
	switch pick(3) {
	case 0:
		out.AnswerCorrect = ptr(true)
	case 1:
		out.AnswerCorrect = ptr(false)
	}
	for range pick(3) {
		out.MisconceptionsDetected = append(out.MisconceptionsDetected, misconceptionPool[pick(len(misconceptionPool))])
	}
	if pick(2) == 0 {
		out.MasterySignal = ptr([]MasterySignal{SignalStrong, SignalAdequate, SignalNeedsRemediation, "bogus"}[pick(4)])
	}
	if pick(3) == 0 {
		out.AdvanceToStep = ptr(pick(tp.TotalSteps()+8) - 2)
	}
	for range pick(4) {
		out.MasteryUpdates = append(out.MasteryUpdates, MasteryUpdate{Concept: concepts[pick(len(concepts))], Score: rng.Float64()*2 - 0.5})
	}
	if pick(3) == 0 {
		out.QuestionAsked = ptr([]string{"What is 2+2?", "", "Why?"}[pick(3)])
		out.ExpectedAnswer = ptr([]string{"4", ""}[pick(2)])
		if pick(2) == 0 {
			out.QuestionConcept = ptr(concepts[pick(len(concepts))])
		}
	}
	out.SessionComplete = pick(5) == 0
	o.Output = out
	return o
}
