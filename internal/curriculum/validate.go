package curriculum

import (
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tutord/tutord/internal/tutor/answer"
	"github.com/tutord/tutord/internal/yamldoc"
)

var (
	slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	keyPattern  = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*/[a-z0-9]+(-[a-z0-9]+)*/[a-z0-9]+(-[a-z0-9]+)*$`)
)

// kinds are the answer kinds a file may name.
var kinds = []answer.Kind{
	answer.KindInteger, answer.KindDecimal, answer.KindFraction, answer.KindMixedNumber,
	answer.KindPercentage, answer.KindUnit, answer.KindChoice, answer.KindText,
	answer.KindBoolean, answer.KindList, answer.KindSet, answer.KindExpression, answer.KindRatio,
}

// answerFormats catch an answer that cannot be of its kind (kind: integer,
// answer: 3/4). They are deliberately loose: the evaluator is the judge. A
// fraction's slash may have spaces around it ("3 / 4"), which the
// evaluator reads, but not tabs or line breaks, which it does not.
var answerFormats = map[answer.Kind]struct {
	pattern *regexp.Regexp
	example string
}{
	answer.KindInteger:     {regexp.MustCompile(`^[+-]?(\d+|\d{1,3}(,\d{3})+)$`), "42"},
	answer.KindDecimal:     {regexp.MustCompile(`^[+-]?(\d+(\.\d+)?|\.\d+)$`), "3.14"},
	answer.KindFraction:    {regexp.MustCompile(`^[+-]?\d+ */ *0*[1-9]\d*$`), "3/4"},
	answer.KindMixedNumber: {regexp.MustCompile(`^[+-]?\d+\s+\d+ */ *0*[1-9]\d*$`), "1 1/2"},
	answer.KindPercentage:  {regexp.MustCompile(`^[+-]?(\d+(\.\d+)?|\.\d+)\s*%$`), "75%"},
	answer.KindUnit:        {regexp.MustCompile(`^[+-]?(\d+(\.\d+)?|\.\d+)\s*[^\d\s.].*$`), "12 cm"},
	answer.KindBoolean:     {regexp.MustCompile(`^(?i:true|false|yes|no)$`), "yes"},
	answer.KindRatio:       {regexp.MustCompile(`^(?i:\d+(\.\d+)?((\s*:\s*|\s+(is\s+)?to\s+)\d+(\.\d+)?)+)$`), "3:5"},
}

// checker checks one decoded file.
type checker struct {
	d *yamldoc.Decoder
}

func check(f *File, d *yamldoc.Decoder) {
	c := &checker{d: d}
	c.file(f)
	c.controls("", reflect.ValueOf(f).Elem())
}

// errorf reports an issue with the field at path, unless the decoder has
// already reported that field or one that holds it.
func (c *checker) errorf(path, format string, args ...any) { c.d.Errorf(path, format, args...) }

// required reports a blank value and reports whether the value is present.
func (c *checker) required(path, value string) bool {
	if strings.TrimSpace(value) == "" {
		c.errorf(path, "required")
		return false
	}
	return true
}

// name checks a name that lists and groups the curriculum (a country, a
// board, a subject, a title): present, without spaces around it or
// invisible characters in it (which would make a second, identical-looking
// board or subject), and at most maxName characters, which the database's
// index of names holds.
func (c *checker) name(path, value string) bool {
	r, invisible := formatChar(value)
	switch {
	case !c.required(path, value):
		return false
	case strings.TrimSpace(value) != value:
		c.errorf(path, "%q begins or ends with spaces", value)
	case strings.ContainsFunc(value, unicode.IsControl):
		c.errorf(path, "%q contains a control character", value)
	case invisible:
		c.errorf(path, "%q contains the invisible character %U, which would make a second name that looks the same", value, r)
	case utf8.RuneCountInString(value) > maxName:
		c.errorf(path, "is %d characters long; at most %d", utf8.RuneCountInString(value), maxName)
	default:
		return true
	}
	return false
}

// maxName bounds the names of the curriculum (see checker.name).
const maxName = 150

// formatChar returns the first invisible format character (Unicode category
// Cf) of a name, such as a zero-width space (U+200B), a word joiner (U+2060)
// or a byte order mark (U+FEFF) pasted with it from a web page. The
// zero-width joiner and non-joiner are allowed within a name, where Indic
// scripts and emoji use them, but not at its ends.
func formatChar(s string) (rune, bool) {
	for i, r := range s {
		joiner := r == '\u200c' || r == '\u200d'
		if unicode.Is(unicode.Cf, r) && (!joiner || i == 0 || i+utf8.RuneLen(r) == len(s)) {
			return r, true
		}
	}
	return 0, false
}

// controls reports each text of the value at path that holds a control
// character other than a tab or a line break: a NUL, which the database
// cannot store, or a stray byte pasted from a PDF. It walks the fields by
// their yaml names as the decoder does, so that every text field is
// checked, and runs after the other checks, which report a name's or a
// concept's control characters in their own words.
func (c *checker) controls(path string, v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		if i := strings.IndexFunc(v.String(), isControl); i >= 0 {
			r, _ := utf8.DecodeRuneInString(v.String()[i:])
			c.errorf(path, "contains the control character %U; text may hold tabs and line breaks but no other control characters", r)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			c.controls(path, v.Elem())
		}
	case reflect.Slice:
		for i := range v.Len() {
			c.controls(fmt.Sprintf("%s[%d]", path, i), v.Index(i))
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
			if name == "" || name == "-" {
				continue
			}
			if path != "" {
				name = path + "." + name
			}
			c.controls(name, v.Field(i))
		}
	}
}

// isControl reports a control character other than a tab or a line break.
func isControl(r rune) bool {
	return unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r'
}

func (c *checker) slug(path, value, example string) {
	switch {
	case !c.required(path, value):
	case len(value) > maxName:
		c.errorf(path, "is %d characters long; at most %d", len(value), maxName)
	case !slugPattern.MatchString(value):
		c.errorf(path, "%q is not a key: use lowercase letters, digits and single hyphens, like %q", value, example)
	}
}

// oneOf reports a value outside allowed; an empty value is allowed unless required.
func oneOf[T ~string](c *checker, path string, v T, required bool, allowed ...T) {
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = string(a)
	}
	list := strings.Join(names, ", ")
	switch {
	case v == "" && required:
		c.errorf(path, "required: one of %s", list)
	case v != "" && !slices.Contains(allowed, v):
		c.errorf(path, "must be one of %s, not %q", list, v)
	}
}

func (c *checker) file(f *File) {
	c.name("country", f.Country)
	c.name("board", f.Board)
	switch {
	case !c.d.Present("grade"):
		c.errorf("grade", "required: an integer from 1 to 12")
	case f.Grade < 1 || f.Grade > 12:
		c.errorf("grade", "must be an integer from 1 to 12, not %d", f.Grade)
	}
	if c.name("subject", f.Subject) && Slug(f.Subject) == "" {
		c.errorf("subject", "must contain a letter from a to z or a digit")
	}
	c.slug("topic.key", f.Topic.Key, "fractions")
	c.name("topic.title", f.Topic.Title)
	if len(f.Subtopics) == 0 {
		c.errorf("subtopics", "required: at least one subtopic")
	}
	first, titled := map[string]int{}, map[string]int{}
	for i := range f.Subtopics {
		s := &f.Subtopics[i]
		p := fmt.Sprintf("subtopics[%d]", i)
		if j, dup := first[s.Key]; dup {
			c.errorf(p+".key", "duplicate subtopic key %q (also subtopics[%d])", s.Key, j)
		} else if s.Key != "" {
			first[s.Key] = i
		}
		// Learners pick a subtopic by its title: two alike would be listed
		// as one name twice.
		title := foldTitle(s.Title)
		if j, dup := titled[title]; dup && f.Subtopics[j].Key != s.Key {
			c.errorf(p+".title", "duplicate subtopic title %q (also subtopics[%d]): learners choose a subtopic by its title", s.Title, j)
		} else if title != "" && !dup {
			titled[title] = i
		}
		c.subtopic(p, key(f.Subject, f.Topic.Key, s.Key), s)
	}
}

func (c *checker) subtopic(p, fullKey string, s *Subtopic) {
	c.slug(p+".key", s.Key, "adding-fractions")
	c.name(p+".title", s.Title)
	// A status left out means approved, but one written blank ("status:")
	// is more likely a draft whose author meant to fill it in: refused,
	// rather than shown to learners.
	oneOf(c, p+".status", s.Status, c.d.Present(p+".status"), StatusApproved, StatusDraft)
	c.required(p+".teaching_approach", s.TeachingApproach)
	if len(s.LearningObjectives) == 0 {
		c.errorf(p+".learning_objectives", "required: at least one objective")
	}
	c.texts(p+".learning_objectives", s.LearningObjectives)
	c.texts(p+".common_misconceptions", s.CommonMisconceptions)
	c.prerequisites(p+".prerequisites", fullKey, s.Prerequisites)
	oneOf(c, p+".required_depth", s.RequiredDepth, false, DepthBasic, DepthIntermediate, DepthAdvanced)
	if s.Mastery != nil {
		c.mastery(p+".mastery", s.Mastery)
	}

	plan := c.plan(p, s)
	c.questions(p, s, plan)
}

// plan checks the steps of a subtopic's plan and returns the plan resolved.
func (c *checker) plan(p string, s *Subtopic) []Step {
	if c.d.Present(p+".plan") && len(s.Plan) == 0 {
		c.errorf(p+".plan", "has no steps; omit plan to use the default plan")
	}
	plan, _ := resolvePlan(s)
	for i := range s.Plan {
		c.step(fmt.Sprintf("%s.plan[%d]", p, i), &s.Plan[i], plan[i])
	}
	return plan
}

// questions checks a subtopic's question bank against its resolved plan.
func (c *checker) questions(p string, s *Subtopic, plan []Step) {
	if len(s.Questions) == 0 {
		c.errorf(p+".questions", "required: at least one question")
		return
	}
	concepts := Concepts(plan)
	asked := map[string]bool{}
	first := map[string]int{}
	for i := range s.Questions {
		q := &s.Questions[i]
		qp := fmt.Sprintf("%s.questions[%d]", p, i)
		if j, dup := first[q.ID]; dup {
			c.errorf(qp+".id", "duplicate question id %q (also questions[%d])", q.ID, j)
		} else if q.ID != "" {
			first[q.ID] = i
		}
		asked[c.question(qp, q, concepts, strings.TrimSpace(s.Title))] = true
	}
	if s.Plan == nil {
		return // every question counts for the default plan's single concept
	}
	for i, st := range plan {
		if st.Type != StepExplain && !asked[st.Concept] {
			c.errorf(fmt.Sprintf("%s.plan[%d]", p, i),
				"%s step on %q has no questions: add questions with that concept", st.Type, st.Concept)
		}
	}
}

func (c *checker) texts(path string, list []string) {
	for i, t := range list {
		c.required(fmt.Sprintf("%s[%d]", path, i), t)
	}
}

func (c *checker) prerequisites(path, self string, keys []string) {
	seen := map[string]bool{}
	for i, k := range keys {
		kp := fmt.Sprintf("%s[%d]", path, i)
		switch {
		case !c.required(kp, k):
		case !keyPattern.MatchString(k):
			c.errorf(kp, "%q is not a subtopic key like %q", k, "mathematics/fractions/adding-fractions")
		case k == self:
			c.errorf(kp, "a subtopic cannot be its own prerequisite")
		case seen[k]:
			c.errorf(kp, "%q is listed twice", k)
		}
		seen[k] = true
	}
}

func (c *checker) mastery(path string, m *Mastery) {
	params := []struct {
		name  string
		value float64
	}{{"prior", m.Prior}, {"learn", m.Learn}, {"guess", m.Guess}, {"slip", m.Slip}}
	for _, x := range params {
		xp := path + "." + x.name
		switch {
		case !c.d.Present(xp):
			c.errorf(xp, "required: a probability from 0 to 1")
		case !(x.value >= 0 && x.value <= 1):
			c.errorf(xp, "must be a probability from 0 to 1, not %v", x.value)
		}
	}
	if m.Guess+m.Slip >= 1 {
		c.errorf(path, "guess + slip must be below 1, or a right answer would say nothing about mastery")
	}
}

func (c *checker) step(p string, st *Step, resolved Step) {
	c.required(p+".title", st.Title)
	// A concept is the title, or named: it is a key of the mastery map and
	// stored in lists, where a control character has no place.
	for _, f := range [...]struct{ path, value string }{{p + ".title", st.Title}, {p + ".concept", st.Concept}} {
		if strings.ContainsFunc(f.value, unicode.IsControl) {
			c.errorf(f.path, "%q contains a control character", f.value)
		}
	}
	oneOf(c, p+".type", st.Type, false, StepExplain, StepCheck, StepPractice)
	if resolved.Type == StepExplain && strings.TrimSpace(st.Content) == "" {
		if st.Type == "" {
			c.errorf(p+".content", "required: this is an explain step (its type was inferred; set type to change it)")
		} else {
			c.errorf(p+".content", "required for an explain step")
		}
	}
}

// question checks one question and returns the concept it checks.
func (c *checker) question(p string, q *Question, concepts []string, defaultConcept string) string {
	c.slug(p+".id", q.ID, "like-1")
	c.required(p+".question", q.Question)
	hasAnswer := c.required(p+".answer", q.Answer)
	oneOf(c, p+".kind", q.Kind, false, kinds...)
	c.texts(p+".accept", q.Accept)
	if q.Tolerance < 0 || math.IsNaN(q.Tolerance) || math.IsInf(q.Tolerance, 0) {
		c.errorf(p+".tolerance", "must be a number of at least 0, not %v", q.Tolerance)
	}
	c.texts(p+".options", q.Options)

	kind := questionKind(q)
	switch {
	case kind == answer.KindChoice:
		c.choice(p, q, hasAnswer)
	case len(q.Options) > 0:
		c.errorf(p+".options", "only choice questions have options")
	case hasAnswer:
		if f, ok := answerFormats[kind]; ok && !f.pattern.MatchString(strings.TrimSpace(q.Answer)) {
			c.errorf(p+".answer", "%q is not a valid %s answer (for example %q)", q.Answer, kind, f.example)
		}
	}

	concept := strings.TrimSpace(q.Concept)
	if concept == "" {
		concept = defaultConcept
	}
	if !slices.Contains(concepts, concept) {
		list := quoteAll(concepts)
		if q.Concept == "" {
			c.errorf(p+".concept", "required: one of the plan's concepts: %s", list)
		} else {
			c.errorf(p+".concept", "%q is not a concept of the plan: %s", q.Concept, list)
		}
	}

	oneOf(c, p+".difficulty", q.Difficulty, true, Easy, Medium, Hard)
	oneOf(c, p+".type", q.Type, true, Conceptual, Procedural, Application)
	if len(q.Hints) != 2 {
		c.errorf(p+".hints", "must be exactly two hints (a conceptual nudge, then the first step), not %d", len(q.Hints))
	}
	c.texts(p+".hints", q.Hints)
	if len(q.Hints) == 2 && q.Hints[0] != "" && strings.TrimSpace(q.Hints[0]) == strings.TrimSpace(q.Hints[1]) {
		c.errorf(p+".hints[1]", "repeats the first hint")
	}
	c.required(p+".solution", q.Solution)
	c.acceptAnswers(p, q, kind)
	c.misconceptionAnswers(p, q, kind)
	return concept
}

// acceptAnswers checks a question's other accepted answers as
// misconceptionAnswers checks its wrong ones: each must be one the
// evaluator can read as an answer of the question's kind, or it would never
// match a reply. They are not held to the answer formats: an accepted
// answer may be another form of the value (0.75 for 75%). A text answer's
// are synonyms, compared as written.
func (c *checker) acceptAnswers(p string, q *Question, kind answer.Kind) {
	if kind == answer.KindAuto {
		kind = answer.InferKind(q.Answer)
	}
	if kind == answer.KindText {
		return
	}
	for i, a := range q.Accept {
		if strings.TrimSpace(a) == "" {
			continue // reported as required
		}
		// Compared as Evaluate compares a reply with an accepted answer.
		self := answer.Expected{Answer: a, Kind: kind, Options: q.Options, Tolerance: q.Tolerance}
		if answer.Evaluate(self, a).Verdict != answer.Correct {
			c.errorf(fmt.Sprintf("%s.accept[%d]", p, i), "%q cannot be read as a %s answer, so it would never match a reply", a, kind)
		}
	}
}

// misconceptionAnswers checks the wrong answers that show a question's
// misconception: each must be one the evaluator can recognise in a reply
// and must not be judged right. They are not held to the answer formats: a
// mistaken answer may be malformed (4/0).
func (c *checker) misconceptionAnswers(p string, q *Question, kind answer.Kind) {
	if len(q.MisconceptionAnswers) > 0 && strings.TrimSpace(q.Misconception) == "" {
		c.errorf(p+".misconception", "required with misconception_answers: the mistake those answers show")
	}
	right := answer.Expected{
		Answer: q.Answer, Kind: kind, Accept: q.Accept, Options: q.Options,
		Tolerance: q.Tolerance, Simplest: q.Simplest || asksSimplest(q.Question), RequireUnit: requiresUnit(q),
	}
	for i, a := range q.MisconceptionAnswers {
		ap := fmt.Sprintf("%s.misconception_answers[%d]", p, i)
		if !c.required(ap, a) {
			continue
		}
		if kind == answer.KindChoice && choiceIndex(a, q.Options) < 0 {
			c.errorf(ap, "must be an option's letter or text, like the answer")
			continue
		}
		// Compared as the domain compares a reply (BankQuestion.ShowsMisconception).
		self := answer.Expected{Answer: a, Kind: kind, Options: q.Options, Tolerance: q.Tolerance}
		if self.Kind == answer.KindAuto {
			self.Kind = answer.InferKind(q.Answer)
		}
		if r := answer.Evaluate(self, a); r.Verdict != answer.Correct {
			c.errorf(ap, "%q cannot be read as a %s answer, so it would never match a reply", a, r.Kind)
			continue
		}
		if answer.Evaluate(right, a).Verdict == answer.Correct {
			c.errorf(ap, "%q is judged right; list only wrong answers", a)
		}
	}
}

func (c *checker) choice(p string, q *Question, hasAnswer bool) {
	if len(q.Options) < 2 {
		c.errorf(p+".options", "required: a choice question needs at least two options")
		return
	}
	seen := map[string]int{}
	for i, o := range q.Options {
		norm := strings.ToLower(strings.TrimSpace(o))
		if j, dup := seen[norm]; dup {
			c.errorf(fmt.Sprintf("%s.options[%d]", p, i), "repeats options[%d]", j)
			continue
		}
		seen[norm] = i
	}
	if !hasAnswer || choiceIndex(q.Answer, q.Options) >= 0 {
		return
	}
	c.errorf(p+".answer", "must be an option's letter (A to %c) or the text of one of the options", 'A'+rune(min(len(q.Options), 26)-1))
}

// choiceIndex returns the index of the option an answer names, by letter or
// by text, or -1.
func choiceIndex(ans string, options []string) int {
	ans = strings.TrimSpace(ans)
	if len(ans) == 1 {
		if i := int(unicode.ToUpper(rune(ans[0])) - 'A'); 0 <= i && i < len(options) {
			return i
		}
	}
	for i, o := range options {
		if strings.EqualFold(strings.TrimSpace(o), ans) {
			return i
		}
	}
	return -1
}

// questionKind returns a question's kind, taking a question with options but
// no kind to be a choice question.
func questionKind(q *Question) answer.Kind {
	if q.Kind == answer.KindAuto && len(q.Options) > 0 {
		return answer.KindChoice
	}
	return q.Kind
}

func quoteAll(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}
