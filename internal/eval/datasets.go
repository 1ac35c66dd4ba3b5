package eval

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/tutord/tutord/internal/auth"
	"github.com/tutord/tutord/internal/curriculum"
	"github.com/tutord/tutord/internal/eval/learner"
	"github.com/tutord/tutord/internal/eval/mathdial"
	"github.com/tutord/tutord/internal/eval/mrbench"
	"github.com/tutord/tutord/internal/eval/report"
	"github.com/tutord/tutord/internal/eval/runner"
	"github.com/tutord/tutord/internal/eval/scenario"
)

// importSummary is what import-mathdial prints without --run.
type importSummary struct {
	Conversations int    `json:"conversations"`
	Skipped       int    `json:"skipped"`
	Subtopics     int    `json:"subtopics"`
	Out           string `json:"out"`
}

func importMathDial(ctx context.Context, args []string, env Env) error {
	fs := newFlags("import-mathdial")
	out := fs.String("out", "", "")
	run := fs.Bool("run", false, "")
	limit := fs.Int("limit", 0, "")
	concurrency := fs.Int("concurrency", 8, "")
	asJSON := fs.Bool("json", false, "")
	files, err := parse(fs, args, env)
	if err != nil {
		return err
	}
	switch {
	case len(files) != 1:
		return usagef("import-mathdial needs one MathDial JSONL file")
	case *out == "" && !*run:
		return usagef("import-mathdial needs --out DIR, --run, or both")
	case *limit < 0:
		return usagef("--limit must not be negative")
	case *concurrency < 1 || *concurrency > 256:
		return usagef("--concurrency must be from 1 to 256, not %d", *concurrency)
	}
	convs, err := mathdial.ReadFile(files[0])
	if err != nil {
		return err
	}
	g, err := mathdial.Generate(convs, *limit)
	if err != nil {
		// What the file holds is at fault (nothing labelled, a problem the
		// curriculum cannot take): say which file.
		return fmt.Errorf("%s: %w", files[0], err)
	}
	dir := *out
	if dir == "" {
		if dir, err = os.MkdirTemp("", "tutord-mathdial-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	}
	if err := g.Write(dir); err != nil {
		return err
	}
	if !*run {
		s := importSummary{Conversations: len(g.Conversations), Skipped: g.Skipped, Subtopics: len(g.Curriculum.Subtopics), Out: dir}
		if *asJSON {
			return printJSON(env.Stdout, s)
		}
		_, err := fmt.Fprintf(env.Stdout, "%d conversations (%d skipped: no self-correctness label) as %d subtopics in %s and %d scenarios in %s\n",
			s.Conversations, s.Skipped, s.Subtopics, filepath.Join(dir, "curriculum"), s.Conversations, filepath.Join(dir, "scenarios"))
		return err
	}

	curDir := filepath.Join(dir, "curriculum")
	files2, err := curriculum.LoadPaths(curDir)
	if err != nil {
		return err
	}
	// Only this import's scenarios: dir/scenarios may hold an earlier
	// import's too, whose subtopics this curriculum no longer has.
	suite, err := scenario.Load(g.ScenarioPaths(dir)...)
	if err != nil {
		return err
	}
	if len(suite.Issues) > 0 {
		return fmt.Errorf("generated scenarios do not check: %s", suite.Issues[0])
	}
	secret, err := randomSecret("")
	if err != nil {
		return err
	}
	base, stop, err := startEmbedded(ctx, env, EmbeddedConfig{CurriculumDir: curDir, JWTSecret: secret})
	if err != nil {
		return err
	}
	defer stop()
	if err := checkAlive(ctx, env, base, 0); err != nil {
		return err
	}
	rule, err := auth.ParseAdminRule(auth.DefaultAdminRule)
	if err != nil {
		return err
	}
	cfg := runner.Config{
		BaseURL: base, HTTP: env.HTTP, Auth: runner.Auth{Secret: secret, Admin: rule}, Concurrency: *concurrency,
		Bank: learner.NewBank(files2), Now: env.Now, Done: progress(env.Stderr),
	}
	start := env.Now()
	results := runner.Run(ctx, cfg, suite.Scenarios)
	elapsed := env.Now().Sub(start)
	figures := mathdial.Score(g, results, float64(elapsed.Microseconds())/1000)
	if *out != "" {
		rep := &report.Report{Tool: report.Tool, Suite: filepath.Join(dir, "scenarios"), URL: base, StartedAt: start.UTC(),
			Concurrency: cfg.Parallelism(), Auth: "a minted token per scenario", Summary: runner.Summarize(results, elapsed, 0),
			Judge: report.Judge{Status: "skipped", Reason: "no judge model is configured"}, Invalid: []scenario.Issue{}, Scenarios: results}
		if err := writeFile(filepath.Join(dir, "report.json"), func(w io.Writer) error { return report.WriteJSON(w, rep) }); err != nil {
			return err
		}
	}
	if *asJSON {
		err = printJSON(env.Stdout, figures)
	} else {
		err = writeMathDialFigures(env.Stdout, figures)
	}
	if err != nil {
		return err
	}
	return replayError(figures, results)
}

// replayError reports a replay that measured less than it claims: figures
// that leave out errored conversations, or that score none, are no
// measure of tutord (exit status 1).
func replayError(f mathdial.Figures, results []runner.Result) error {
	if f.Errors == 0 {
		if f.Conversations == 0 {
			return errors.New("import-mathdial --run: no conversation was replayed, nothing was scored")
		}
		return nil
	}
	msg := fmt.Sprintf("import-mathdial --run: %d of %d replays could not be played to their end", f.Errors, f.Errors+f.Conversations)
	for _, r := range results {
		if r.Status == runner.Error {
			msg += fmt.Sprintf("; the first, %s: %s", r.Name, r.Error)
			break
		}
	}
	return errors.New(msg)
}

func writeMathDialFigures(w io.Writer, f mathdial.Figures) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "conversations replayed\t%d\t(%d skipped: no label; %d errors)\n", f.Conversations, f.Skipped, f.Errors)
	fmt.Fprintf(tw, "verdict agreement\t%.4f\twith MathDial's self-correctness label\n", f.VerdictAgreement)
	fmt.Fprintf(tw, "majority baseline\t%.4f\talways the commoner label\n", f.MajorityBaseline)
	fmt.Fprintf(tw, "telling rate\t%.4f\treplies that gave the answer away before the learner stated it\n", f.TellingRate)
	fmt.Fprintf(tw, "telling before explain\t%.4f\tthe same, before the explain phase (must be 0)\n", f.TellingBeforeExplain)
	v := f.Verdicts
	fmt.Fprintf(tw, "verdicts\t%d/%d/%d/%d\tboth reached / label only / tutord only / neither\n", v.BothReached, v.OnlyLabel, v.OnlyTutord, v.NeitherReached)
	fmt.Fprintf(tw, "throughput\t%.1f turns/s\t%d learner messages in %.1f s\n", f.TurnsPerSecond, f.Turns, f.Duration/1000)
	return tw.Flush()
}

func leakBench(args []string, env Env) error {
	fs := newFlags("leak-bench")
	asJSON := fs.Bool("json", false, "")
	verbose := fs.Bool("verbose", false, "")
	files, err := parse(fs, args, env)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return usagef("leak-bench needs one MRBench JSON file")
	}
	ds, err := mrbench.ReadFile(files[0])
	if err != nil {
		return err
	}
	f, judgements := mrbench.Bench(ds)
	if f.Responses == 0 {
		return fmt.Errorf("%s has no response of a MathDial dialogue to score", files[0])
	}
	if *asJSON {
		return printJSON(env.Stdout, f)
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "responses\t%d\t(%d MathDial dialogues; %d others skipped)\n", f.Responses, f.Dialogues, f.Skipped)
	fmt.Fprintf(tw, "revealing (labelled)\t%d\n", f.Positives)
	fmt.Fprintf(tw, "precision\t%.4f\n", f.Precision)
	fmt.Fprintf(tw, "recall\t%.4f\n", f.Recall)
	fmt.Fprintf(tw, "F1\t%.4f\n", f.F1)
	fmt.Fprintf(tw, "confusion\tTP %d  FP %d  FN %d  TN %d\n", f.TP, f.FP, f.FN, f.TN)
	if err := tw.Flush(); err != nil {
		return err
	}
	if *verbose {
		for _, j := range judgements {
			if j.Detected == j.Labelled {
				continue
			}
			kind := "missed"
			if j.Detected {
				kind = "false alarm: " + j.Leak
			}
			fmt.Fprintf(env.Stdout, "\n%s %s (answer %s), %s\n  %s\n", j.Dialogue, j.Tutor, j.Answer, kind, j.Response)
		}
	}
	return nil
}

func compare(args []string, env Env) error {
	fs := newFlags("compare")
	threshold := fs.Float64("threshold", 0.05, "")
	asJSON := fs.Bool("json", false, "")
	files, err := parse(fs, args, env)
	if err != nil {
		return err
	}
	if len(files) != 2 {
		return usagef("compare needs two reports: OLD.json NEW.json")
	}
	// NaN compares false with every change, so it would hide them all.
	if math.IsNaN(*threshold) || math.IsInf(*threshold, 0) {
		return usagef("--threshold must be a finite number, not %v", *threshold)
	}
	if *threshold < 0 {
		return usagef("--threshold must not be negative")
	}
	old, err := report.ReadJSON(files[0])
	if err != nil {
		return err
	}
	cur, err := report.ReadJSON(files[1])
	if err != nil {
		return err
	}
	c := report.Compare(old, cur, *threshold)
	if *asJSON {
		err = printJSON(env.Stdout, c)
	} else {
		err = report.WriteComparison(env.Stdout, c)
	}
	if err != nil {
		return err
	}
	if len(c.Regressions) > 0 {
		return &RegressionError{Regressions: c.Regressions}
	}
	return nil
}
