package curriculum

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tutord/tutord/internal/tutor/answer"
)

// validDoc is a small valid file. The tests below edit it and expect issues
// on its lines, so keep the line numbers in the comments up to date.
const validDoc = `country: India
board: CBSE
grade: 7
subject: Mathematics
topic:
  key: fractions
  title: Fractions
subtopics:
  - key: adding-fractions
    title: Adding fractions
    teaching_approach: Use strips cut into equal parts.
    learning_objectives: [Add like fractions.]
    plan:
      - title: Like fractions
        type: explain
        content: Add the numerators and keep the denominator.
      - title: "Check: like fractions"
        concept: Like fractions
    questions:
      - id: like-1
        question: What is 1/5 + 2/5?
        answer: "3/5"
        kind: fraction
        concept: Like fractions
        difficulty: easy
        type: procedural
        hints: [Count the fifths., Add the numerators 1 and 2.]
        solution: 1/5 + 2/5 = 3/5.
`

// Line numbers in validDoc.
//
//	 3 grade               13 plan                20 questions[0]    25 difficulty
//	 9 subtopics[0]        14 plan[0]             21 question        26 type
//	11 teaching_approach   16 content            22 answer          27 hints
//	12 learning_objectives 17 plan[1]             23 kind            28 solution
//	                                              24 concept

func TestParseValid(t *testing.T) {
	got, err := Parse("x.yaml", []byte(validDoc))
	if err != nil {
		t.Fatal(err)
	}
	want := &File{
		Name:    "x.yaml",
		Country: "India",
		Board:   "CBSE",
		Grade:   7,
		Subject: "Mathematics",
		Topic:   Topic{Key: "fractions", Title: "Fractions"},
		Subtopics: []Subtopic{{
			Key:                "adding-fractions",
			Title:              "Adding fractions",
			TeachingApproach:   "Use strips cut into equal parts.",
			LearningObjectives: []string{"Add like fractions."},
			Plan: []Step{
				{Title: "Like fractions", Type: StepExplain, Content: "Add the numerators and keep the denominator."},
				{Title: "Check: like fractions", Concept: "Like fractions"},
			},
			Questions: []Question{{
				ID:         "like-1",
				Question:   "What is 1/5 + 2/5?",
				Answer:     "3/5",
				Kind:       "fraction",
				Concept:    "Like fractions",
				Difficulty: Easy,
				Type:       Procedural,
				Hints:      []string{"Count the fifths.", "Add the numerators 1 and 2."},
				Solution:   "1/5 + 2/5 = 3/5.",
			}},
		}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Parse mismatch (-want +got):\n%s", diff)
	}
}

func TestParseScalars(t *testing.T) {
	// Text fields take numbers and booleans as written.
	doc := strings.NewReplacer(
		`answer: "3/5"`, `answer: 0.60`,
		`kind: fraction`, `kind: decimal`,
		`title: Fractions`, `title: 2024`,
	).Replace(validDoc)
	f, err := Parse("x.yaml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Subtopics[0].Questions[0].Answer; got != "0.60" {
		t.Errorf("answer = %q, want %q", got, "0.60")
	}
	if got := f.Topic.Title; got != "2024" {
		t.Errorf("topic title = %q, want %q", got, "2024")
	}
}

// An answer whose fraction is spaced out ("3 / 5") passes the checks, so
// the evaluator, whose verdict overrides the tutor's, must judge the right
// replies to it right.
func TestParseSpacedFractionAnswers(t *testing.T) {
	for _, c := range []struct {
		answer, kind string
		right        []string
	}{
		{"3 / 5", "fraction", []string{"3/5", "3 / 5", "6/10"}},
		{"3/ 5", "fraction", []string{"3/5"}},
		{"1 1 / 2", "mixed_number", []string{"1 1/2", "3/2"}},
	} {
		doc := strings.Replace(validDoc, "answer: \"3/5\"\n        kind: fraction\n",
			"answer: \""+c.answer+"\"\n        kind: "+c.kind+"\n        accept: [\""+c.answer+"\"]\n", 1)
		f, err := Parse("x.yaml", []byte(doc))
		if err != nil {
			t.Errorf("answer %q (kind %s): %v", c.answer, c.kind, err)
			continue
		}
		q := TopicOf(LessonMeta{}, f.Guidelines()[0].Subtopic).Questions[0]
		for _, reply := range c.right {
			if r := answer.Evaluate(q.Expected(), reply); r.Verdict != answer.Correct {
				t.Errorf("answer %q (kind %s): the right reply %q is judged %s", c.answer, c.kind, reply, r.Verdict)
			}
		}
	}
}

func TestParseErrors(t *testing.T) {
	edit := func(pairs ...string) string { return strings.NewReplacer(pairs...).Replace(validDoc) }
	tests := []struct {
		name string
		doc  string
		want []string
	}{
		{
			name: "invalid YAML",
			doc:  edit("grade: 7", "grade: [7"),
			want: []string{`x.yaml:4: invalid YAML: ',' or ']' must be specified`},
		},
		{
			name: "empty file",
			doc:  "# nothing here\n",
			want: []string{`x.yaml: the file is empty`},
		},
		{
			name: "two documents",
			doc:  validDoc + "---\n" + validDoc,
			want: []string{`x.yaml:30: a curriculum file holds one YAML document, not 2`},
		},
		{
			name: "not a mapping",
			doc:  "- India\n- CBSE\n",
			want: []string{`x.yaml:1: must be a mapping, not a list`},
		},
		{
			name: "non-numeric grade",
			doc:  edit("grade: 7", "grade: seven"),
			want: []string{`x.yaml:3: grade: must be an integer, not "seven"`},
		},
		{
			name: "grade out of range",
			doc:  edit("grade: 7", "grade: 13"),
			want: []string{`x.yaml:3: grade: must be an integer from 1 to 12, not 13`},
		},
		{
			name: "missing grade",
			doc:  edit("grade: 7\n", ""),
			want: []string{`x.yaml:1: grade: required: an integer from 1 to 12`},
		},
		{
			name: "unknown field",
			doc:  edit("difficulty: easy", "dificulty: easy"),
			want: []string{
				`x.yaml:20: subtopics[0].questions[0].difficulty: required: one of easy, medium, hard`,
				`x.yaml:25: subtopics[0].questions[0].dificulty: unknown field (did you mean "difficulty"?)`,
			},
		},
		{
			name: "unknown field far from any",
			doc:  edit("country: India", "country: India\nregion: South Asia"),
			want: []string{`x.yaml:2: region: unknown field; known fields: board, country, grade, subject, subtopics, topic`},
		},
		{
			name: "wrong shape",
			doc:  edit("learning_objectives: [Add like fractions.]", "learning_objectives: Add like fractions."),
			want: []string{
				`x.yaml:12: subtopics[0].learning_objectives: must be a list, not "Add like fractions."`,
			},
		},
		{
			name: "alias",
			doc:  edit("title: Adding fractions", "title: &t Adding fractions", "content: Add the numerators and keep the denominator.", "content: *t"),
			want: []string{`x.yaml:16: subtopics[0].plan[0].content: aliases are not supported`},
		},
		{
			name: "bad slug",
			doc:  edit("key: adding-fractions", "key: Adding Fractions"),
			want: []string{`x.yaml:9: subtopics[0].key: "Adding Fractions" is not a key: use lowercase letters, digits and single hyphens, like "adding-fractions"`},
		},
		{
			name: "bad difficulty",
			doc:  edit("difficulty: easy", "difficulty: hardest"),
			want: []string{`x.yaml:25: subtopics[0].questions[0].difficulty: must be one of easy, medium, hard, not "hardest"`},
		},
		{
			name: "bad question type",
			doc:  edit("type: procedural", "type: recall"),
			want: []string{`x.yaml:26: subtopics[0].questions[0].type: must be one of conceptual, procedural, application, not "recall"`},
		},
		{
			name: "bad kind",
			doc:  edit("kind: fraction", "kind: essay"),
			want: []string{`x.yaml:23: subtopics[0].questions[0].kind: must be one of integer, decimal, fraction, mixed_number, percentage, unit, choice, text, boolean, list, set, expression, ratio, not "essay"`},
		},
		{
			name: "bad step type",
			doc:  edit("type: explain", "type: lecture"),
			want: []string{`x.yaml:15: subtopics[0].plan[0].type: must be one of explain, check, practice, not "lecture"`},
		},
		{
			name: "bad status",
			doc:  edit("title: Adding fractions", "title: Adding fractions\n    status: published"),
			want: []string{`x.yaml:11: subtopics[0].status: must be one of approved, draft, not "published"`},
		},
		{
			// A blank status would otherwise publish a draft to learners.
			name: "blank status",
			doc:  edit("title: Adding fractions", "title: Adding fractions\n    status:"),
			want: []string{`x.yaml:11: subtopics[0].status: required: one of approved, draft`},
		},
		{
			name: "blank quoted status",
			doc:  edit("title: Adding fractions", "title: Adding fractions\n    status: \"\""),
			want: []string{`x.yaml:11: subtopics[0].status: required: one of approved, draft`},
		},
		{
			name: "one hint",
			doc:  edit("hints: [Count the fifths., Add the numerators 1 and 2.]", "hints: [Count the fifths.]"),
			want: []string{`x.yaml:27: subtopics[0].questions[0].hints: must be exactly two hints (a conceptual nudge, then the first step), not 1`},
		},
		{
			name: "repeated hint",
			doc:  edit("Add the numerators 1 and 2.]", "Count the fifths.]"),
			want: []string{`x.yaml:27: subtopics[0].questions[0].hints[1]: repeats the first hint`},
		},
		{
			name: "misconception answers without the misconception",
			doc:  edit("        solution: 1/5 + 2/5 = 3/5.\n", "        solution: 1/5 + 2/5 = 3/5.\n        misconception_answers: [\"3/10\"]\n"),
			want: []string{`x.yaml:20: subtopics[0].questions[0].misconception: required with misconception_answers: the mistake those answers show`},
		},
		{
			name: "misconception answer that is right",
			doc: edit("        solution: 1/5 + 2/5 = 3/5.\n", "        solution: 1/5 + 2/5 = 3/5.\n"+
				"        misconception: Adds the denominators too and gets 3/10.\n        misconception_answers: [\"3/10\", \"6/10\"]\n"),
			want: []string{`x.yaml:30: subtopics[0].questions[0].misconception_answers[1]: "6/10" is judged right; list only wrong answers`},
		},
		{
			name: "misconception answer that never matches",
			doc: edit("        solution: 1/5 + 2/5 = 3/5.\n", "        solution: 1/5 + 2/5 = 3/5.\n"+
				"        misconception: Adds the tops only.\n        misconception_answers: [\"add the tops\", \"\"]\n"),
			want: []string{
				`x.yaml:30: subtopics[0].questions[0].misconception_answers[0]: "add the tops" cannot be read as a fraction answer, so it would never match a reply`,
				`x.yaml:30: subtopics[0].questions[0].misconception_answers[1]: required`,
			},
		},
		{
			name: "missing solution",
			doc:  edit("        solution: 1/5 + 2/5 = 3/5.\n", ""),
			want: []string{`x.yaml:20: subtopics[0].questions[0].solution: required`},
		},
		{
			name: "concept not in plan",
			doc:  edit("concept: Like fractions\n        difficulty", "concept: Unlike fractions\n        difficulty"),
			want: []string{
				`x.yaml:17: subtopics[0].plan[1]: check step on "Like fractions" has no questions: add questions with that concept`,
				`x.yaml:24: subtopics[0].questions[0].concept: "Unlike fractions" is not a concept of the plan: "Like fractions"`,
			},
		},
		{
			name: "missing concept with a plan",
			doc:  edit("        concept: Like fractions\n        difficulty", "        difficulty"),
			want: []string{
				`x.yaml:17: subtopics[0].plan[1]: check step on "Like fractions" has no questions: add questions with that concept`,
				`x.yaml:20: subtopics[0].questions[0].concept: required: one of the plan's concepts: "Like fractions"`,
			},
		},
		{
			name: "explain step without content",
			doc:  edit("        content: Add the numerators and keep the denominator.\n", ""),
			want: []string{`x.yaml:14: subtopics[0].plan[0].content: required for an explain step`},
		},
		{
			name: "inferred explain step without content",
			doc:  edit("        type: explain\n        content: Add the numerators and keep the denominator.\n", ""),
			want: []string{`x.yaml:14: subtopics[0].plan[0].content: required: this is an explain step (its type was inferred; set type to change it)`},
		},
		{
			name: "plan without steps",
			doc: edit(
				"plan:\n      - title: Like fractions\n        type: explain\n        content: Add the numerators and keep the denominator.\n"+
					"      - title: \"Check: like fractions\"\n        concept: Like fractions\n",
				"plan: []\n"),
			want: []string{
				`x.yaml:13: subtopics[0].plan: has no steps; omit plan to use the default plan`,
				`x.yaml:19: subtopics[0].questions[0].concept: "Like fractions" is not a concept of the plan: "Adding fractions"`,
			},
		},
		{
			name: "choice without options",
			doc:  edit("kind: fraction", "kind: choice"),
			want: []string{`x.yaml:20: subtopics[0].questions[0].options: required: a choice question needs at least two options`},
		},
		{
			name: "choice answer not an option",
			doc:  edit("kind: fraction", "kind: choice\n        options: [1/5, 2/5]"),
			want: []string{`x.yaml:22: subtopics[0].questions[0].answer: must be an option's letter (A to B) or the text of one of the options`},
		},
		{
			name: "repeated option",
			doc:  edit(`answer: "3/5"`, `answer: "C"`, "kind: fraction", "kind: choice\n        options: [1/5, 2/5, 2/5]"),
			want: []string{`x.yaml:24: subtopics[0].questions[0].options[2]: repeats options[1]`},
		},
		{
			name: "options without choice",
			doc:  edit("kind: fraction", "kind: fraction\n        options: [1/5, 3/5]"),
			want: []string{`x.yaml:24: subtopics[0].questions[0].options: only choice questions have options`},
		},
		{
			name: "answer not of its kind",
			doc:  edit("kind: fraction", "kind: integer"),
			want: []string{`x.yaml:22: subtopics[0].questions[0].answer: "3/5" is not a valid integer answer (for example "42")`},
		},
		{
			name: "answer not a ratio",
			doc:  edit("kind: fraction", "kind: ratio"),
			want: []string{`x.yaml:22: subtopics[0].questions[0].answer: "3/5" is not a valid ratio answer (for example "3:5")`},
		},
		{
			// The evaluator closes up spaces around a fraction's slash,
			// not tabs.
			name: "fraction spaced with a tab",
			doc:  edit(`answer: "3/5"`, `answer: "3\t/ 5"`),
			want: []string{`x.yaml:22: subtopics[0].questions[0].answer: "3\t/ 5" is not a valid fraction answer (for example "3/4")`},
		},
		{
			name: "accepted answer not of its kind",
			doc:  edit("kind: fraction", "kind: fraction\n        accept: [\"6 / 10\", n/a]"),
			want: []string{`x.yaml:24: subtopics[0].questions[0].accept[1]: "n/a" cannot be read as a fraction answer, so it would never match a reply`},
		},
		{
			name: "duplicate question id",
			doc: validDoc + `      - id: like-1
        question: What is 2/7 + 3/7?
        answer: "5/7"
        concept: Like fractions
        difficulty: easy
        type: procedural
        hints: [Count the sevenths., Add the numerators 2 and 3.]
        solution: 2/7 + 3/7 = 5/7.
`,
			want: []string{`x.yaml:29: subtopics[0].questions[1].id: duplicate question id "like-1" (also questions[0])`},
		},
		{
			name: "names with spaces around them, or too long",
			doc: strings.NewReplacer("board: CBSE", `board: "CBSE "`, "    title: Adding fractions", "    title: "+strings.Repeat("x", 151)).
				Replace(validDoc),
			want: []string{
				`x.yaml:2: board: "CBSE " begins or ends with spaces`,
				`x.yaml:10: subtopics[0].title: is 151 characters long; at most 150`,
			},
		},
		{
			name: "control characters in names and concepts",
			doc:  strings.NewReplacer("board: CBSE", `board: "CB\tSE"`, "      - title: Like fractions", `      - title: "Like\x1ffractions"`).Replace(validDoc),
			want: []string{
				`x.yaml:2: board: "CB\tSE" contains a control character`,
				`x.yaml:14: subtopics[0].plan[0].title: "Like\x1ffractions" contains a control character`,
			},
		},
		{
			// An invisible character pasted with a name from a web page would
			// make a second board that every listing shows as "CBSE" but that
			// GET /curriculum?board=CBSE does not find. A joiner within a
			// name, as Indic scripts use, is allowed.
			name: "invisible characters in names",
			doc: strings.NewReplacer("country: India", `country: "\u2060India"`, "board: CBSE", `board: "CBSE\u200b"`,
				"  title: Fractions", `  title: "Fractions\ufeff"`, "    title: Adding fractions", "    title: \"Adding fractions (\u0915\u094d\u200d\u0937)\"").
				Replace(validDoc),
			want: []string{
				`x.yaml:1: country: "\u2060India" contains the invisible character U+2060, which would make a second name that looks the same`,
				`x.yaml:2: board: "CBSE\u200b" contains the invisible character U+200B, which would make a second name that looks the same`,
				`x.yaml:7: topic.title: "Fractions\ufeff" contains the invisible character U+FEFF, which would make a second name that looks the same`,
			},
		},
		{
			// A NUL cannot be stored, so a text holding one would pass the
			// checks and fail the import in the database, without a line.
			name: "control characters in texts",
			doc: edit("solution: 1/5 + 2/5 = 3/5.", `solution: "1/5 + 2/5 = 3/5.\0"`,
				"content: Add the numerators", `content_hint: "\x7f"`+"\n        content: Add the numerators",
				"hints: [Count the fifths.,", `hints: ["Count\athe fifths.",`,
				"teaching_approach: Use strips cut into equal parts.", `teaching_approach: "Use strips\tcut into equal parts.\r\n"`),
			want: []string{
				`x.yaml:16: subtopics[0].plan[0].content_hint: contains the control character U+007F; text may hold tabs and line breaks but no other control characters`,
				`x.yaml:28: subtopics[0].questions[0].hints[0]: contains the control character U+0007; text may hold tabs and line breaks but no other control characters`,
				`x.yaml:29: subtopics[0].questions[0].solution: contains the control character U+0000; text may hold tabs and line breaks but no other control characters`,
			},
		},
		{
			// Windows-1252 or Latin-1 (an editor's default on Windows) saves
			// "é" as the byte 0xE9 and "×" as 0xD7, which would be read as
			// U+FFFD and garble the lesson.
			name: "not UTF-8",
			doc: edit("title: Adding fractions", "title: Moiti\xe9s",
				"teaching_approach: Use strips cut into equal parts.", "teaching_approach: Use strips cut into 2 \xd7 4 equal parts."),
			want: []string{`x.yaml:10: the file is not UTF-8: byte 0xE9 on this line is not a UTF-8 character; save the file as UTF-8`},
		},
		{
			name: "duplicate subtopic key",
			doc:  validDoc + validDoc[strings.Index(validDoc, "  - key: adding-fractions"):],
			want: []string{`x.yaml:29: subtopics[1].key: duplicate subtopic key "adding-fractions" (also subtopics[0])`},
		},
		{
			// The picker lists subtopics by title: two alike would show one
			// name twice, and a link by name would find either.
			name: "duplicate subtopic title",
			doc: validDoc + strings.Replace(validDoc[strings.Index(validDoc, "  - key: adding-fractions"):],
				"key: adding-fractions", "key: adding-fractions-again", 1),
			want: []string{`x.yaml:30: subtopics[1].title: duplicate subtopic title "Adding fractions" (also subtopics[0]): learners choose a subtopic by its title`},
		},
		{
			name: "overlong key",
			doc:  edit("key: adding-fractions", "key: "+strings.Repeat("a", 151)),
			want: []string{`x.yaml:9: subtopics[0].key: is 151 characters long; at most 150`},
		},
		{
			name: "bad prerequisites",
			doc:  edit("    plan:", "    prerequisites: [fractions, mathematics/fractions/adding-fractions, science/a/b, science/a/b]\n    plan:"),
			want: []string{
				`x.yaml:13: subtopics[0].prerequisites[0]: "fractions" is not a subtopic key like "mathematics/fractions/adding-fractions"`,
				`x.yaml:13: subtopics[0].prerequisites[1]: a subtopic cannot be its own prerequisite`,
				`x.yaml:13: subtopics[0].prerequisites[3]: "science/a/b" is listed twice`,
			},
		},
		{
			name: "bad mastery",
			doc:  edit("    plan:", "    mastery: {prior: 1.5, learn: 0.1, guess: 0.6, slip: 0.5}\n    plan:"),
			want: []string{
				`x.yaml:13: subtopics[0].mastery.prior: must be a probability from 0 to 1, not 1.5`,
				`x.yaml:13: subtopics[0].mastery: guess + slip must be below 1, or a right answer would say nothing about mastery`,
			},
		},
		{
			name: "incomplete mastery",
			doc:  edit("    plan:", "    mastery: {prior: 0.2, learn: 0.1, guess: 0.2}\n    plan:"),
			want: []string{`x.yaml:13: subtopics[0].mastery.slip: required: a probability from 0 to 1`},
		},
		{
			name: "bad depth",
			doc:  edit("    plan:", "    required_depth: deep\n    plan:"),
			want: []string{`x.yaml:13: subtopics[0].required_depth: must be one of basic, intermediate, advanced, not "deep"`},
		},
		{
			// YAML reads 010 as the octal number 8, where the author means ten.
			name: "grade with a leading zero",
			doc:  edit("grade: 7", "grade: 010"),
			want: []string{`x.yaml:3: grade: must be an integer without a leading zero, not "010": YAML reads a number with a leading zero as octal`},
		},
		{
			name: "missing fields",
			doc:  "country: India\nboard: CBSE\ngrade: 7\nsubject: '?'\ntopic: {}\nsubtopics: []\n",
			want: []string{
				`x.yaml:4: subject: must contain a letter from a to z or a digit`,
				`x.yaml:5: topic.key: required`,
				`x.yaml:5: topic.title: required`,
				`x.yaml:6: subtopics: required: at least one subtopic`,
			},
		},
		{
			name: "several problems",
			doc: edit(
				"grade: 7", "grade: 0",
				"kind: fraction", "kind: fractions",
				"difficulty: easy", "difficulty: simple",
			),
			want: []string{
				`x.yaml:3: grade: must be an integer from 1 to 12, not 0`,
				`x.yaml:23: subtopics[0].questions[0].kind: must be one of integer, decimal, fraction, mixed_number, percentage, unit, choice, text, boolean, list, set, expression, ratio, not "fractions"`,
				`x.yaml:25: subtopics[0].questions[0].difficulty: must be one of easy, medium, hard, not "simple"`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("x.yaml", []byte(tt.doc))
			var verr *ValidationError
			if !errors.As(err, &verr) {
				t.Fatalf("Parse error = %v, want a *ValidationError", err)
			}
			var got []string
			for _, i := range verr.Issues {
				got = append(got, i.String())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("issues mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
