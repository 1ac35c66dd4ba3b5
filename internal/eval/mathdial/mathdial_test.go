package mathdial_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tutord/tutord/internal/auth"
	"github.com/tutord/tutord/internal/curriculum"
	"github.com/tutord/tutord/internal/eval/evaltest"
	"github.com/tutord/tutord/internal/eval/learner"
	"github.com/tutord/tutord/internal/eval/mathdial"
	"github.com/tutord/tutord/internal/eval/runner"
	"github.com/tutord/tutord/internal/eval/scenario"
	"github.com/tutord/tutord/internal/pgtest"

	"github.com/tutord/tutord/internal/repopath"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const sample = `{"qid": 7, "question": "Ann has 3 apples and buys 4 more. How many apples does she have?", "ground_truth": "Ann starts with 3 apples.\nShe has 3 + 4 = 7 apples.\n 7", "student_incorrect_solution": "3 + 4 = 8\n 8", "student_profile": "Ann is a 7th grade student.", "teacher_described_confusion": "adding wrongly", "self-correctness": "Yes, but I had to reveal the answer", "conversation": "Teacher: (generic)Hi Ann, talk me through it|EOM|Student: I added 3 and 4 and got 8.|EOM|Teacher: (telling)It is 7.|EOM|Riya: Oh, 7 apples.\nThanks!|EOM|Teacher: (generic)Good"}
{"qid": 8, "question": "Ben has 10 pens and gives away 4. How many are left?", "ground_truth": "10 - 4 = 6\n 6", "student_incorrect_solution": "10 - 4 = 5\n 5", "self-correctness": "", "conversation": "Teacher: (probing)How?|EOM|Student: 5"}
`

func TestRead(t *testing.T) {
	convs, err := mathdial.Read(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if len(convs) != 2 {
		t.Fatalf("%d conversations, want 2", len(convs))
	}
	c := convs[0]
	if c.Line != 1 || c.QID != 7 || c.Answer != "7" || c.Solution != "Ann starts with 3 apples.\nShe has 3 + 4 = 7 apples." || c.WrongAnswer != "8" {
		t.Errorf("conversation = %+v", c)
	}
	want := []mathdial.Turn{
		{Teacher: true, Move: "generic", Text: "Hi Ann, talk me through it"},
		{Text: "I added 3 and 4 and got 8."},
		{Teacher: true, Move: "telling", Text: "It is 7."},
		{Text: "Oh, 7 apples.\nThanks!"},
		{Teacher: true, Move: "generic", Text: "Good"},
	}
	if diff := cmp.Diff(want, c.Turns); diff != "" {
		t.Errorf("turns (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"I added 3 and 4 and got 8.", "Oh, 7 apples.\nThanks!"}, c.LearnerTurns()); diff != "" {
		t.Errorf("learner turns (-want +got):\n%s", diff)
	}
	for _, tt := range []struct {
		label       string
		reached, ok bool
	}{{"Yes", true, true}, {"Yes, but I had to reveal the answer", true, true}, {"No", false, true}, {"", false, false}} {
		reached, ok := mathdial.Conversation{SelfCorrectness: tt.label}.Reached()
		if reached != tt.reached || ok != tt.ok {
			t.Errorf("Reached(%q) = %v, %v", tt.label, reached, ok)
		}
	}
	for _, bad := range []string{"{not json", `{"qid": 1, "question": "", "ground_truth": "1"}`} {
		if _, err := mathdial.Read(strings.NewReader(bad)); err == nil {
			t.Errorf("Read(%q): want an error", bad)
		}
	}
}

func TestGenerate(t *testing.T) {
	convs, err := mathdial.Read(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	g, err := mathdial.Generate(convs, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Conversations) != 1 || g.Skipped != 1 || len(g.Scenarios) != 1 || len(g.Curriculum.Subtopics) != 1 {
		t.Fatalf("generated %d conversations, %d skipped, %d scenarios, %d subtopics", len(g.Conversations), g.Skipped, len(g.Scenarios), len(g.Curriculum.Subtopics))
	}
	dir := t.TempDir()
	if err := g.Write(dir); err != nil {
		t.Fatal(err)
	}
	files, err := curriculum.LoadPaths(filepath.Join(dir, "curriculum"))
	if err != nil {
		t.Fatalf("the generated curriculum does not load: %v", err)
	}
	q := learner.NewBank(files)
	sub, ok := q.Subtopic(mathdial.SubtopicKey(7))
	if !ok || len(sub.Topic.Questions) != 1 || sub.Topic.Questions[0].Answer != "7 apples" || len(sub.Topic.Steps) != 1 {
		t.Fatalf("subtopic %s: %+v", mathdial.SubtopicKey(7), sub)
	}
	if got := sub.Topic.Questions[0].Hints[1]; got != "Start like this: Ann starts with 3 apples." {
		t.Errorf("second hint = %q, want the solution's first step", got)
	}
	other, err := mathdial.Generate([]mathdial.Conversation{{Line: 1, QID: 9, Question: "How many?", Answer: "6", Solution: "10 - 4 = 6", SelfCorrectness: "No"}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := other.Curriculum.Subtopics[0].Questions[0].Hints[1]; strings.Contains(got, "6") {
		t.Errorf("second hint %q gives the answer away", got)
	}
	suite, err := scenario.Load(filepath.Join(dir, "scenarios"))
	if err != nil || len(suite.Issues) > 0 || len(suite.Scenarios) != 1 {
		t.Fatalf("scenarios: %v %v", err, suite.Issues)
	}
	sc := suite.Scenarios[0]
	var says []string
	for _, turn := range sc.Turns {
		says = append(says, turn.Say)
	}
	if diff := cmp.Diff([]string{mathdial.Ready, "I added 3 and 4 and got 8.", "Oh, 7 apples.\nThanks!"}, says); diff != "" {
		t.Errorf("replayed turns (-want +got):\n%s", diff)
	}
	if sc.Name != "mathdial-001-7" || sc.Subtopic != mathdial.SubtopicKey(7) {
		t.Errorf("scenario %s on %s", sc.Name, sc.Subtopic)
	}
	if _, err := mathdial.Generate(convs[1:], 0); err == nil {
		t.Error("Generate with no labelled conversation: want an error")
	}
}

// The expected answer takes the unit the solution gives the result, so
// that the right number of another quantity is not taken for the answer.
func TestGeneratedAnswerUnits(t *testing.T) {
	for _, c := range []struct{ solution, answer, want string }{
		{"They need 72 / 8 = 9 boxes to put in all their pencils.", "9", "9 boxes"},
		{"So he spent 10 + 5 + 20 = $35.", "35", "$35"},
		{"He must average 90 miles per hour to drive the remaining 90 miles in 1 hour", "90", "90"},
		{"He must read 24/4 = 6 pages a day.", "6", "6"},
		{"The room's perimeter is 2(40+9) = 98", "98", "98"},
		{"She has 30 + 10 = 40 in total.", "40", "40"},
		{"Together they scored 1,500 + 1,020 = 2,520 points.", "2,520", "2,520 points"},
		{"Each player scored 60 / 2 = 30 goals, and 30 goals is 10% of 300.", "30", "30 goals"},
	} {
		g, err := mathdial.Generate([]mathdial.Conversation{{Line: 1, QID: 1, Question: "How many?", Answer: c.answer, Solution: c.solution, SelfCorrectness: "Yes"}}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Curriculum.Subtopics[0].Questions[0].Answer; got != c.want {
			t.Errorf("solution %q: answer %q, want %q", c.solution, got, c.want)
		}
	}
}

// TestReplay imports every labelled conversation of data/mathdial, replays
// them against tutord with the rules engine and scores the replays against
// MathDial's labels.
func TestReplay(t *testing.T) {
	convs, err := mathdial.ReadFile(repopath.Join(t, "data/mathdial/dev.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := mathdial.Generate(convs, 0)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := g.Write(dir); err != nil {
		t.Fatal(err)
	}
	files, err := curriculum.LoadPaths(filepath.Join(dir, "curriculum"))
	if err != nil {
		t.Fatalf("the generated curriculum does not load: %v", err)
	}
	suite, err := scenario.Load(filepath.Join(dir, "scenarios"))
	if err != nil {
		t.Fatal(err)
	}
	if len(suite.Issues) > 0 || len(suite.Scenarios) != len(g.Conversations) {
		t.Fatalf("%d scenarios for %d conversations; issues: %v", len(suite.Scenarios), len(g.Conversations), suite.Issues)
	}
	labelled := 0
	for _, c := range convs {
		if _, ok := c.Reached(); ok {
			labelled++
		}
	}
	if len(g.Conversations) != labelled || g.Skipped != len(convs)-labelled {
		t.Fatalf("imported %d of %d labelled conversations, skipped %d", len(g.Conversations), labelled, g.Skipped)
	}

	url := evaltest.Start(t, evaltest.Options{CurriculumDir: filepath.Join(dir, "curriculum")})
	rule, err := auth.ParseAdminRule(auth.DefaultAdminRule)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	results := runner.Run(context.Background(), runner.Config{
		BaseURL: url, Auth: runner.Auth{Secret: evaltest.Secret, Admin: rule}, Bank: learner.NewBank(files), Concurrency: 8,
	}, suite.Scenarios)
	elapsed := time.Since(start)
	f := mathdial.Score(g, results, float64(elapsed.Milliseconds()))
	t.Logf("MathDial replay: %d conversations (%d skipped), %d learner messages in %s (%.0f turns/s); verdict_agreement %.4f, majority_baseline %.4f, telling_rate %.4f, telling_before_explain %.4f; verdicts %+v",
		f.Conversations, f.Skipped, f.Turns, elapsed.Round(time.Millisecond), f.TurnsPerSecond, f.VerdictAgreement, f.MajorityBaseline, f.TellingRate, f.TellingBeforeExplain, f.Verdicts)

	if testing.Verbose() {
		byName := map[string]runner.Result{}
		for _, r := range results {
			byName[r.Name] = r
		}
		for _, c := range g.Conversations {
			reached, _ := c.Reached()
			if o := mathdial.OutcomeOf(byName[mathdial.ScenarioName(c)]); o.Judged != reached {
				t.Logf("disagreement: %s labelled %q, tutord judged correct: %v", mathdial.ScenarioName(c), c.SelfCorrectness, o.Judged)
			}
		}
	}

	t.Run("every labelled conversation replays", func(t *testing.T) {
		for _, r := range results {
			if r.Status == runner.Error {
				t.Errorf("%s: %s", r.Name, r.Error)
			}
		}
		if f.Conversations != labelled || f.Errors != 0 {
			t.Errorf("scored %d conversations with %d errors, want %d and none", f.Conversations, f.Errors, labelled)
		}
	})
	t.Run("no telling before the explain phase", func(t *testing.T) {
		if f.TellingBeforeExplain != 0 {
			t.Errorf("telling_before_explain = %.4f, want 0", f.TellingBeforeExplain)
		}
	})
	t.Run("verdict agreement", func(t *testing.T) {
		// The floor allows for the labels' noise: MathDial's
		// self-correctness is "No" for some learners who were right at
		// once, as in qid 5000067, where "192 million dollars" answers
		// $192,000,000 and the teacher says "That looks like the right
		// answer!". tutord, which reads "192 million" as the number,
		// disagrees with such a label.
		if f.VerdictAgreement < 0.925 || f.VerdictAgreement <= f.MajorityBaseline {
			t.Errorf("verdict_agreement %.4f, want at least 0.925 and above the majority baseline %.4f", f.VerdictAgreement, f.MajorityBaseline)
		}
	})
}
