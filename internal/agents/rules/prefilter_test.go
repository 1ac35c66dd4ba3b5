package rules

import (
	"os"
	"strings"
	"testing"

	"github.com/tutord/tutord/internal/tutor"
)

// readLines returns the lines of a testdata file that are not comments.
func readLines(t testing.TB, name string) []string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// TestPrefilterMissesNothing checks the prefilter's one promise: a rule
// whose regular expression matches a message is always among the
// candidates. Each message is also tried in capitals, and with the two
// non-ASCII letters whose case folds are ASCII (ſ for s, the Kelvin sign for
// k), which the patterns match case-insensitively.
func TestPrefilterMissesNothing(t *testing.T) {
	s := newSafety(t)
	msgs := append(readLines(t, "conversation.txt"), readLines(t, "injection.txt")...)
	msgs = append(msgs, safeMessages...)
	for _, u := range unsafeMessages {
		msgs = append(msgs, u.msg)
	}
	for _, u := range unsafeReplies {
		msgs = append(msgs, u.msg)
	}
	folds := strings.NewReplacer("s", "ſ", "k", "\u212a")
	ran := 0
	for _, msg := range msgs {
		for _, m := range []string{msg, strings.ToUpper(msg), folds.Replace(msg)} {
			norm := normalizeForSafety(m)
			hit := make([]bool, len(s.rules))
			s.filter.candidates(norm, hit, make([]bool, s.filter.nsets))
			for i, r := range s.rules {
				if hit[i] {
					ran++
				}
				if r.re.MatchString(norm) && !hit[i] {
					t.Errorf("%q: rule of line %d matches but the prefilter left it out (sets %q)", m, r.line, r.words)
				}
			}
		}
	}
	// The prefilter is worth having only if it leaves most rules out.
	if all := 3 * len(msgs) * len(s.rules); ran > all/10 {
		t.Errorf("the prefilter let %d of %d rule checks through", ran, all)
	}
}

// TestUnsafeInOtherCase: the verdict does not depend on case or on the
// letters that fold to ASCII.
func TestUnsafeInOtherCase(t *testing.T) {
	s := newSafety(t)
	folds := strings.NewReplacer("s", "ſ", "k", "\u212a")
	for _, tt := range unsafeMessages {
		for _, m := range []string{strings.ToUpper(tt.msg), folds.Replace(tt.msg)} {
			if v := check(t, s, "student", m, tutor.State{}); v.Safe || v.Category != tt.category {
				t.Errorf("%q: got %+v, want category %s", m, v, tt.category)
			}
		}
	}
}

// BenchmarkSafety classifies the messages and replies of a conversation.
func BenchmarkSafety(b *testing.B) {
	s, err := NewSafety()
	if err != nil {
		b.Fatal(err)
	}
	msgs := readLines(b, "conversation.txt")
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		s.classify("student", msgs[i%len(msgs)], tutor.State{})
		i++
	}
}
