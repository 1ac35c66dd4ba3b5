package llmagent

import (
	"bytes"
	"embed"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"text/template"
	"unicode"

	"github.com/tutord/tutord/internal/tutor"
)

// The prompt templates, one file per prompt (prompts/*.tmpl), each executed
// by its file name. partials.tmpl holds the blocks they share.
const (
	tmplTutorSystem    = "tutor_system.tmpl"
	tmplTutorTurn      = "tutor_turn.tmpl"
	tmplClarifySystem  = "clarify_system.tmpl"
	tmplClarifyTurn    = "clarify_turn.tmpl"
	tmplExamSystem     = "exam_questions_system.tmpl"
	tmplExamQuestions  = "exam_questions.tmpl"
	tmplExamEvalSystem = "exam_eval_system.tmpl"
	tmplExamEvalTurn   = "exam_eval_turn.tmpl"
	tmplMessageSystem  = "message_system.tmpl"
	tmplPostCompletion = "post_completion.tmpl"
	tmplSafetySystem   = "safety_system.tmpl"
	tmplSafetyCheck    = "safety_check.tmpl"
	tmplWelcomeTeach   = "welcome_teach_me.tmpl"
	tmplWelcomeClarify = "welcome_clarify_doubts.tmpl"
	tmplWelcomeExam    = "welcome_exam.tmpl"
)

// How much of the session the prompts show.
const (
	historyLines        = tutor.HistoryWindow // messages of the conversation
	timelineEntries     = 5                   // entries of the turn timeline
	previousAnswerLines = 3                   // previous wrong answers to a pending question
	maxAboutMeRunes     = 300
	maxLanguageRunes    = 40
)

//go:embed prompts/*.tmpl
var promptFiles embed.FS

// templates holds every prompt. The files are part of the binary, so a
// template that does not parse, or a prompt without its file, is a build
// defect: mustParsePrompts stops the program at start-up rather than let
// the first learner find it.
var templates = mustParsePrompts(
	tmplTutorSystem, tmplTutorTurn, tmplClarifySystem, tmplClarifyTurn,
	tmplExamSystem, tmplExamQuestions, tmplExamEvalSystem, tmplExamEvalTurn,
	tmplMessageSystem, tmplWelcomeTeach, tmplWelcomeClarify, tmplWelcomeExam, tmplPostCompletion,
	tmplSafetySystem, tmplSafetyCheck,
)

func mustParsePrompts(names ...string) *template.Template {
	t, err := parsePrompts(names...)
	if err != nil {
		panic(err)
	}
	return t
}

func parsePrompts(names ...string) (*template.Template, error) {
	t, err := template.New("prompts").
		Option("missingkey=error").
		Funcs(template.FuncMap{"join": strings.Join}).
		ParseFS(promptFiles, "prompts/*.tmpl")
	if err != nil {
		return nil, fmt.Errorf("llmagent: parse prompt templates: %w", err)
	}
	for _, n := range names {
		if t.Lookup(n) == nil {
			return nil, fmt.Errorf("llmagent: prompt template %s is missing", n)
		}
	}
	return t, nil
}

// render executes a prompt template and tidies the text: trailing spaces
// go, runs of blank lines become one, so templates can be laid out for
// reading without shaping the prompt.
func render(name string, data any) (string, error) {
	var b bytes.Buffer
	if err := templates.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("llmagent: render %s: %w", name, err)
	}
	return tidy(b.String()), nil
}

var blankRuns = regexp.MustCompile(`\n{3,}`)

func tidy(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.TrimSpace(blankRuns.ReplaceAllString(strings.Join(lines, "\n"), "\n\n"))
}

// prompt is the rendered text of one model call: the system prompt and
// the user message.
type prompt struct {
	system, user string
}

// String returns the prompt as agent logs show it.
func (p prompt) String() string {
	return "[system]\n" + p.system + "\n\n[user]\n" + p.user
}

// renderPrompt renders a system and a user template.
func renderPrompt(system string, sysData any, user string, userData any) (prompt, error) {
	s, err := render(system, sysData)
	if err != nil {
		return prompt{}, err
	}
	u, err := render(user, userData)
	if err != nil {
		return prompt{}, err
	}
	return prompt{system: s, user: u}, nil
}

// studentView is the learner as the prompts describe them. It is built
// from the session's student context alone, which does not change during a
// session.
type studentView struct {
	FirstName     string
	Age           int
	AboutMe       string
	Grade         int
	Board         string
	LanguageLevel string // simple | standard | advanced
	Examples      string
	Language      string // the preferred language's English name
	English       bool
	Style         string // simple | standard | challenge
}

func newStudentView(sc tutor.StudentContext) studentView {
	lang, english := languageName(sc.Language)
	v := studentView{
		Grade:         sc.Grade,
		Board:         oneLine(sc.Board),
		LanguageLevel: known(sc.LanguageLevel, "standard", "simple", "advanced"),
		Examples:      strings.Join(tutor.DefaultPreferredExamples(), ", "),
		Language:      lang,
		English:       english,
		Style:         known(sc.Style, "standard", "simple", "challenge"),
	}
	if ex := nonBlank(sc.PreferredExamples); len(ex) > 0 {
		v.Examples = strings.Join(ex, ", ")
	}
	if sc.StudentName != nil {
		if f := strings.Fields(*sc.StudentName); len(f) > 0 {
			v.FirstName = f[0]
		}
	}
	if sc.StudentAge != nil && *sc.StudentAge > 0 {
		v.Age = *sc.StudentAge
	}
	if sc.AboutMe != nil {
		v.AboutMe = cutRunes(oneLine(*sc.AboutMe), maxAboutMeRunes)
	}
	return v
}

// lessonView is the lesson as the prompts describe it.
type lessonView struct {
	Name, Subject  string
	Grade          int
	Depth          string
	Objectives     []string
	Prerequisites  []string
	Misconceptions []string
	Approach       string
	Steps          []stepView
	Concepts       []string
}

// stepView is one step of the study plan. Content is set only where a
// prompt teaches from it.
type stepView struct {
	Number  int
	Type    string
	Concept string
	Hint    string
	Content string
}

func newLessonView(t *tutor.Topic) lessonView {
	g := t.Guideline
	v := lessonView{
		Name:           t.TopicName,
		Subject:        t.Subject,
		Grade:          t.GradeLevel,
		Depth:          orDefault(g.RequiredDepth, "intermediate"),
		Objectives:     nonBlank(g.LearningObjectives),
		Prerequisites:  nonBlank(g.PrerequisiteConcepts),
		Misconceptions: nonBlank(g.CommonMisconceptions),
		Approach:       orDefault(oneLine(g.TeachingApproach), "Explain with concrete examples, then check understanding."),
		Concepts:       t.Concepts(),
	}
	for _, s := range t.Steps {
		v.Steps = append(v.Steps, stepView{Number: s.ID, Type: string(s.Type), Concept: s.Concept, Hint: oneLine(s.ContentHint)})
	}
	return v
}

// lessonPrompt is the data of a system prompt about a lesson.
type lessonPrompt struct {
	Student studentView
	Lesson  lessonView
}

// languages maps ISO 639-1 codes to the names prompts use. A preference
// that is neither a listed code nor a listed name is passed on as written.
var languages = map[string]string{
	"en": "English", "hi": "Hindi", "bn": "Bengali", "te": "Telugu", "mr": "Marathi",
	"ta": "Tamil", "ur": "Urdu", "gu": "Gujarati", "kn": "Kannada", "ml": "Malayalam",
	"or": "Odia", "pa": "Punjabi", "as": "Assamese", "ne": "Nepali", "sa": "Sanskrit",
	"es": "Spanish", "fr": "French", "de": "German", "pt": "Portuguese", "it": "Italian",
	"nl": "Dutch", "ar": "Arabic", "zh": "Chinese", "ja": "Japanese", "ko": "Korean",
	"ru": "Russian", "tr": "Turkish", "id": "Indonesian", "sw": "Swahili", "vi": "Vietnamese",
	"th": "Thai",
}

// languageName returns the name of a language preference ("hi", "hi-IN",
// "Hindi") and whether it is English, the default for an empty one.
func languageName(pref string) (name string, english bool) {
	p := strings.TrimSpace(pref)
	if p == "" {
		return "English", true
	}
	code, _, _ := strings.Cut(strings.ToLower(p), "-")
	code, _, _ = strings.Cut(code, "_")
	if n, ok := languages[code]; ok {
		return n, n == "English"
	}
	for _, n := range languages {
		if strings.EqualFold(n, p) {
			return n, n == "English"
		}
	}
	// The preference comes from a request: keep it to a plain name.
	clean := strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || r == ' ' || r == '-' {
			return r
		}
		return -1
	}, p)
	clean = cutRunes(oneLine(clean), maxLanguageRunes)
	if clean == "" {
		return "English", true
	}
	return clean, false
}

// withheldMessage stands in a prompt for a message the safety gate
// flagged: what the learner shared there (a phone number, abuse) is not
// sent to a model again.
const withheldMessage = "(message withheld: it was flagged by the safety check)"

// historyView renders the last messages of the history window as
// "Student: …" and "Teacher: …" lines, withheld messages as
// withheldMessage.
func historyView(h []tutor.Message, n int) []string {
	h = h[max(0, len(h)-n):]
	out := make([]string, 0, len(h))
	for _, m := range h {
		who := "Teacher"
		if m.Role == tutor.RoleStudent {
			who = "Student"
		}
		text := oneLine(m.Content)
		if m.Withheld {
			text = withheldMessage
		}
		out = append(out, who+": "+text)
	}
	return out
}

// oneLine joins the lines of s with spaces, so that a message cannot
// break the layout of a prompt.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// quoted prepares a learner's text for a prompt's """ block: it keeps its
// lines, but none can close the block (three quotes become one) or open a
// section of its own (a line starting with "#" is indented), so the prompt
// has the same sections whatever the learner writes.
func quoted(s string) string {
	// Every line break Unicode knows is one here, or a "#" after U+2028
	// would open a section of its own where the model reads a new line.
	s = lineBreaks.Replace(s)
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i, l := range lines {
		for strings.Contains(l, `"""`) {
			l = strings.ReplaceAll(l, `"""`, `"`)
		}
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			l = "  " + strings.TrimSpace(l)
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}

// known returns s when it is def or one of others, and def otherwise: the
// preferences come from a request, and the system prompt, which the model
// trusts most, takes no free text from it.
func known(s, def string, others ...string) string {
	if s = strings.ToLower(strings.TrimSpace(s)); slices.Contains(others, s) {
		return s
	}
	return def
}

// lineBreaks turns the other line breaks into "\n".
var lineBreaks = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u2028", "\n", "\u2029", "\n", "\u0085", "\n", "\v", "\n", "\f", "\n")

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// nonBlank returns the non-blank items of s, each on one line.
func nonBlank(s []string) []string {
	var out []string
	for _, x := range s {
		if x = oneLine(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

func cutRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i] + "…"
		}
		n--
	}
	return s
}
