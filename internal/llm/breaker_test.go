package llm

import (
	"testing"
	"time"
)

func TestBreaker(t *testing.T) {
	type step struct {
		advance time.Duration
		// allow is whether the next attempt is let through; report is what
		// it then reports (ignored when it is not let through).
		allow  bool
		report ErrorKind
		state  BreakerState // after the step
	}
	const fails = KindUnavailable
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"opens after consecutive failures", []step{
			{allow: true, report: fails, state: BreakerClosed},
			{allow: true, report: KindTimeout, state: BreakerClosed},
			{allow: true, report: fails, state: BreakerOpen},
			{allow: false, state: BreakerOpen},
		}},
		{"a success resets the count", []step{
			{allow: true, report: fails, state: BreakerClosed},
			{allow: true, report: fails, state: BreakerClosed},
			{allow: true, report: "", state: BreakerClosed},
			{allow: true, report: fails, state: BreakerClosed},
			{allow: true, report: fails, state: BreakerClosed},
		}},
		{"answers of a working provider do not count", []step{
			{allow: true, report: fails, state: BreakerClosed},
			{allow: true, report: fails, state: BreakerClosed},
			{allow: true, report: KindRateLimited, state: BreakerClosed},
			{allow: true, report: KindRefused, state: BreakerClosed},
			{allow: true, report: KindInvalidRequest, state: BreakerClosed},
			{allow: true, report: fails, state: BreakerClosed},
		}},
		{"probe after cooldown closes on success", []step{
			{allow: true, report: fails}, {allow: true, report: fails}, {allow: true, report: fails, state: BreakerOpen},
			{advance: 9 * time.Second, allow: false, state: BreakerOpen},
			{advance: time.Second, allow: true, report: "", state: BreakerClosed},
			{allow: true, report: "", state: BreakerClosed},
		}},
		{"failed probe reopens for a full cooldown", []step{
			{allow: true, report: fails}, {allow: true, report: fails}, {allow: true, report: fails, state: BreakerOpen},
			{advance: 10 * time.Second, allow: true, report: fails, state: BreakerOpen},
			{advance: 9 * time.Second, allow: false, state: BreakerOpen},
			{advance: time.Second, allow: true, report: "", state: BreakerClosed},
		}},
		{"only one probe at a time; a canceled probe frees the slot", []step{
			{allow: true, report: fails}, {allow: true, report: fails}, {allow: true, report: fails, state: BreakerOpen},
			{advance: 10 * time.Second, allow: true, report: KindCanceled, state: BreakerHalfOpen},
			{allow: true, report: "", state: BreakerClosed},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := newFakeTime()
			bs := NewBreakers(BreakerOptions{Failures: 3, Cooldown: 10 * time.Second, Now: clock.Now})
			b := bs.get(ProviderAnthropic, "claude-haiku-4-5")
			for i, s := range tc.steps {
				clock.Advance(s.advance)
				_, probe, allowed := b.allow()
				if allowed != s.allow {
					t.Fatalf("step %d: allow = %v, want %v", i, allowed, s.allow)
				}
				if s.allow {
					b.report(s.report, probe)
				}
				if s.state != "" {
					if got := bs.State(ProviderAnthropic, "claude-haiku-4-5"); got != s.state {
						t.Fatalf("step %d: state = %s, want %s", i, got, s.state)
					}
				}
			}
		})
	}
}

func TestBreakerHalfOpenAdmitsOneProbe(t *testing.T) {
	clock := newFakeTime()
	bs := NewBreakers(BreakerOptions{Failures: 1, Cooldown: time.Second, Now: clock.Now})
	b := bs.get(ProviderGoogle, "gemini-2.5-flash")
	b.allow()
	b.report(KindUnavailable, false)
	clock.Advance(time.Second)
	if _, _, ok := b.allow(); !ok {
		t.Fatal("first probe refused")
	}
	if _, _, ok := b.allow(); ok {
		t.Fatal("second concurrent probe admitted")
	}
}

// TestBreakerStaleCancelKeepsTheProbe: an attempt sent while the circuit
// was closed, whose caller gives up while the half-open probe is in flight,
// must not let a second call through to the failing provider.
func TestBreakerStaleCancelKeepsTheProbe(t *testing.T) {
	clock := newFakeTime()
	bs := NewBreakers(BreakerOptions{Failures: 1, Cooldown: 30 * time.Second, Now: clock.Now})
	b := bs.get(ProviderOpenAI, "gpt-4o-mini")
	_, slowProbe, _ := b.allow() // a slow attempt, sent while closed
	_, failing, _ := b.allow()
	b.report(KindUnavailable, failing) // the circuit opens
	clock.Advance(31 * time.Second)
	if _, probe, ok := b.allow(); !ok || !probe {
		t.Fatalf("after the cooldown: allow = %v, probe = %v; want a probe", ok, probe)
	}
	b.report(KindCanceled, slowProbe) // the slow attempt's learner left
	if _, _, ok := b.allow(); ok {
		t.Errorf("a second call was admitted while the probe is in flight (state %s)", bs.State(ProviderOpenAI, "gpt-4o-mini"))
	}
}

func TestBreakersAreKeyedByProviderAndModel(t *testing.T) {
	bs := NewBreakers(BreakerOptions{Failures: 1})
	b := bs.get(ProviderOpenAI, "gpt-5.2")
	b.allow()
	b.report(KindUnavailable, false)
	for _, tc := range []struct {
		p     Provider
		model string
		want  BreakerState
	}{
		{ProviderOpenAI, "gpt-5.2", BreakerOpen},
		{ProviderOpenAI, "gpt-4o", BreakerClosed},
		{ProviderOpenAICompatible, "gpt-5.2", BreakerClosed},
	} {
		if got := bs.State(tc.p, tc.model); got != tc.want {
			t.Errorf("State(%s, %s) = %s, want %s", tc.p, tc.model, got, tc.want)
		}
	}
}
