package mathdial

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/tutord/tutord/internal/curriculum"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// The place of the generated curriculum: one topic of grade-school word
// problems, one subtopic per problem.
const (
	Country    = "India"
	Board      = "CBSE"
	Grade      = 7
	Subject    = "Mathematics"
	TopicKey   = "mathdial-word-problems"
	TopicTitle = "MathDial word problems"
	concept    = "Word problem"
	// Ready is the learner's first message, answering the welcome's
	// "ready?" before the replayed turns.
	Ready = "Yes, I'm ready."
)

// Generated is a curriculum and scenarios made from conversations.
type Generated struct {
	// Curriculum is the generated curriculum file.
	Curriculum *curriculum.File
	// Scenarios are the scenario files, by file name.
	Scenarios []ScenarioFile
	// Conversations are the conversations the scenarios replay, in the
	// same order; Skipped counts those left out for want of a label.
	Conversations []Conversation
	Skipped       int
}

// ScenarioFile is a generated scenario.
type ScenarioFile struct {
	Name string // the scenario's name, also its file name without .yaml
	Data []byte
}

// SubtopicKey returns the full key of a problem's subtopic.
func SubtopicKey(qid int) string {
	return curriculum.Slug(Subject) + "/" + TopicKey + "/problem-" + strconv.Itoa(qid)
}

// ScenarioName names a conversation's scenario.
func ScenarioName(c Conversation) string {
	return fmt.Sprintf("mathdial-%03d-%d", c.Line, c.QID)
}

// Generate makes the curriculum and the scenarios of the labelled
// conversations; limit, when above 0, keeps only the first ones. The
// curriculum is checked as an import would check it.
func Generate(convs []Conversation, limit int) (*Generated, error) {
	g := &Generated{Curriculum: &curriculum.File{
		Country: Country, Board: Board, Grade: Grade, Subject: Subject,
		Topic: curriculum.Topic{Key: TopicKey, Title: TopicTitle},
	}}
	seen := map[int]bool{}
	for _, c := range convs {
		if _, ok := c.Reached(); !ok {
			g.Skipped++
			continue
		}
		if limit > 0 && len(g.Conversations) >= limit {
			break
		}
		if !seen[c.QID] {
			seen[c.QID] = true
			g.Curriculum.Subtopics = append(g.Curriculum.Subtopics, subtopic(c))
		}
		data, err := scenarioYAML(c)
		if err != nil {
			return nil, err
		}
		g.Conversations = append(g.Conversations, c)
		g.Scenarios = append(g.Scenarios, ScenarioFile{Name: ScenarioName(c), Data: data})
	}
	if len(g.Conversations) == 0 {
		return nil, fmt.Errorf("no labelled conversation to import")
	}
	data, err := curriculum.Marshal(g.Curriculum)
	if err != nil {
		return nil, err
	}
	if _, err := curriculum.Parse(g.CurriculumPath(), data); err != nil {
		return nil, fmt.Errorf("the generated curriculum does not check: %w", err)
	}
	return g, nil
}

// CurriculumPath is where Write puts the curriculum, relative to its
// directory.
func (g *Generated) CurriculumPath() string {
	return filepath.Join("curriculum", filepath.FromSlash(g.Curriculum.Path()))
}

// Write writes the curriculum under dir/curriculum and the scenarios
// under dir/scenarios.
func (g *Generated) Write(dir string) error {
	data, err := curriculum.Marshal(g.Curriculum)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, g.CurriculumPath())
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, "scenarios"), 0o755); err != nil {
		return err
	}
	for i, path := range g.ScenarioPaths(dir) {
		if err := os.WriteFile(path, g.Scenarios[i].Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// ScenarioPaths returns where Write puts the scenarios, in order. Files of
// an earlier import to the same dir are not among them.
func (g *Generated) ScenarioPaths(dir string) []string {
	paths := make([]string, len(g.Scenarios))
	for i, s := range g.Scenarios {
		paths[i] = filepath.Join(dir, "scenarios", s.Name+".yaml")
	}
	return paths
}

// subtopic makes a problem's subtopic: one check step and one question,
// the problem, with the ground-truth answer and worked solution.
func subtopic(c Conversation) curriculum.Subtopic {
	q := curriculum.Question{
		ID: "problem", Question: c.Question, Answer: answerWithUnit(c), Concept: concept,
		Difficulty: curriculum.Medium, Type: curriculum.Application,
		Hints:    hints(c),
		Solution: strings.TrimSpace(c.Solution + "\n" + c.Answer),
	}
	if c.Confusion != "" {
		q.Misconception = "A common mistake: " + c.Confusion + "."
	}
	return curriculum.Subtopic{
		Key: "problem-" + strconv.Itoa(c.QID), Title: fmt.Sprintf("Word problem %d", c.QID),
		TeachingApproach: "Read the problem with the learner, list the quantities it gives and what it asks, " +
			"and solve it one step at a time, checking each step against the story.",
		LearningObjectives: []string{"Solve a multi-step word problem and check the answer against the story."},
		Plan:               []curriculum.Step{{Title: "Solve the problem", Concept: concept, Type: curriculum.StepCheck}},
		Questions:          []curriculum.Question{q},
	}
}

// unitAfter matches a number in a worked solution, with "$" before it or
// the word after it, and a rate word after that ("6 pages a day").
var unitAfter = regexp.MustCompile(`(=\s*)?(\$?)([0-9][0-9,]*(?:\.[0-9]+)?)(?:\s+([a-z]+))?(?:\s+(per|a|an|each|every)\b)?`)

// notAUnit are words that follow the final number in MathDial solutions
// without saying what it counts ("40 in total", "35 years old").
var notAUnit = map[string]bool{"total": true, "more": true, "old": true, "to": true, "in": true,
	"square": true, "times": true, "and": true, "is": true, "of": true, "for": true, "per": true,
	"dozen": true, "hundred": true, "thousand": true, "million": true}

// answerWithUnit returns the problem's answer with the unit the worked
// solution gives it on its last line — "$35", "9 boxes" — so that the
// right number of another quantity ("9 pencils per box") is not taken for
// the answer. The solution's result (after "=") counts before other
// mentions of the number; a rate, or no unit, leaves the bare number.
func answerWithUnit(c Conversation) string {
	lines := strings.Split(strings.TrimSpace(c.Solution), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	want := strings.ReplaceAll(c.Answer, ",", "")
	var pick []string
	for _, m := range unitAfter.FindAllStringSubmatch(last, -1) {
		if strings.ReplaceAll(m[3], ",", "") == want && (pick == nil || pick[1] == "" && m[1] != "") {
			pick = m
		}
	}
	switch {
	case pick == nil || pick[5] != "":
		return c.Answer
	case pick[2] == "$":
		return "$" + c.Answer
	case pick[4] != "" && !notAUnit[pick[4]]:
		return c.Answer + " " + pick[4]
	}
	return c.Answer
}

// hints returns the ladder's two hints: a nudge, then the solution's first
// step when it does not give the answer away.
func hints(c Conversation) []string {
	first := "Read the problem again: list the quantities it gives and decide what it asks you to find."
	second := "Work out one quantity at a time, starting with what the story tells you directly."
	exp := answer.Expected{Answer: c.Answer}
	for _, line := range strings.Split(c.Solution, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if len(answer.DetectLeaks(answer.LeakCheck{Expected: exp, Question: c.Question, Reply: line})) == 0 &&
			answer.Evaluate(exp, line).Verdict != answer.Correct {
			second = "Start like this: " + line
		}
		break
	}
	return []string{first, second}
}

// scenario is the part of the scenario format the import writes.
type scenarioDoc struct {
	Name        string    `yaml:"name"`
	Description string    `yaml:"description"`
	Tags        []string  `yaml:"tags"`
	Subtopic    string    `yaml:"subtopic"`
	Grade       int       `yaml:"grade"`
	Mode        string    `yaml:"mode"`
	Turns       []sayTurn `yaml:"turns"`
}

type sayTurn struct {
	Say string `yaml:"say"`
}

// scenarioYAML writes a conversation's scenario: the ready message, then
// the learner's turns in order.
func scenarioYAML(c Conversation) ([]byte, error) {
	label := strings.ToLower(strings.ReplaceAll(c.SelfCorrectness, ",", ""))
	d := scenarioDoc{
		Name:        ScenarioName(c),
		Description: fmt.Sprintf("MathDial conversation on line %d (problem %d), labelled %q: the learner's turns replayed.", c.Line, c.QID, c.SelfCorrectness),
		Tags:        []string{"mathdial", strings.Join(strings.Fields(label), "-")},
		Subtopic:    SubtopicKey(c.QID),
		Grade:       Grade,
		Mode:        "teach_me",
		Turns:       []sayTurn{{Say: Ready}},
	}
	for _, t := range c.LearnerTurns() {
		d.Turns = append(d.Turns, sayTurn{Say: t})
	}
	return yaml.MarshalWithOptions(d, yaml.UseLiteralStyleIfMultiline(true))
}
