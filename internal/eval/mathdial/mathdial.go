// Package mathdial turns MathDial conversations (Macina et al., Findings
// of EMNLP 2023; data/mathdial) into an evaluation of tutord: each
// problem becomes a one-question subtopic of a generated curriculum, each
// conversation a scenario that replays the learner's turns in order, and
// the replies tutord gives are scored against MathDial's own labels.
package mathdial

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// Conversation is one MathDial conversation.
type Conversation struct {
	// Line is the conversation's line in the file (1-based).
	Line     int
	QID      int
	Question string
	// GroundTruth is the worked solution; Answer its last line, the final
	// number; Solution the lines before it.
	GroundTruth string
	Answer      string
	Solution    string
	// StudentIncorrect is the learner's wrong solution; WrongAnswer its
	// last line.
	StudentIncorrect string
	WrongAnswer      string
	StudentProfile   string
	Confusion        string // the teacher's description of the confusion
	// SelfCorrectness is the teacher's label: "Yes", "Yes, but I had to
	// reveal the answer", "No", or "" when missing.
	SelfCorrectness string
	Turns           []Turn
}

// Turn is one turn of a conversation.
type Turn struct {
	Teacher bool
	Move    string // the teacher's move: focus, probing, telling or generic
	Text    string
}

type row struct {
	QID              int    `json:"qid"`
	Question         string `json:"question"`
	GroundTruth      string `json:"ground_truth"`
	StudentIncorrect string `json:"student_incorrect_solution"`
	StudentProfile   string `json:"student_profile"`
	Confusion        string `json:"teacher_described_confusion"`
	SelfCorrectness  string `json:"self-correctness"`
	Conversation     string `json:"conversation"`
}

// ReadFile reads a MathDial JSONL file.
func ReadFile(name string) ([]Conversation, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	convs, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return convs, nil
}

// Read reads MathDial conversations, one JSON object a line.
func Read(r io.Reader) ([]Conversation, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<24)
	var out []Conversation
	line := 0
	for sc.Scan() {
		line++
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var rw row
		if err := json.Unmarshal(sc.Bytes(), &rw); err != nil {
			return nil, fmt.Errorf("line %d: %v", line, err)
		}
		c := Conversation{
			Line: line, QID: rw.QID, Question: strings.TrimSpace(rw.Question), GroundTruth: rw.GroundTruth,
			StudentIncorrect: rw.StudentIncorrect, StudentProfile: rw.StudentProfile, Confusion: rw.Confusion,
			SelfCorrectness: strings.TrimSpace(rw.SelfCorrectness), Turns: parseTurns(rw.Conversation),
		}
		c.Solution, c.Answer = splitSolution(rw.GroundTruth)
		_, c.WrongAnswer = splitSolution(rw.StudentIncorrect)
		if c.Question == "" || c.Answer == "" {
			return nil, fmt.Errorf("line %d: a conversation needs a question and a ground truth", line)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// splitSolution separates a worked solution's prose from its last line,
// the bare final number.
func splitSolution(s string) (prose, final string) {
	s = strings.TrimRight(s, " \n")
	i := strings.LastIndexByte(s, '\n')
	if i < 0 {
		return "", strings.TrimSpace(s)
	}
	return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:])
}

// parseTurns splits a conversation into turns: "|EOM|" separates them, a
// teacher's turn starts "Teacher: (move)", any other speaker is the
// learner (named "Student" or by name).
func parseTurns(conv string) []Turn {
	var out []Turn
	for _, part := range strings.Split(conv, "|EOM|") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		speaker, text, ok := strings.Cut(part, ":")
		speaker = strings.TrimSpace(speaker)
		if !ok || speaker == "" || strings.ContainsAny(speaker, " \t") {
			// No speaker: it continues the previous turn.
			if len(out) > 0 {
				out[len(out)-1].Text += "\n" + part
			}
			continue
		}
		t := Turn{Teacher: strings.EqualFold(speaker, "teacher"), Text: strings.TrimSpace(text)}
		if t.Teacher && strings.HasPrefix(t.Text, "(") {
			if end := strings.IndexByte(t.Text, ')'); end > 0 {
				t.Move, t.Text = t.Text[1:end], strings.TrimSpace(t.Text[end+1:])
			}
		}
		out = append(out, t)
	}
	return out
}

// Reached returns MathDial's label: whether the learner reached the
// correct answer ("Yes" and "Yes, but I had to reveal the answer") or not
// ("No"). ok is false for a conversation without a label.
func (c Conversation) Reached() (reached, ok bool) {
	switch {
	case c.SelfCorrectness == "No":
		return false, true
	case strings.HasPrefix(c.SelfCorrectness, "Yes"):
		return true, true
	}
	return false, false
}

// LearnerTurns returns the learner's turns, in order.
func (c Conversation) LearnerTurns() []string {
	var out []string
	for _, t := range c.Turns {
		if !t.Teacher && strings.TrimSpace(t.Text) != "" {
			out = append(out, t.Text)
		}
	}
	return out
}
