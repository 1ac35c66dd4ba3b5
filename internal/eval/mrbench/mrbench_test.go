package mrbench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tutord/tutord/internal/tutor/answer"

	"github.com/tutord/tutord/internal/repopath"
)

// TestLeakBench scores the pipeline's leak detector against MRBench's
// human labels on data/mrbench.
func TestLeakBench(t *testing.T) {
	ds, err := ReadFile(repopath.Join(t, "data/mrbench/dev.json"))
	if err != nil {
		t.Fatal(err)
	}
	f, js := Bench(ds)
	t.Logf("leak-bench: %d responses of %d MathDial dialogues (%d others skipped), %d labelled revealing; TP %d FP %d FN %d TN %d; precision %.4f recall %.4f F1 %.4f",
		f.Responses, f.Dialogues, f.Skipped, f.Positives, f.TP, f.FP, f.FN, f.TN, f.Precision, f.Recall, f.F1)
	if f.Responses != len(js) || f.Responses != f.TP+f.FP+f.FN+f.TN || f.Responses == 0 {
		t.Fatalf("counts do not add up: %+v with %d judgements", f, len(js))
	}
	if f.F1 < 0.8 {
		t.Errorf("F1 %.4f, want at least 0.8", f.F1)
	}
	for _, j := range js {
		if j.Detected != j.Labelled {
			t.Logf("%s %s (answer %s): labelled %v, detected %v: %q", j.Dialogue, j.Tutor, j.Answer, j.Labelled, j.Detected, j.Response)
		}
	}
}

func TestBench(t *testing.T) {
	d := func(data, gt string, responses map[string]Response) Dialogue {
		return Dialogue{ConversationID: "c-" + data, Data: data, GroundTruth: gt, Responses: responses,
			History: "Tutor: Hi, could you please solve this? The question is: Ann has 3 apples and buys 4 more. How many?\n Student: 3 + 4 = 8\nso 8 apples."}
	}
	r := func(text, label string) Response {
		var x Response
		x.Response, x.Annotation.Revealing = text, label
		return x
	}
	ds := []Dialogue{
		d("MathDial", "3 + 4 = 7\n 7", map[string]Response{
			"a": r("The answer is 7.", Revealed),                                     // TP
			"b": r("Count again: what is 3 + 4?", "No"),                              // TN
			"c": r("You said 8. Let's check that.", "No"),                            // TN: an echo
			"d": r("Think about it, seven", Revealed),                                // FN or TP: words
			"e": r("So the total is 7 apples.", "Yes (but the answer is incorrect)"), // FP
		}),
		d("Bridge", "Not Available", map[string]Response{"x": r("The answer is 7.", Revealed)}),
	}
	f, js := Bench(ds)
	if f.Dialogues != 1 || f.Skipped != 1 || f.Responses != 5 || len(js) != 5 || f.Positives != 2 {
		t.Fatalf("figures = %+v", f)
	}
	if f.TP+f.FN != 2 || f.FP+f.TN != 3 || f.FP != 1 {
		t.Errorf("confusion = TP %d FP %d FN %d TN %d", f.TP, f.FP, f.FN, f.TN)
	}
	if got := []string{js[0].Tutor, js[4].Tutor}; !cmp.Equal(got, []string{"a", "e"}) {
		t.Errorf("judgements are not in tutor order: %v", got)
	}
	want := float64(f.TP) / float64(f.TP+f.FP)
	if diff := f.Precision - want; diff > 1e-4 || diff < -1e-4 {
		t.Errorf("precision %v, want %v", f.Precision, want)
	}
}

func TestParseHistory(t *testing.T) {
	q, dialogue := parseHistory("Tutor: Hi! The question is: How many apples?\n Student: 3 + 4 = 8\nso 8.\nTutor: Why 8?")
	if q != "How many apples?" {
		t.Errorf("question = %q", q)
	}
	want := []answer.Utterance{
		{Role: answer.RoleTutor, Text: "Hi! The question is: How many apples?"},
		{Role: answer.RoleStudent, Text: "3 + 4 = 8\nso 8."},
		{Role: answer.RoleTutor, Text: "Why 8?"},
	}
	if diff := cmp.Diff(want, dialogue); diff != "" {
		t.Errorf("dialogue (-want +got):\n%s", diff)
	}
	if got := lastLine("a\nb\n 42 \n"); got != "42" {
		t.Errorf("lastLine = %q", got)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("ReadFile of a missing file: want an error")
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte("{"), 0o644)
	if _, err := ReadFile(bad); err == nil || !strings.Contains(err.Error(), "not MRBench JSON") {
		t.Errorf("ReadFile of bad JSON: %v", err)
	}
}
