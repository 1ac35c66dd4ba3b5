package tutor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/tutord/tutord/internal/tutor/answer"
)

// referenceStateJSON is the reflection encoding that AppendJSON replaces
// and must match byte for byte.
func referenceStateJSON(s State) ([]byte, error) {
	return json.Marshal(stateJSON(s.normalized()))
}

// checkSameJSON checks that AppendJSON, MarshalJSON and json.Marshal write
// exactly what the reflection encoding writes, or fail as it fails.
func checkSameJSON(t *testing.T, name string, s State) {
	t.Helper()
	want, wantErr := referenceStateJSON(s)
	prefix := []byte("prefix")
	got, err := s.AppendJSON(prefix)
	if wantErr != nil {
		if err == nil || err.Error() != wantErr.Error() {
			t.Errorf("%s: AppendJSON error %v, want %v", name, err, wantErr)
		}
		if !bytes.Equal(got, prefix) {
			t.Errorf("%s: AppendJSON wrote %q on error", name, got)
		}
		if _, err := json.Marshal(s); err == nil {
			t.Errorf("%s: json.Marshal succeeded, want an error", name)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: AppendJSON: %v", name, err)
	}
	if !bytes.Equal(got[:len(prefix)], prefix) || !bytes.Equal(got[len(prefix):], want) {
		t.Fatalf("%s: AppendJSON differs from the reflection encoding\n got %s\nwant %s", name, got, want)
	}
	if m, err := s.MarshalJSON(); err != nil || !bytes.Equal(m, want) {
		t.Errorf("%s: MarshalJSON differs (err %v)\n got %s\nwant %s", name, err, m, want)
	}
	if m, err := json.Marshal(s); err != nil || !bytes.Equal(m, want) {
		t.Errorf("%s: json.Marshal differs (err %v)\n got %s\nwant %s", name, err, m, want)
	}
}

func TestAppendJSONMatchesReflection(t *testing.T) {
	states := map[string]State{
		"zero":     {},
		"teach_me": teachMeState(t),
		"bench":    benchState(t, planOf(12)),
		"clarify":  clarifyState(t),
		"exam":     examState(t),
		"filled":   filledState(t, false),
		"emptied":  filledState(t, true),
		"nil parts": {
			LastQuestion: &Question{}, ExamFeedback: &ExamFeedback{}, Topic: &TopicRef{},
			StartedAt: &Time{}, LastAnswerResult: ptr(ResultPartial),
			ExamQuestions: []ExamQuestion{{}}, History: []Message{{}}, Misconceptions: []Misconception{{}},
			EngineConfig: Config{Components: map[string]ComponentConfig{"": {}}},
		},
		"far years": {
			CreatedAt: NewTime(time.Date(-12, 1, 2, 3, 4, 5, 6000, time.UTC)),
			UpdatedAt: NewTime(time.Date(12345, 1, 2, 3, 4, 5, 0, time.UTC)),
		},
	}
	files, _ := filepath.Glob("testdata/state_v*.json")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		s, err := DecodeState(data)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		states[file] = s
	}
	for name, s := range states {
		checkSameJSON(t, name, s)
	}
}

// TestAppendJSONRandomSessions compares the encodings on every state of
// random sessions.
func TestAppendJSONRandomSessions(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 3))
	pre := NewPrechecker(DefaultPrecheckConfig())
	for seq := range 100 {
		tp := randomTopic(rng)
		mode := []Mode{ModeTeachMe, ModeClarify, ModeExam}[seq%3]
		s, err := NewState(NewSession{ID: fmt.Sprint("s", seq), Mode: mode, Topic: tp, Student: StudentContext{Grade: 1 + rng.IntN(12)},
			ExamQuestions: examQuestions(1 + rng.IntN(6)), Now: t0})
		if err != nil {
			t.Fatal(err)
		}
		now := t0
		for turn := range 1 + rng.IntN(20) {
			now = now.Add(time.Duration(rng.IntN(240)) * time.Second)
			s, _ = ApplyTurn(s, tp, randomOutcome(rng, tp, s, pre, now))
			checkSameJSON(t, fmt.Sprintf("sequence %d turn %d", seq, turn), s)
		}
	}
}

// TestAppendJSONCoversEveryField fails when a field of State, or of a type
// it holds, is missing from the appenders: the filled state sets them all.
func TestAppendJSONCoversEveryField(t *testing.T) {
	s := filledState(t, false)
	checkNonZero(t, "State", reflect.ValueOf(s))
	checkSameJSON(t, "filled", s)
}

// TestWithheldInTheStateDocument: the withheld mark survives a stored
// state, and a history without one is written as before, without the key.
func TestWithheldInTheStateDocument(t *testing.T) {
	s := teachMeState(t)
	plain, err := s.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(plain, []byte(`"withheld"`)) {
		t.Errorf("a history without withheld messages writes the key: %s", plain)
	}

	s.History[1].Withheld = true
	checkSameJSON(t, "withheld", s)
	data, err := s.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(`"message_id":null,"withheld":true}`)) {
		t.Errorf("withheld message not written as such: %s", data)
	}
	back, err := DecodeState(data)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range back.History {
		if m.Withheld != (i == 1) {
			t.Errorf("decoded message %d withheld = %v", i, m.Withheld)
		}
	}
	if again, _ := back.MarshalJSON(); !bytes.Equal(again, data) {
		t.Errorf("round trip changed the document\n got %s\nwant %s", again, data)
	}
}

// TestAppendJSONUnsupportedNumbers sets each float of the filled state in
// turn to NaN and the infinities: AppendJSON fails as json.Marshal does.
func TestAppendJSONUnsupportedNumbers(t *testing.T) {
	s := filledState(t, false)
	floats := floatFields(t, "State", reflect.ValueOf(&s).Elem())
	if len(floats) < 5 {
		t.Fatalf("found %d float fields", len(floats))
	}
	for path, v := range floats {
		old := v.Float()
		for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
			v.SetFloat(bad)
			checkSameJSON(t, fmt.Sprintf("%s = %v", path, bad), s)
			if _, err := s.AppendJSON(nil); err == nil {
				t.Errorf("%s = %v: no error", path, bad)
			}
		}
		v.SetFloat(old)
	}
	checkSameJSON(t, "restored", s)
}

func FuzzStateJSON(f *testing.F) {
	f.Add("hello", "c1", 0.5, 0.7)
	f.Add("", "", 0.0, 0.0)
	f.Add(trickyText, "<b>&amp;</b>", 1e-7, 2e21)
	f.Add("\u2028\u2029\x00\x1f\x7f\xed\xa0\x80\xc3", "é🙂", 1e21, 1e-6)
	f.Add("line\nbreak\ttab\r\b\f", `"quoted\"`, math.Copysign(0, -1), 999999999999999999999.0)
	f.Add("x", "y", math.NaN(), 0.5)
	f.Add("x", "y", 0.25, math.Inf(-1))
	base := teachMeState(f)
	f.Fuzz(func(t *testing.T, text, key string, x, y float64) {
		s := base.Clone()
		s.SessionID = text
		s.History[0].Content = text
		s.MasteryEstimates = append(s.MasteryEstimates, ConceptScore{Concept: key, Score: x})
		s.SessionSummary.DepthReached = map[string]string{key: text, text: key}
		s.SessionSummary.TurnTimeline = append(s.SessionSummary.TurnTimeline, text)
		s.EngineConfig.Components = map[string]ComponentConfig{key: {Model: text, Temperature: &y}, text: {Provider: key}}
		s.ExamFeedback = &ExamFeedback{Percentage: y, WeightedScore: x, Strengths: []string{key}}
		checkSameJSON(t, "fuzzed", s)
	})
}

func BenchmarkStateMarshal(b *testing.B) {
	s := realisticState(b)
	b.Run("appender", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := s.MarshalJSON(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reflection", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := referenceStateJSON(s); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// realisticState returns a teach_me state as a service holds it mid-lesson:
// 10 history messages, 9 timeline entries, 5 engine components, mastery
// for 2 concepts and a pending question.
func realisticState(tb testing.TB) State {
	tb.Helper()
	tp := planOf(2)
	cc := func(provider, model string) ComponentConfig {
		return ComponentConfig{Provider: provider, Model: model, ReasoningEffort: "low", Temperature: ptr(0.2), MaxOutputTokens: 2048}
	}
	s, err := NewState(NewSession{ID: "0b6c6f0e-5a1d-4c55-9f0e-1f3a2b4c5d6e", Topic: tp, Now: t0,
		Student: StudentContext{Grade: 6, Board: "CBSE", StudentName: ptr("Asha"), Language: "en"},
		Config: Config{TimeLimitSeconds: 1800, Components: map[string]ComponentConfig{
			"tutor":          cc("openai", "gpt-5-mini"),
			"safety":         cc("openai", "omni-moderation-latest"),
			"exam_generator": cc("anthropic", "claude-sonnet-4-5"),
			"evaluator":      cc("google", "gemini-2.5-flash"),
			"summarizer":     cc("rules", ""),
		}}})
	if err != nil {
		tb.Fatal(err)
	}
	for i := range 9 {
		o := turnAt(i, fmt.Sprintf("I think the answer is %d because I added the two numbers together", 40+i), tutorSays(
			updates(MasteryUpdate{"c1", 0.6}, MasteryUpdate{"c2", 0.4}),
			func(o *TutorOutput) {
				o.TurnSummary = fmt.Sprintf("turn %d: learner added instead of multiplying; gave a hint", i)
			},
		))
		o.Reply = "Nice try! Let's look at it again: what happens when you multiply 6 by 7 instead of adding them? Think of 6 groups of 7."
		s, _ = ApplyTurn(s, tp, o)
	}
	if len(s.History) != 10 || len(s.SessionSummary.TurnTimeline) != 9 || len(s.EngineConfig.Components) != 5 || len(s.MasteryEstimates) != 2 {
		tb.Fatalf("history %d, timeline %d, components %d, mastery %d", len(s.History),
			len(s.SessionSummary.TurnTimeline), len(s.EngineConfig.Components), len(s.MasteryEstimates))
	}
	return s
}

// teachMeState returns a teach_me state mid-lesson: a pending question
// with hints and wrong answers, misconceptions and mastery.
func teachMeState(tb testing.TB) State {
	tb.Helper()
	tp := lesson("Fractions <halves>", "Decimals & \"tenths\"", "Percent")
	s := newState(tb, ModeTeachMe, tp)
	s, _ = run(s, tp,
		turnAt(1, "ready!", tutorSays(asks("What is 6 × 7?", "42", "Fractions <halves>"), updates(MasteryUpdate{"Fractions <halves>", 0.3}))),
		turnAt(2, "13", tutorSays(wrong, func(o *TutorOutput) { o.MisconceptionsDetected = []string{"adds instead of multiplying"} })),
		turnAt(3, "I don't know", tutorSays(wrong, rightStep)),
		turnAt(4, "is it 41?\nor 43", tutorSays(wrong, updates(MasteryUpdate{"Decimals & \"tenths\"", 0.55}))),
	)
	if s.LastQuestion == nil || len(s.History) == 0 {
		tb.Fatal("no pending question or history")
	}
	return s
}

func clarifyState(tb testing.TB) State {
	tb.Helper()
	tp := lesson("Fractions", "Decimals")
	s := newState(tb, ModeClarify, tp)
	s, _ = run(s, tp,
		turnAt(1, "what is a fraction", tutorSays(intent(IntentQuestion), updates(MasteryUpdate{"fractions", 0.5}, MasteryUpdate{"Dragons", 0.5}))),
		turnAt(2, "and decimals", tutorSays(intent(IntentFollowup), updates(MasteryUpdate{"Decimals", 0.5}, MasteryUpdate{"Fractions", 0.9}))),
		turnAt(3, "thanks, that's all", tutorSays(intent(IntentDone))),
	)
	return s
}

func examState(tb testing.TB) State {
	tb.Helper()
	tp := planOf(3)
	s := newState(tb, ModeExam, tp, examQuestions(3)...)
	s, _ = ApplyTurn(s, tp, Outcome{Now: t0, StudentMessage: "1", Output: tutorSays(correct, func(o *TutorOutput) { o.TurnSummary = "right" })})
	s, _ = ApplyTurn(s, tp, Outcome{Now: t0.Add(time.Minute), StudentMessage: "7", Verdict: answer.Partial, Output: tutorSays(correct)})
	s, _ = ApplyTurn(s, tp, Outcome{Now: t0.Add(2 * time.Minute), StudentMessage: "no idea", Precheck: PrecheckIDK})
	if !s.ExamFinished || s.ExamFeedback == nil {
		tb.Fatal("exam not finished")
	}
	return s
}

// trickyText holds every kind of character that encoding/json escapes or
// replaces.
const trickyText = "a\"b\\c<>&\u2028\u2029\x01\x1f\x7f\b\f\n\r\té🙂\xff"

// trickyFloats are formatted on both sides of encoding/json's switches
// between plain and exponent notation.
var trickyFloats = []float64{1e-7, 0.5, 2e21, 1e21, 1e-6, math.Copysign(0, -1), 123456.789, -3.5e-9, 1e20, 0.1 + 0.2}

// filledState returns a State with every field at every level set by
// reflection: not empty, every slice with 2 elements, every map with 2 keys,
// strings full of characters to escape. With empty set, pointers point to
// zero values and slices and maps are empty but not nil instead.
func filledState(tb testing.TB, empty bool) State {
	tb.Helper()
	var s State
	f := filler{tb: tb, empty: empty}
	f.fill("State", reflect.ValueOf(&s).Elem())
	return s
}

type filler struct {
	tb    testing.TB
	empty bool
	n     int
}

func (f *filler) fill(path string, v reflect.Value) {
	f.n++
	if v.Type() == reflect.TypeFor[Time]() {
		if !f.empty {
			v.Set(reflect.ValueOf(NewTime(t0.Add(time.Duration(f.n)*time.Hour + 123450*time.Microsecond))))
		}
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		f.fill(path, v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			field := v.Type().Field(i)
			if !field.IsExported() {
				f.tb.Fatalf("%s.%s is unexported: teach the filler its type", path, field.Name)
			}
			f.fill(path+"."+field.Name, v.Field(i))
		}
	case reflect.Slice:
		n := 2
		if f.empty {
			n = 0
		}
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := range n {
			f.fill(fmt.Sprintf("%s[%d]", path, i), v.Index(i))
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		if f.empty {
			return
		}
		for i := range 2 {
			k := reflect.New(v.Type().Key()).Elem()
			e := reflect.New(v.Type().Elem()).Elem()
			f.fill(fmt.Sprintf("%s key %d", path, i), k)
			f.fill(fmt.Sprintf("%s[%d]", path, i), e)
			v.SetMapIndex(k, e)
		}
	case reflect.String, reflect.Int, reflect.Float64, reflect.Bool:
		if f.empty {
			return
		}
		switch v.Kind() {
		case reflect.String:
			// Descending prefixes, so that keys are added out of order.
			v.SetString(strconv.Itoa(1000-f.n) + trickyText)
		case reflect.Int:
			v.SetInt(int64(f.n) * int64(1-2*(f.n%2)) * 1000003)
		case reflect.Float64:
			v.SetFloat(trickyFloats[f.n%len(trickyFloats)])
		case reflect.Bool:
			v.SetBool(true)
		}
	default:
		f.tb.Fatalf("%s: the filler does not handle %s", path, v.Type())
	}
}

// checkNonZero reports every value under v that is its type's zero value,
// to make sure that the filler set everything.
func checkNonZero(t *testing.T, path string, v reflect.Value) {
	t.Helper()
	// -0 (one of the trickyFloats) is set, though IsZero says zero.
	if v.IsZero() && (v.Kind() != reflect.Float64 || math.Float64bits(v.Float()) == 0) {
		t.Errorf("%s is zero", path)
		return
	}
	if v.Type() == reflect.TypeFor[Time]() {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		checkNonZero(t, path, v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			checkNonZero(t, path+"."+v.Type().Field(i).Name, v.Field(i))
		}
	case reflect.Slice:
		if v.Len() < 2 {
			t.Errorf("%s has %d elements", path, v.Len())
		}
		for i := range v.Len() {
			checkNonZero(t, fmt.Sprintf("%s[%d]", path, i), v.Index(i))
		}
	case reflect.Map:
		if v.Len() < 2 {
			t.Errorf("%s has %d keys", path, v.Len())
		}
		for it := v.MapRange(); it.Next(); {
			checkNonZero(t, path+" key", it.Key())
			checkNonZero(t, fmt.Sprintf("%s[%v]", path, it.Key()), it.Value())
		}
	}
}

// floatFields returns the settable float64 values under v by path.
func floatFields(t *testing.T, path string, v reflect.Value) map[string]reflect.Value {
	out := map[string]reflect.Value{}
	var walk func(path string, v reflect.Value)
	walk = func(path string, v reflect.Value) {
		switch v.Kind() {
		case reflect.Float64:
			if !v.CanSet() {
				t.Errorf("%s cannot be set: teach floatFields its container", path)
				return
			}
			out[path] = v
		case reflect.Pointer:
			if !v.IsNil() {
				walk(path, v.Elem())
			}
		case reflect.Struct:
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					walk(path+"."+v.Type().Field(i).Name, v.Field(i))
				}
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(fmt.Sprintf("%s[%d]", path, i), v.Index(i))
			}
		case reflect.Map:
			for it := v.MapRange(); it.Next(); {
				walk(fmt.Sprintf("%s[%q]", path, it.Key().String()), it.Value())
			}
		}
	}
	walk(path, v)
	return out
}
