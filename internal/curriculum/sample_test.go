package curriculum

import (
	"math/big"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tutord/tutord/curricula"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// loadSample loads the curriculum shipped in curricula/.
func loadSample(t *testing.T) []*File {
	t.Helper()
	files, err := LoadFS(curricula.FS())
	if err != nil {
		t.Fatalf("the sample curriculum does not load:\n%v", err)
	}
	return files
}

func TestSampleLoadsFromDisk(t *testing.T) {
	files, err := LoadPaths(filepath.Join("..", "..", "curricula"))
	if err != nil {
		t.Fatal(err)
	}
	var onDisk, embedded []string
	for _, f := range files {
		rel, _ := filepath.Rel(filepath.Join("..", "..", "curricula"), f.Name)
		onDisk = append(onDisk, filepath.ToSlash(rel))
	}
	for _, f := range loadSample(t) {
		embedded = append(embedded, f.Name)
		if f.Name != f.Path() {
			t.Errorf("%s should be at %s, where an export writes it", f.Name, f.Path())
		}
	}
	if diff := cmp.Diff(onDisk, embedded); diff != "" {
		t.Errorf("embedded files differ from the files on disk (-disk +embedded):\n%s", diff)
	}
}

func TestSampleContent(t *testing.T) {
	files := loadSample(t)
	var guidelines []Guideline
	topics := map[string]bool{}
	for _, f := range files {
		if f.Country != "India" || f.Board != "CBSE" {
			t.Errorf("%s: filed under %s/%s, want India/CBSE", f.Name, f.Country, f.Board)
		}
		if f.Grade < 7 || f.Grade > 8 {
			t.Errorf("%s: grade %d, want 7 or 8", f.Name, f.Grade)
		}
		topics[Slug(f.Subject)+"/"+f.Topic.Key] = true
		guidelines = append(guidelines, f.Guidelines()...)
	}
	for _, want := range []string{
		"mathematics/fractions", "mathematics/integers", "mathematics/ratios-and-percentages",
		"mathematics/linear-equations", "science/nutrition-in-plants", "science/states-of-matter",
	} {
		if !topics[want] {
			t.Errorf("the sample has no topic %s", want)
		}
	}
	if len(guidelines) < 10 {
		t.Errorf("the sample has %d subtopics, want at least 10", len(guidelines))
	}
	for _, g := range guidelines {
		t.Run(g.Key, func(t *testing.T) {
			s := g.Subtopic
			if g.DefaultPlan || len(s.Plan) < 4 || len(s.Plan) > 8 {
				t.Errorf("plan has %d steps (default: %t), want a written plan of 4 to 8", len(s.Plan), g.DefaultPlan)
			}
			types := map[StepType]int{}
			for _, st := range s.Plan {
				types[st.Type]++
				if st.Type == StepExplain && len(strings.Fields(st.Content)) < 40 {
					t.Errorf("explain step %q: content has %d words, want a real explanation", st.Title, len(strings.Fields(st.Content)))
				}
			}
			for _, typ := range []StepType{StepExplain, StepCheck, StepPractice} {
				if types[typ] == 0 {
					t.Errorf("plan has no %s step", typ)
				}
			}
			if len(s.Questions) < 8 {
				t.Errorf("%d questions, want at least 8", len(s.Questions))
			}
			// Enough of each difficulty for a 7-question exam of 2 easy, 4
			// medium and 1 hard questions (about 30/50/20).
			levels := map[Difficulty]int{}
			for _, q := range s.Questions {
				levels[q.Difficulty]++
			}
			if levels[Easy] < 2 || levels[Medium] < 4 || levels[Hard] < 2 {
				t.Errorf("difficulties %v, want at least 2 easy, 4 medium and 2 hard", levels)
			}
			for _, q := range s.Questions {
				if q.Kind == answer.KindAuto {
					t.Errorf("%s: the sample names every answer kind", q.ID)
				}
				if len(q.Hints) != 2 {
					t.Errorf("%s: %d hints, want 2", q.ID, len(q.Hints))
				}
				if strings.TrimSpace(q.Misconception) == "" {
					t.Errorf("%s: no misconception", q.ID)
				}
				for i, h := range q.Hints {
					if leak := hintLeak(q, h); leak != "" {
						t.Errorf("%s: hint %d gives the answer away (%s): %q", q.ID, i+1, leak, h)
					}
				}
			}
		})
	}
}

var (
	// hintNumber matches numbers as a hint writes them: 7, -7, 1,200, 0.75,
	// 3/4, 2 1/2, 75%.
	hintNumber = regexp.MustCompile(`-?\d+(?:,\d{3})*(?:\.\d+)?(?:\s+\d+/\d+|/\d+)?%?`)
	digits     = regexp.MustCompile(`\d+`)
	words      = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
		"eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"}
)

// hintLeak is a strict check, for the sample only, that a hint does not
// contain the answer: no number equal to it in any form, no digits of an
// integer answer, no number word for it; for text answers none of the
// accepted phrases and, for words of six letters or more, not even their
// first five letters.
func hintLeak(q Question, hint string) string {
	lower := strings.ToLower(hint)
	switch q.Kind {
	case answer.KindInteger, answer.KindDecimal, answer.KindFraction, answer.KindMixedNumber, answer.KindPercentage:
		want := numberValues(q.Answer)
		for _, m := range hintNumber.FindAllString(hint, -1) {
			for _, v := range numberValues(m) {
				for _, w := range want {
					if v.Cmp(w) == 0 || new(big.Rat).Abs(v).Cmp(new(big.Rat).Abs(w)) == 0 {
						return "the number " + m
					}
				}
			}
		}
		if q.Kind == answer.KindInteger {
			n := strings.TrimLeft(strings.ReplaceAll(q.Answer, ",", ""), "+-")
			if slices.Contains(digits.FindAllString(hint, -1), n) {
				return "the digits " + n
			}
			for i, w := range words {
				if n == big.NewInt(int64(i)).String() && containsWord(lower, w) {
					return "the word " + w
				}
			}
		}
	case answer.KindBoolean:
		for _, w := range []string{"yes", "no", "true", "false"} {
			if containsWord(lower, w) {
				return "the word " + w
			}
		}
	case answer.KindChoice:
		i := choiceIndex(q.Answer, q.Options)
		if containsWord(hint, string(rune('A'+i))) {
			return "the letter"
		}
		if containsWord(lower, strings.ToLower(q.Options[i])) {
			return "the option"
		}
	default:
		phrases := append([]string{q.Answer}, q.Accept...)
		if q.Kind == answer.KindSet || q.Kind == answer.KindList {
			phrases = append(phrases, strings.Split(q.Answer, ",")...)
		}
		for _, p := range phrases {
			p = strings.ToLower(strings.TrimSpace(p))
			if containsWord(lower, p) {
				return "the phrase " + p
			}
			if len(p) >= 6 && !strings.Contains(p, " ") && strings.Contains(lower, p[:5]) {
				return "the stem of " + p
			}
		}
	}
	return ""
}

// numberValues returns the values a written number may stand for: a
// percentage both as itself and as a fraction of 100.
func numberValues(s string) []*big.Rat {
	s = strings.ReplaceAll(strings.TrimSpace(s), ",", "")
	percent := strings.HasSuffix(s, "%")
	s = strings.TrimSpace(strings.TrimSuffix(s, "%"))
	v := new(big.Rat)
	if whole, frac, ok := strings.Cut(s, " "); ok {
		w, ok1 := new(big.Rat).SetString(whole)
		f, ok2 := new(big.Rat).SetString(strings.TrimSpace(frac))
		if !ok1 || !ok2 {
			return nil
		}
		if w.Sign() < 0 {
			f.Neg(f)
		}
		v.Add(w, f)
	} else if _, ok := v.SetString(s); !ok {
		return nil
	}
	if percent {
		return []*big.Rat{v, new(big.Rat).Quo(v, big.NewRat(100, 1))}
	}
	return []*big.Rat{v}
}

// containsWord reports whether s contains w with no letter or digit on either side.
func containsWord(s, w string) bool {
	if w == "" {
		return false
	}
	return regexp.MustCompile(`(^|[^\pL\pN])` + regexp.QuoteMeta(w) + `($|[^\pL\pN])`).MatchString(s)
}

func TestHintLeak(t *testing.T) {
	tests := []struct {
		name string
		q    Question
		hint string
		leak bool
	}{
		{"fraction value", Question{Answer: "3/4", Kind: answer.KindFraction}, "It is 0.75 of the whole.", true},
		{"fraction equivalent", Question{Answer: "3/4", Kind: answer.KindFraction}, "Think of 6/8.", true},
		{"fraction safe", Question{Answer: "3/4", Kind: answer.KindFraction}, "Add 1/4 and 2/4.", false},
		{"mixed number", Question{Answer: "1 1/2", Kind: answer.KindMixedNumber}, "It is 3/2.", true},
		{"percentage as fraction", Question{Answer: "60%", Kind: answer.KindPercentage}, "Write 3/5 first.", true},
		{"percentage as number", Question{Answer: "60%", Kind: answer.KindPercentage}, "It is 60 out of 100.", true},
		{"integer inside a fraction", Question{Answer: "3", Kind: answer.KindInteger}, "Write 4/3.", true},
		{"negative integer", Question{Answer: "-7", Kind: answer.KindInteger}, "Move 7 steps.", true},
		{"integer as a word", Question{Answer: "7", Kind: answer.KindInteger}, "There are seven days.", true},
		{"integer safe", Question{Answer: "14", Kind: answer.KindInteger}, "Subtract 9 from 23.", false},
		{"boolean word", Question{Answer: "yes", Kind: answer.KindBoolean}, "No, look again.", true},
		{"choice letter", Question{Answer: "B", Kind: answer.KindChoice, Options: []string{"x", "y"}}, "It is B.", true},
		{"choice option", Question{Answer: "B", Kind: answer.KindChoice, Options: []string{"x", "glucose"}}, "Think of glucose.", true},
		{"text accepted phrase", Question{Answer: "carbon dioxide", Kind: answer.KindText, Accept: []string{"CO2"}}, "It is CO2.", true},
		{"text stem", Question{Answer: "evaporation", Kind: answer.KindText}, "Water evaporates.", true},
		{"set element", Question{Answer: "solid, liquid, gas", Kind: answer.KindSet}, "Think of a gas.", true},
		{"text safe", Question{Answer: "oxygen", Kind: answer.KindText}, "We breathe it.", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := hintLeak(tt.q, tt.hint) != ""; got != tt.leak {
				t.Errorf("hintLeak(%q, %q) = %t, want %t", tt.q.Answer, tt.hint, got, tt.leak)
			}
		})
	}
}

// TestSampleAnswersAndHints runs every question of the shipped sample through
// the deterministic evaluator (its own answer and every accepted form must be
// judged correct) and every hint through the answer-leak detector (no hint
// may give the answer away).
func TestSampleAnswersAndHints(t *testing.T) {
	files, err := LoadFS(curricula.FS())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		for _, g := range f.Guidelines() {
			for _, q := range g.Subtopic.Questions {
				exp := answer.Expected{Answer: q.Answer, Kind: q.Kind, Accept: q.Accept, Options: q.Options}
				for _, reply := range append([]string{q.Answer}, q.Accept...) {
					if r := answer.Evaluate(exp, reply); r.Verdict != answer.Correct {
						t.Errorf("%s %s: reply %q judged %s (%s), want correct", g.Key, q.ID, reply, r.Verdict, r.Reason)
					}
				}
				for i, h := range q.Hints {
					leaks := answer.DetectLeaks(answer.LeakCheck{Expected: exp, Question: q.Question, Reply: h})
					if len(leaks) > 0 {
						t.Errorf("%s %s: hint %d gives the answer away (%s: %q)", g.Key, q.ID, i+1, leaks[0].Reason, leaks[0].Form)
					}
				}
			}
		}
	}
}
