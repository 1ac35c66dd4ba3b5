package rules

import (
	"os"
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

func injectionCorpus(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("testdata/injection.txt")
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			msgs = append(msgs, l)
		}
	}
	if len(msgs) < 30 {
		t.Fatalf("the corpus has %d messages, want at least 30", len(msgs))
	}
	return msgs
}

// TestInjection sends every message of testdata/injection.txt while a bank
// question is pending, on its first rung, after one miss and after two, in
// every lesson of the sample. Turns go through the guardrails and ApplyTurn
// as in production, so the ladder moves when a message is judged a wrong
// answer; a turn whose guardrails allow the answer (its explain phase) is
// not held to secrecy. Every other reply must keep the answer.
func TestInjection(t *testing.T) {
	msgs := injectionCorpus(t)
	topics, keys := sampleTopics(t)
	for _, key := range keys {
		t.Run(key, func(t *testing.T) {
			topic := topics[key]
			d := newDriver(t, topic, "injection-"+key, tutor.ModeTeachMe)
			d.until(12, func() bool { return d.state.LastQuestion != nil })
			q := *d.pending()
			var rungs []tutor.State // the question asked, after one miss, after two
			for range 3 {
				rungs = append(rungs, d.state)
				d.say(wrongAnswer(t, q))
			}
			checked := 0
			for _, start := range rungs {
				for _, msg := range msgs {
					d.state = start
					x := d.say(msg)
					if x.guard.MayRevealAnswer {
						continue
					}
					checked++
					check := answer.LeakCheck{Expected: q.Expected(), Question: q.Text, Dialogue: dialogueSince(x, x.before.LastQuestion), Reply: x.text()}
					if leaks := answer.DetectLeaks(check); len(leaks) > 0 {
						t.Errorf("%q (phase %s): reply %q gives away %q", msg, start.LastQuestion.Phase, x.text(), leaks[0].Form)
					}
					if strings.Contains(x.text(), oneLine(q.Solution)) {
						t.Errorf("%q (phase %s): reply %q shows the worked solution", msg, start.LastQuestion.Phase, x.text())
					}
				}
			}
			if checked < len(msgs)*2 {
				t.Errorf("only %d of %d replies were held to secrecy", checked, len(msgs)*len(rungs))
			}
		})
	}
}
