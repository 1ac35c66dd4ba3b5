package rules

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strconv"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// DefaultExamQuestions is the size of an exam when a request does not say.
const DefaultExamQuestions = 7

// ExamGenerator draws an exam's questions from the lesson's question bank.
// The zero value is ready to use and safe for concurrent use.
type ExamGenerator struct{}

// NewExamGenerator returns the rules engine's exam generator.
func NewExamGenerator() *ExamGenerator { return &ExamGenerator{} }

var _ agents.ExamGenerator = (*ExamGenerator)(nil)

// Generate picks min(r.Count, bank size) questions (DefaultExamQuestions
// when r.Count is not positive), at most tutor.MaxExamQuestions.
//
// Difficulty mix: round(30% × n) easy and round(20% × n) hard, rounding
// half away from zero, and the rest medium: 2/4/1 for 7 questions, 1/1/1
// for 3, 3/5/2 for 10. When the bank has too few questions of a difficulty
// the shortfall is filled from the nearest difficulty: medium for easy and
// hard, easy and then hard for medium. The questions spread over concepts
// and question types: each pick is the question whose concept, then type,
// has been picked least so far (hard and easy, the scarcer, pick first),
// ties broken by a hash of r.Seed and the question id. The same request
// always gets the same exam.
//
// Order: easy, then medium, then hard, so that an exam warms up before it
// gets hard, and a learner who ends early has met the easier questions.
// A choice question's text lists its options. It returns no questions when
// the topic has none; that is not an error.
func (*ExamGenerator) Generate(ctx context.Context, r agents.ExamRequest) ([]tutor.ExamQuestion, agents.Call, error) {
	if err := ctx.Err(); err != nil {
		return nil, agents.Call{Agent: agents.NameExamGenerator, Provider: Provider, Err: err}, err
	}
	n := r.Count
	if n <= 0 {
		n = DefaultExamQuestions
	}
	var bank []tutor.BankQuestion
	if r.Topic != nil {
		bank = r.Topic.Questions
	}
	picked := pickExam(bank, min(n, tutor.MaxExamQuestions), r.Seed)
	qs := make([]tutor.ExamQuestion, len(picked))
	for i, q := range picked {
		qs[i] = tutor.ExamQuestion{
			QuestionIdx: i, QuestionText: questionText(q), Concept: q.Concept, Difficulty: q.Difficulty,
			QuestionType: q.Type, ExpectedAnswer: q.Answer, QuestionID: q.ID, AnswerKind: q.Kind,
		}
		if qs[i].Difficulty == "" {
			qs[i].Difficulty = tutor.Medium
		}
	}
	return qs, call(agents.NameExamGenerator, qs), nil
}

// mix returns how many easy, medium and hard questions an exam of n
// questions asks for.
func mix(n int) [3]int {
	easy := int(math.Round(0.3 * float64(n)))
	hard := int(math.Round(0.2 * float64(n)))
	return [3]int{easy, n - easy - hard, hard}
}

// fillOrder is, for each difficulty, where a shortfall is filled from.
var fillOrder = [3][3]int{{0, 1, 2}, {1, 0, 2}, {2, 1, 0}}

// pickExam picks and orders n questions of bank, as Generate documents.
func pickExam(bank []tutor.BankQuestion, n int, seed string) []tutor.BankQuestion {
	n = min(n, len(bank))
	var pools [3][]tutor.BankQuestion
	for _, q := range bank {
		d := rank(q.Difficulty)
		pools[d] = append(pools[d], q)
	}
	for d := range pools {
		slices.SortFunc(pools[d], func(a, b tutor.BankQuestion) int {
			return cmp.Compare(hash(seed, a.ID), hash(seed, b.ID))
		})
	}
	want := mix(n)
	var got [3][]tutor.BankQuestion
	concepts, types := map[string]int{}, map[tutor.QuestionType]int{}
	take := func(from, into int) bool {
		pool := pools[from]
		if len(pool) == 0 {
			return false
		}
		best := 0
		for i, q := range pool {
			b := pool[best]
			if c := cmp.Compare(concepts[q.Concept], concepts[b.Concept]); c < 0 || c == 0 && types[q.Type] < types[b.Type] {
				best = i
			}
		}
		q := pool[best]
		pools[from] = slices.Delete(pool, best, best+1)
		concepts[q.Concept]++
		types[q.Type]++
		got[into] = append(got[into], q)
		return true
	}
	// Round-robin over the difficulties so that concepts spread across them
	// rather than the easy questions taking the first of each. Hard and easy
	// questions are the scarcer, so they choose first.
	for left := n; left > 0; {
		progress := false
		for _, d := range [...]int{2, 0, 1} {
			if len(got[d]) >= want[d] || left == 0 {
				continue
			}
			for _, from := range fillOrder[d] {
				if take(from, d) {
					left--
					progress = true
					break
				}
			}
		}
		if !progress {
			break
		}
	}
	out := slices.Concat(got[0], got[1], got[2])
	slices.SortStableFunc(out, func(a, b tutor.BankQuestion) int { return rank(a.Difficulty) - rank(b.Difficulty) })
	return out
}

// ExamEvaluator judges exam answers the answer evaluator cannot check. The
// zero value is ready to use and safe for concurrent use.
type ExamEvaluator struct{}

// NewExamEvaluator returns the rules engine's exam evaluator.
func NewExamEvaluator() *ExamEvaluator { return &ExamEvaluator{} }

var _ agents.ExamEvaluator = (*ExamEvaluator)(nil)

// Judge judges the answer in t.Message to q. A verdict the answer evaluator
// settled is repeated as it is, and "I don't know" earns nothing. Anything
// else is judged conservatively by keyword overlap with the expected answer
// and its accepted forms: the answer must contain at least 75% of the key
// words of one of them (stop words ignored, plurals and verb endings
// stemmed) to be correct and 40% to be partly right, and a negation that
// the expected answer lacks ("not", "never") lowers the judgement one
// level. The judgement depends only on its inputs; it never guesses. The
// error is ctx's, when it is done.
func (*ExamEvaluator) Judge(ctx context.Context, t agents.Turn, q tutor.ExamQuestion) (agents.ExamJudgement, agents.Call, error) {
	if err := ctx.Err(); err != nil {
		return agents.ExamJudgement{}, agents.Call{Agent: agents.NameExamEvaluator, Provider: Provider, Err: err}, err
	}
	var o judgement
	switch {
	case t.Evaluation.Verdict.Known():
		o = judgement{verdict: t.Evaluation.Verdict, note: "the answer evaluator judged it " + string(t.Evaluation.Verdict)}
	case t.Precheck == tutor.PrecheckIDK:
		o = judgement{verdict: answer.Incorrect, note: "no answer given"}
	default:
		forms := []string{q.ExpectedAnswer}
		if bq, ok := t.Topic.Question(q.QuestionID); ok {
			forms = expectedForms(bq)
		}
		o = overlap(forms, t.Message)
	}
	correct := o.verdict == answer.Correct
	signal := tutor.SignalNeedsRemediation
	switch o.verdict {
	case answer.Correct:
		signal = tutor.SignalStrong
	case answer.Partial:
		signal = tutor.SignalAdequate
	}
	j := agents.ExamJudgement{AnswerCorrect: &correct, MasterySignal: &signal, Feedback: cut("Q"+strconv.Itoa(q.QuestionIdx+1)+": "+o.note, 200)}
	return j, call(agents.NameExamEvaluator, j), nil
}

// expectedForms returns a question's answer and its accepted forms, with
// the text of the right option of a choice question.
func expectedForms(q tutor.BankQuestion) []string {
	forms := append([]string{q.Answer}, q.Accept...)
	if i, ok := optionIndex(q, q.Answer); ok && len(q.Options) > 0 {
		forms = append(forms, q.Options[i])
	}
	return forms
}

type judgement struct {
	verdict answer.Verdict
	note    string
}

// overlap judges a free-text answer by the share of the key words (terms,
// see terms) of an expected form that the answer contains, taking the best
// form: at least 75% is correct, at least 40% partial, less incorrect. A
// negation in the answer ("not", "never", "isn't") that the expected form
// lacks lowers the judgement one level, so that "it is not evaporation" is
// not credited for "evaporation". Word overlap cannot follow reasoning; it
// is meant to be strict rather than generous, and it never guesses.
func overlap(forms []string, reply string) judgement {
	got := terms(reply)
	best, bestForm := -1.0, ""
	for _, f := range forms {
		want := terms(f)
		if len(want) == 0 {
			continue
		}
		n := 0
		for _, w := range want {
			if slices.Contains(got, w) {
				n++
			}
		}
		if share := float64(n) / float64(len(want)); share > best {
			best, bestForm = share, f
		}
	}
	if best < 0 {
		return judgement{verdict: answer.Incorrect, note: "no key words to compare"}
	}
	v := answer.Incorrect
	switch {
	case best >= 0.75:
		v = answer.Correct
	case best >= 0.4:
		v = answer.Partial
	}
	if negated(reply) && !negated(bestForm) {
		switch v {
		case answer.Correct:
			v = answer.Partial
		case answer.Partial:
			v = answer.Incorrect
		}
	}
	return judgement{verdict: v, note: strconv.Itoa(int(math.Round(best*100))) + "% of the key words of the expected answer"}
}

func negated(s string) bool {
	for _, w := range words(s) {
		switch w {
		case "not", "no", "never", "isnt", "arent", "doesnt", "dont", "cannot", "cant", "wont", "nahi", "nahin":
			return true
		}
	}
	return false
}
