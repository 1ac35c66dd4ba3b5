package mathdial

import (
	"math"
	"slices"

	"github.com/tutord/tutord/internal/eval/runner"
)

// Figures compare tutord's replays with MathDial's labels.
type Figures struct {
	// Conversations counts the labelled conversations replayed; Skipped
	// those without a self-correctness label; Errors the replays that could
	// not be played to their end (left out of the rates).
	Conversations int `json:"conversations"`
	Skipped       int `json:"skipped"`
	Errors        int `json:"errors"`
	// VerdictAgreement is the share of conversations where tutord's
	// verdict — it judged a learner message correct (last_answer_result)
	// at some turn — agrees with MathDial's label (reached the answer:
	// "Yes" or "Yes, but I had to reveal the answer"; not: "No").
	VerdictAgreement float64 `json:"verdict_agreement"`
	// MajorityBaseline is the agreement of always answering the label the
	// file holds most.
	MajorityBaseline float64 `json:"majority_baseline"`
	// TellingRate is the share of conversations where a tutord reply gave
	// the answer away before the learner stated it (Telling@k of the
	// MathDial paper, for tutord's replies); TellingBeforeExplain counts
	// only replies before the hint ladder reached its explain phase.
	TellingRate          float64  `json:"telling_rate"`
	TellingBeforeExplain float64  `json:"telling_before_explain"`
	Verdicts             Verdicts `json:"verdicts"`
	// Turns counts the learner messages sent, in Duration (ms).
	Turns          int     `json:"turns"`
	Duration       float64 `json:"duration_ms"`
	TurnsPerSecond float64 `json:"turns_per_second"`
}

// Verdicts is the confusion matrix of tutord's verdicts against the
// labels.
type Verdicts struct {
	BothReached    int `json:"both_reached"`    // labelled reached, judged correct
	OnlyLabel      int `json:"only_label"`      // labelled reached, never judged correct
	OnlyTutord     int `json:"only_tutord"`     // labelled not reached, judged correct
	NeitherReached int `json:"neither_reached"` // labelled not reached, never judged correct
}

// Outcome is what a replay shows of one conversation.
type Outcome struct {
	// Judged reports that tutord judged a learner message correct.
	Judged bool
	// Telling reports a reply that gave the answer away before the
	// learner stated it; TellingBeforeExplain one before the explain phase.
	Telling, TellingBeforeExplain bool
}

// OutcomeOf reads a replay's outcome from its transcript.
func OutcomeOf(r runner.Result) Outcome {
	var o Outcome
	for _, t := range r.Turns {
		if t.Chat() && t.State.Result() == "correct" {
			o.Judged = true
		}
		if len(t.Leaks) > 0 {
			o.Telling = true
		}
		if slices.ContainsFunc(t.Leaks, func(l runner.Leak) bool { return l.BeforeExplain }) {
			o.TellingBeforeExplain = true
		}
	}
	return o
}

// Score compares the replays with the labels of g's conversations;
// results are the runner's, in any order, named by ScenarioName.
func Score(g *Generated, results []runner.Result, elapsed float64) Figures {
	f := Figures{Skipped: g.Skipped, Duration: elapsed}
	byName := map[string]runner.Result{}
	for _, r := range results {
		byName[r.Name] = r
		f.Turns += r.Metrics.Turns
	}
	reachedLabels, agree, telling, early := 0, 0, 0, 0
	for _, c := range g.Conversations {
		reached, _ := c.Reached()
		r, ok := byName[ScenarioName(c)]
		if !ok || r.Status == runner.Error {
			f.Errors++
			continue
		}
		f.Conversations++
		if reached {
			reachedLabels++
		}
		o := OutcomeOf(r)
		switch {
		case reached && o.Judged:
			f.Verdicts.BothReached++
		case reached:
			f.Verdicts.OnlyLabel++
		case o.Judged:
			f.Verdicts.OnlyTutord++
		default:
			f.Verdicts.NeitherReached++
		}
		if reached == o.Judged {
			agree++
		}
		if o.Telling {
			telling++
		}
		if o.TellingBeforeExplain {
			early++
		}
	}
	if n := f.Conversations; n > 0 {
		f.VerdictAgreement = share(agree, n)
		f.MajorityBaseline = share(max(reachedLabels, n-reachedLabels), n)
		f.TellingRate = share(telling, n)
		f.TellingBeforeExplain = share(early, n)
	}
	if elapsed > 0 {
		f.TurnsPerSecond = math.Round(float64(f.Turns)/(elapsed/1000)*100) / 100
	}
	return f
}

func share(n, d int) float64 { return math.Round(float64(n)/float64(d)*10000) / 10000 }
