package answer

import (
	"encoding/json"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/repopath"
)

type mrbenchDialogue struct {
	ConversationID      string `json:"conversation_id"`
	ConversationHistory string `json:"conversation_history"`
	Data                string `json:"Data"`
	GroundTruthSolution string `json:"Ground_Truth_Solution"`
	Responses           map[string]struct {
		Response   string `json:"response"`
		Annotation struct {
			Revealing string `json:"Revealing_of_the_Answer"`
		} `json:"annotation"`
	} `json:"anno_llm_responses"`
}

// parseHistory turns MRBench's "Tutor: ... / Student: ..." history into a
// dialogue; lines without a speaker continue the previous turn. It also
// returns the problem statement, which the first tutor turn quotes.
func parseHistory(h string) (question string, dialogue []Utterance) {
	h = strings.ReplaceAll(h, "\u00a0", " ")
	for _, line := range strings.Split(h, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "Tutor:"):
			dialogue = append(dialogue, Utterance{Role: RoleTutor, Text: strings.TrimSpace(line[len("Tutor:"):])})
		case strings.HasPrefix(line, "Student:"):
			dialogue = append(dialogue, Utterance{Role: RoleStudent, Text: strings.TrimSpace(line[len("Student:"):])})
		case len(dialogue) > 0 && line != "":
			dialogue[len(dialogue)-1].Text += "\n" + line
		}
	}
	if len(dialogue) > 0 && dialogue[0].Role == RoleTutor {
		question = dialogue[0].Text
		if _, q, ok := strings.Cut(question, "question is:"); ok {
			question = strings.TrimSpace(q)
		}
	}
	return question, dialogue
}

// TestMRBenchLeaks measures the leak detector against MRBench's human
// "Revealing of the Answer" labels on its MathDial dialogues.
func TestMRBenchLeaks(t *testing.T) {
	raw, err := os.ReadFile(repopath.Join(t, "data/mrbench/dev.json"))
	if err != nil {
		t.Fatal(err)
	}
	var dialogues []mrbenchDialogue
	if err := json.Unmarshal(raw, &dialogues); err != nil {
		t.Fatalf("decode MRBench: %v", err)
	}
	var tp, fp, fn, tn int
	for _, d := range dialogues {
		if d.Data != "MathDial" {
			continue
		}
		_, final := splitSolution(d.GroundTruthSolution)
		question, dialogue := parseHistory(d.ConversationHistory)
		names := make([]string, 0, len(d.Responses))
		for name := range d.Responses {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			r := d.Responses[name]
			want := r.Annotation.Revealing == "Yes (and the answer is correct)"
			leaks := DetectLeaks(LeakCheck{
				Expected: Expected{Answer: final},
				Question: question,
				Dialogue: dialogue,
				Reply:    strings.ReplaceAll(r.Response, "\u00a0", " "),
			})
			got := len(leaks) > 0
			switch {
			case got && want:
				tp++
			case got && !want:
				fp++
				t.Logf("false positive %s %s (answer %s): %q — %+v", d.ConversationID[:8], name, final, r.Response, leaks[0])
			case !got && want:
				fn++
				t.Logf("false negative %s %s (answer %s): %q", d.ConversationID[:8], name, final, r.Response)
			default:
				tn++
			}
		}
	}
	if tp+fp+fn+tn == 0 {
		t.Fatal("no MathDial responses in the data file")
	}
	precision := float64(tp) / float64(max(tp+fp, 1))
	recall := float64(tp) / float64(max(tp+fn, 1))
	f1 := 0.0
	if precision+recall > 0 {
		f1 = 2 * precision * recall / (precision + recall)
	}
	t.Logf("MRBench (MathDial): %d responses; TP %d FP %d FN %d TN %d; precision %.3f recall %.3f F1 %.3f",
		tp+fp+fn+tn, tp, fp, fn, tn, precision, recall, f1)
	if f1 < 0.8 {
		t.Errorf("leak detection F1 %.3f, want >= 0.8", f1)
	}
}
