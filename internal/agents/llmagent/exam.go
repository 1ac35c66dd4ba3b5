package llmagent

import (
	"context"
	"errors"
	"math"
	"regexp"
	"strings"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
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
// up to r.Count, the questions with a text and an expected answer,
// dropping repeats; the domain numbers them.
//
// A question's concept is the plan's concept it names, compared without
// case, spacing or punctuation ("mixed-numbers" is "Mixed numbers"), or
// else the one plan concept whose words it contains or that contains its
// words ("Adding like fractions" is "Like fractions"). A question naming
// no concept gets the plan's concept at its index modulo the number of
// concepts (CONTRACT §9.7). A question naming a concept the plan does not
// have, or that two plan concepts match, is dropped: it most likely tests
// something outside the lesson ("Geography" in a fractions exam), and
// filing it under a concept it does not test would send the learner to
// review the wrong one. The orchestrator's retry covers a model that names
// no concept right.
//
// A multiple-choice question whose options the model wrote into its text
// (see examChoice) is judged by the exam evaluator, not by code. Errors are
// *llm.Error: the client's failure, or KindInvalidRequest for a lesson
// without concepts.
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
	set, c, err := ask[examQuestionSet](ctx, &g.a, r.SessionID, p)
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
		concept, ok := examConcept(concepts, it.Concept, len(out))
		if key == "" || expected == "" || !ok || seen[key] {
			continue
		}
		var kind answer.Kind
		if shown, ok := examChoice(text, expected); ok {
			if shown == "" {
				continue // no option is the answer: no choice could be right
			}
			// The options, and so the answer, are in the text.
			expected, kind = shown, kindJudged
		} else if tutor.QuestionStatesAnswer(text, expected) {
			continue
		}
		seen[key] = true
		out = append(out, tutor.ExamQuestion{
			QuestionIdx:    len(out),
			QuestionText:   text,
			Concept:        concept,
			Difficulty:     tutor.Difficulty(it.Difficulty),
			QuestionType:   tutor.QuestionType(it.QuestionType),
			ExpectedAnswer: expected,
			AnswerKind:     kind,
		})
	}
	return out
}

// examConcept returns the plan concept (of concepts, not empty) that a
// question numbered idx names, as Generate describes; ok is false when
// the question is to be dropped.
func examConcept(concepts []string, named string, idx int) (concept string, ok bool) {
	key := conceptKey(named)
	if key == "" {
		return concepts[idx%len(concepts)], true
	}
	for _, c := range concepts {
		if conceptKey(c) == key {
			return c, true
		}
	}
	words := " " + normalize(named) + " "
	for _, c := range concepts {
		if cw := " " + normalize(c) + " "; cw != "  " && (strings.Contains(words, cw) || strings.Contains(cw, words)) {
			if concept != "" {
				return "", false // two concepts match
			}
			concept = c
		}
	}
	return concept, concept != ""
}

// conceptKey is a concept's name without case, spacing or punctuation.
func conceptKey(s string) string { return strings.ReplaceAll(normalize(s), " ", "") }

// kindJudged is the answer kind of a generated multiple-choice question.
// tutor.ExamQuestion carries no options (a bank question's are in the
// bank), so code cannot tell which option a letter ("B") or a text ("16")
// names: a choice kind would mark the option's text wrong, the text a
// letter. answer.Evaluate finds this kind CannotCheck, but for a hedge
// between letters ("B or C"), and the exam evaluator, which reads the
// options in the question and the answer as "B) 16", judges every other
// answer.
const kindJudged = answer.KindJudged

// optionMark finds an option's letter as a question lays its options
// out: "A) 10", "(b) 16", "C. 18", "D: 20".
var optionMark = regexp.MustCompile(`(?:^|\s)\(?([A-Fa-f])[).:]\s+`)

// letterAnswer reads an expected answer that names an option by its
// letter: "B", "(b)", "B.", "Option B", "A) 9".
var letterAnswer = regexp.MustCompile(`^(?i:option\s+)?\(?([A-Fa-f])(?:[).:]|\s*$)`)

// examChoice reports whether a question lays out multiple-choice options
// in its text ("Which number is double 8? A) 10 B) 16 C) 18"): two or more
// options lettered in order from A, with the same case, from the
// question's last "A", which starts a line or follows the end of a
// sentence or a colon. It returns the expected answer as the learner reads
// it, the right option's letter and text ("B) 16"), when the model's
// expected answer names one option by its letter ("B", "A) 9": the letter
// wins over the text after it) or by its text ("24", or a number equal to
// it); otherwise (a letter the question does not offer, no option or two
// of them the answer) it returns "": the question is unusable.
func examChoice(text, expected string) (shown string, ok bool) {
	marks := optionMark.FindAllStringSubmatchIndex(text, -1)
	first := -1
	for i, m := range marks {
		if l := text[m[2]]; l == 'A' || l == 'a' {
			first = i
		}
	}
	if first < 0 || len(marks)-first < 2 {
		return expected, false
	}
	if before := strings.TrimRight(text[:marks[first][2]], " \t("); before != "" && !strings.ContainsAny(before[len(before)-1:], "?:.!\n") {
		return expected, false // "Point A: ...": a letter within a sentence
	}
	marks = marks[first:]
	letters := make([]byte, len(marks))
	options := make([]string, len(marks))
	for i, m := range marks {
		letters[i] = text[m[2]]
		if letters[i] != letters[0]+byte(i) {
			return expected, false
		}
		end := len(text)
		if i+1 < len(marks) {
			end = marks[i+1][0]
		}
		o, _, _ := strings.Cut(text[m[1]:end], "\n")
		o = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(o), ",;"))
		if i+1 < len(marks) {
			o = strings.TrimSpace(strings.TrimSuffix(o, " or"))
		} else {
			o = strings.TrimRight(o, "?.")
		}
		if o == "" {
			return expected, false
		}
		options[i] = o
	}
	pick := -1
	if m := letterAnswer.FindStringSubmatch(expected); m != nil {
		if i := int(m[1][0]|0x20) - int(letters[0]|0x20); i < len(options) {
			pick = i
		}
	} else {
		for i, o := range options {
			if normalize(o) == normalize(expected) || answer.Evaluate(answer.Expected{Answer: o}, expected).Verdict == answer.Correct {
				if pick >= 0 {
					pick = -1 // two options match
					break
				}
				pick = i
			}
		}
	}
	if pick < 0 {
		return "", true
	}
	return string(letters[pick]) + ") " + options[pick], true
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
