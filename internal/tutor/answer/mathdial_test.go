package answer

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/repopath"
)

type mathDialRow struct {
	QID              int    `json:"qid"`
	GroundTruth      string `json:"ground_truth"`
	StudentIncorrect string `json:"student_incorrect_solution"`
}

// splitSolution separates a worked solution's prose from its last line, the
// bare final number.
func splitSolution(s string) (prose, final string) {
	s = strings.TrimRight(s, " \n")
	i := strings.LastIndexByte(s, '\n')
	if i < 0 {
		return "", strings.TrimSpace(s)
	}
	return s[:i], strings.TrimSpace(s[i+1:])
}

// TestMathDialWorkedSolutions checks that the final answer of a worked
// solution is found in its prose: the ground-truth solution must be judged
// correct and the student's wrong solution incorrect, against the
// ground-truth number.
func TestMathDialWorkedSolutions(t *testing.T) {
	f, err := os.Open(repopath.Join(t, "data/mathdial/dev.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<24)
	var n, gtOK, stOK int
	for sc.Scan() {
		var r mathDialRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line %d: %v", n+1, err)
		}
		n++
		gtProse, want := splitSolution(r.GroundTruth)
		stProse, _ := splitSolution(r.StudentIncorrect)
		exp := Expected{Answer: want}
		if got := Evaluate(exp, gtProse); got.Verdict == Correct {
			gtOK++
		} else {
			t.Logf("ground truth qid %d: want %s, got %+v\n%s", r.QID, want, got, tail(gtProse))
		}
		if got := Evaluate(exp, stProse); got.Verdict == Incorrect {
			stOK++
		} else {
			t.Logf("student qid %d: want not %s, got %+v\n%s", r.QID, want, got, tail(stProse))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no conversations in the data file")
	}
	gt, st := float64(gtOK)/float64(n), float64(stOK)/float64(n)
	t.Logf("MathDial: %d conversations; ground truth judged correct %d (%.1f%%); student judged incorrect %d (%.1f%%)",
		n, gtOK, 100*gt, stOK, 100*st)
	if gt < 0.995 || st < 0.995 {
		t.Errorf("extraction accuracy below 99.5%%: ground truth %.1f%%, student %.1f%%", 100*gt, 100*st)
	}
}

func tail(s string) string {
	if i := strings.LastIndexByte(strings.TrimRight(s, " \n"), '\n'); i >= 0 {
		return "  …" + s[i:]
	}
	return "  " + s
}
