package llmagent

import (
	"context"
	"errors"
	"math"
	"strings"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/tutor"
)

// DefaultExamQuestions is the number of questions an ExamRequest gets when
// it asks for none.
const DefaultExamQuestions = 7

// ExamGenerator is the model-backed exam generator.
type ExamGenerator struct{ a agent }

var _ agents.ExamGenerator = (*ExamGenerator)(nil)

// NewExamGenerator returns an exam generator that calls c with the exam
// generator component's configuration cfg.
func NewExamGenerator(c llm.Client, cfg llm.Config, o Options) *ExamGenerator {
	return &ExamGenerator{newAgent(agents.NameExamGenerator, c, cfg, o)}
}

// Generate implements agents.ExamGenerator. It asks for r.Count questions
// (DefaultExamQuestions when zero) mixing about 30% easy, 50% medium and
// 20% hard, of mixed types, on the plan's concepts. It keeps, in order and
// up to r.Count, the questions with a text, an expected answer and a plan
// concept (spelled as the plan spells it), dropping repeats; the domain
// numbers them. Errors are *llm.Error: the client's failure, or
// KindInvalidRequest for a lesson without concepts.
func (g *ExamGenerator) Generate(ctx context.Context, r agents.ExamRequest) ([]tutor.ExamQuestion, agents.Call, error) {
	if len(r.Topic.Concepts()) == 0 {
		c, err := g.a.refuse(errors.New("an exam needs a lesson with concepts"))
		return nil, c, err
	}
	n := r.Count
	if n <= 0 {
		n = DefaultExamQuestions
	}
	n = min(n, tutor.MaxExamQuestions)
	data := examPrompt{Student: newStudentView(r.Student), Lesson: newLessonView(r.Topic), Count: n}
	data.Easy, data.Medium, data.Hard = difficultyMix(n)
	p, err := renderPrompt(tmplExamSystem, data, tmplExamQuestions, data)
	if err != nil {
		c, err := g.a.refuse(err)
		return nil, c, err
	}
	set, c, err := ask[examQuestionSet](ctx, &g.a, "", p)
	if err != nil {
		return nil, c, err
	}
	return examQuestions(r.Topic, set.Questions, n), c, nil
}

// examPrompt is the data of the exam generation prompts.
type examPrompt struct {
	Student                   studentView
	Lesson                    lessonView
	Count, Easy, Medium, Hard int
}

// difficultyMix splits n questions about 30% easy, 50% medium and 20% hard.
func difficultyMix(n int) (easy, medium, hard int) {
	easy = int(math.Round(0.3 * float64(n)))
	hard = int(math.Round(0.2 * float64(n)))
	return easy, n - easy - hard, hard
}

// examQuestionSet is the exam generator's structured output.
type examQuestionSet struct {
	Questions []examItem `json:"questions" jsonschema:"The exam questions, in the order they are asked."`
}

// Validate rejects an empty set, so that the model gets a chance to repair
// it.
func (s *examQuestionSet) Validate() error {
	if len(s.Questions) == 0 {
		return errors.New("questions is empty")
	}
	return nil
}

type examItem struct {
	QuestionText   string       `json:"question_text" jsonschema:"The question as the student reads it."`
	ExpectedAnswer string       `json:"expected_answer" jsonschema:"The short correct answer, in its simplest form, with its unit when it has one."`
	Concept        string       `json:"concept" jsonschema:"The lesson concept the question tests, spelled exactly as listed."`
	Difficulty     difficulty   `json:"difficulty"`
	QuestionType   questionType `json:"question_type"`
}

type difficulty string

// EnumValues lists the difficulties for the output schema.
func (difficulty) EnumValues() []string {
	return []string{string(tutor.Easy), string(tutor.Medium), string(tutor.Hard)}
}

type questionType string

// EnumValues lists the question types for the output schema.
func (questionType) EnumValues() []string {
	return []string{string(tutor.QuestionConceptual), string(tutor.QuestionProcedural), string(tutor.QuestionApplication)}
}

// examQuestions keeps the usable items, in order and at most n.
func examQuestions(t *tutor.Topic, items []examItem, n int) []tutor.ExamQuestion {
	concepts := t.Concepts()
	seen := make(map[string]bool, len(items))
	var out []tutor.ExamQuestion
	for _, it := range items {
		if len(out) == n {
			break
		}
		text, expected := strings.TrimSpace(it.QuestionText), strings.TrimSpace(it.ExpectedAnswer)
		key := normalize(text)
		i := indexFold(concepts, strings.TrimSpace(it.Concept))
		if key == "" || expected == "" || i < 0 || seen[key] || tutor.QuestionStatesAnswer(text, expected) {
			continue
		}
		seen[key] = true
		out = append(out, tutor.ExamQuestion{
			QuestionIdx:    len(out),
			QuestionText:   text,
			Concept:        concepts[i],
			Difficulty:     tutor.Difficulty(it.Difficulty),
			QuestionType:   tutor.QuestionType(it.QuestionType),
			ExpectedAnswer: expected,
		})
	}
	return out
}

// indexFold returns the index of the first element of s equal to v,
// ignoring case, or -1.
func indexFold(s []string, v string) int {
	for i, x := range s {
		if strings.EqualFold(x, v) {
			return i
		}
	}
	return -1
}

// ExamEvaluator is the model-backed exam evaluator, for answers the
// deterministic evaluator cannot check.
type ExamEvaluator struct{ a agent }

var _ agents.ExamEvaluator = (*ExamEvaluator)(nil)

// NewExamEvaluator returns an exam evaluator that calls c with the exam
// evaluator component's configuration cfg.
func NewExamEvaluator(c llm.Client, cfg llm.Config, o Options) *ExamEvaluator {
	return &ExamEvaluator{newAgent(agents.NameExamEvaluator, c, cfg, o)}
}

// Judge implements agents.ExamEvaluator: one structured call that sees the
// question, its expected answer (and the bank's other accepted forms) and
// the learner's answer, and marks it briefly, without teaching. The
// judgement always has answer_correct and mastery_signal set; a partly
// right answer comes back as not correct with the signal adequate, which
// the exam records as partial. Errors are the client's *llm.Error.
func (e *ExamEvaluator) Judge(ctx context.Context, t agents.Turn, q tutor.ExamQuestion) (agents.ExamJudgement, agents.Call, error) {
	data := examMark{
		Number:     q.QuestionIdx + 1,
		Text:       strings.TrimSpace(q.QuestionText),
		Concept:    q.Concept,
		Difficulty: string(q.Difficulty),
		Type:       string(q.QuestionType),
		Expected:   oneLine(q.ExpectedAnswer),
		Answer:     quoted(t.Message),
	}
	if bq, ok := t.Topic.Question(q.QuestionID); ok {
		data.Expected = oneLine(bq.ShownAnswer()) // a choice's text: the question lists no letters
		if accepted := nonBlank(bq.Accept); len(accepted) > 0 {
			data.Expected += " (also accepted: " + strings.Join(accepted, "; ") + ")"
		}
	}
	if ev := t.Evaluation; ev.Verdict.Known() {
		data.Verdict = newVerdictView(ev)
	}
	p, err := renderPrompt(tmplExamEvalSystem, newStudentView(t.State.StudentContext), tmplExamEvalTurn, data)
	if err != nil {
		c, err := e.a.refuse(err)
		return agents.ExamJudgement{}, c, err
	}
	m, c, err := ask[examMarking](ctx, &e.a, t.State.SessionID, p)
	if err != nil {
		return agents.ExamJudgement{}, c, err
	}
	c.Reasoning = m.Reasoning
	correct, signal := m.AnswerCorrect, tutor.MasterySignal(m.MasterySignal)
	return agents.ExamJudgement{AnswerCorrect: &correct, MasterySignal: &signal, Feedback: oneLine(m.Feedback)}, c, nil
}

// examMark is the data of the exam evaluation request.
type examMark struct {
	Number                          int
	Text, Concept, Difficulty, Type string
	Expected                        string
	Verdict                         *verdictView
	Answer                          string
}

// examMarking is the exam evaluator's structured output.
type examMarking struct {
	AnswerCorrect bool          `json:"answer_correct" jsonschema:"True only when the answer is fully correct."`
	MasterySignal masterySignal `json:"mastery_signal" jsonschema:"strong: correct and confident; adequate: correct but shaky, or partly right; needs_remediation: wrong or no real answer."`
	Feedback      string        `json:"feedback" jsonschema:"One short line on what was right or missing, for the record."`
	Reasoning     string        `json:"reasoning" jsonschema:"One private sentence on how you decided."`
}

type masterySignal string

// EnumValues lists the mastery signals for the output schema.
func (masterySignal) EnumValues() []string {
	return []string{string(tutor.SignalStrong), string(tutor.SignalAdequate), string(tutor.SignalNeedsRemediation)}
}
