// Package mrbench measures tutord's answer-leak detector against MRBench
// (Maurya et al., NAACL 2025; data/mrbench): human labels of whether a
// tutor's response reveals the answer, on dialogues whose problems come
// from MathDial and so have a ground-truth answer.
package mrbench

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"

	"github.com/tutord/tutord/internal/tutor/answer"
)

// Revealed is the label of a response that reveals the right answer.
const Revealed = "Yes (and the answer is correct)"

// Dialogue is one MRBench dialogue with its tutors' responses.
type Dialogue struct {
	ConversationID string              `json:"conversation_id"`
	History        string              `json:"conversation_history"`
	Data           string              `json:"Data"` // MathDial or Bridge
	GroundTruth    string              `json:"Ground_Truth_Solution"`
	Responses      map[string]Response `json:"anno_llm_responses"`
}

// Response is one tutor's response and its human labels.
type Response struct {
	Response   string `json:"response"`
	Annotation struct {
		Revealing string `json:"Revealing_of_the_Answer"`
	} `json:"annotation"`
}

// ReadFile reads an MRBench JSON file.
func ReadFile(name string) ([]Dialogue, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var ds []Dialogue
	if err := json.Unmarshal(data, &ds); err != nil {
		return nil, fmt.Errorf("%s: not MRBench JSON: %w", name, err)
	}
	return ds, nil
}

// Figures are the detector's scores against the labels; the positive
// class is "reveals the answer".
type Figures struct {
	Responses int `json:"responses"`
	// Dialogues counts the MathDial dialogues scored; Skipped the others
	// (Bridge dialogues have no ground-truth answer).
	Dialogues int     `json:"dialogues"`
	Skipped   int     `json:"skipped"`
	Positives int     `json:"positives"` // responses labelled revealing
	TP        int     `json:"true_positives"`
	FP        int     `json:"false_positives"`
	FN        int     `json:"false_negatives"`
	TN        int     `json:"true_negatives"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
}

// Judgement is the detector's call on one response.
type Judgement struct {
	Dialogue, Tutor string
	Answer          string
	Response        string
	Labelled        bool // the humans say it reveals the answer
	Detected        bool // the detector says so
	Leak            string
}

// Bench runs answer.DetectLeaks — the detector tutord's pipeline uses — on
// every response of the MathDial dialogues, given the dialogue so far and
// the expected answer (the ground truth's last line), and scores it.
func Bench(ds []Dialogue) (Figures, []Judgement) {
	var f Figures
	var js []Judgement
	for _, d := range ds {
		if d.Data != "MathDial" {
			f.Skipped++
			continue
		}
		final := lastLine(d.GroundTruth)
		if final == "" {
			f.Skipped++
			continue
		}
		f.Dialogues++
		question, dialogue := parseHistory(d.History)
		tutors := make([]string, 0, len(d.Responses))
		for name := range d.Responses {
			tutors = append(tutors, name)
		}
		sort.Strings(tutors)
		for _, name := range tutors {
			r := d.Responses[name]
			reply := strings.ReplaceAll(r.Response, "\u00a0", " ")
			leaks := answer.DetectLeaks(answer.LeakCheck{Expected: answer.Expected{Answer: final}, Question: question, Dialogue: dialogue, Reply: reply})
			j := Judgement{Dialogue: d.ConversationID, Tutor: name, Answer: final, Response: reply,
				Labelled: r.Annotation.Revealing == Revealed, Detected: len(leaks) > 0}
			if j.Detected {
				j.Leak = leaks[0].Sentence.Text
			}
			js = append(js, j)
			switch {
			case j.Detected && j.Labelled:
				f.TP++
			case j.Detected:
				f.FP++
			case j.Labelled:
				f.FN++
			default:
				f.TN++
			}
		}
	}
	f.Responses = f.TP + f.FP + f.FN + f.TN
	f.Positives = f.TP + f.FN
	f.Precision = ratio(f.TP, f.TP+f.FP)
	f.Recall = ratio(f.TP, f.TP+f.FN)
	f.F1 = ratio(2*f.TP, 2*f.TP+f.FP+f.FN)
	return f, js
}

// parseHistory turns the "Tutor: ... / Student: ..." history into a
// dialogue (lines without a speaker continue the turn before) and returns
// the problem, which the first tutor turn quotes.
func parseHistory(h string) (question string, dialogue []answer.Utterance) {
	h = strings.ReplaceAll(h, "\u00a0", " ")
	for _, line := range strings.Split(h, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "Tutor:"):
			dialogue = append(dialogue, answer.Utterance{Role: answer.RoleTutor, Text: strings.TrimSpace(line[len("Tutor:"):])})
		case strings.HasPrefix(line, "Student:"):
			dialogue = append(dialogue, answer.Utterance{Role: answer.RoleStudent, Text: strings.TrimSpace(line[len("Student:"):])})
		case len(dialogue) > 0 && line != "":
			dialogue[len(dialogue)-1].Text += "\n" + line
		}
	}
	if len(dialogue) > 0 && dialogue[0].Role == answer.RoleTutor {
		question = dialogue[0].Text
		if _, q, ok := strings.Cut(question, "question is:"); ok {
			question = strings.TrimSpace(q)
		}
	}
	return question, dialogue
}

func lastLine(s string) string {
	s = strings.TrimRight(s, " \n")
	return strings.TrimSpace(s[strings.LastIndexByte(s, '\n')+1:])
}

func ratio(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return round4(float64(n) / float64(d))
}

func round4(x float64) float64 { return math.Round(x*10000) / 10000 }
