package answer

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDetectLeaks(t *testing.T) {
	const eggs = "Tom has 12 eggs and uses 4 of them. How many eggs are left?"
	student := func(s string) []Utterance { return []Utterance{{Role: RoleStudent, Text: s}} }
	cases := []struct {
		name     string
		check    LeakCheck
		wantForm []string // the Form of each leak, in order; nil for no leak
	}{
		{"digits as the answer", LeakCheck{Expected: Expected{Answer: "8"}, Question: eggs, Reply: "Good try. The answer is 8."}, []string{"8"}},
		{"result of a computation", LeakCheck{Expected: Expected{Answer: "8"}, Question: eggs, Reply: "Let's see: 12 - 4 = 8 eggs."}, []string{"8 eggs"}},
		{"words", LeakCheck{Expected: Expected{Answer: "8"}, Question: eggs, Reply: "So he has eight left."}, []string{"eight"}},
		{"stated result", LeakCheck{Expected: Expected{Answer: "8"}, Question: eggs, Reply: "That gives you 8 eggs."}, []string{"8 eggs"}},
		{"correction", LeakCheck{Expected: Expected{Answer: "8"}, Question: eggs, Dialogue: student("I think 16"), Reply: "It's 8, not 16."}, []string{"8"}},
		// The learner's value first, the answer in its place.
		{"correction after the learner's value", LeakCheck{Expected: Expected{Answer: "14"}, Dialogue: student("12"), Reply: "So close! You said 12 instead of 14."}, []string{"14"}},
		{"not the learner's value but the answer", LeakCheck{Expected: Expected{Answer: "14"}, Dialogue: student("12"), Reply: "Close! Not 12 but 14."}, []string{"14"}},
		{"rather than the learner's value", LeakCheck{Expected: Expected{Answer: "14"}, Dialogue: student("is it 12"), Reply: "You wrote 12 rather than 14."}, []string{"14"}},
		{"asked back", LeakCheck{Expected: Expected{Answer: "14"}, Dialogue: student("is it 12"), Reply: "Hmm, 12 rather than 14?"}, nil},
		{"not the learner's value", LeakCheck{Expected: Expected{Answer: "14"}, Dialogue: student("14"), Reply: "Not 14 but 12 is what Tom has left."}, nil},
		{"the answer set aside for another", LeakCheck{Expected: Expected{Answer: "14"}, Reply: "Use 7 + 7 instead of 14 to check."}, nil},
		{"only the offending sentence", LeakCheck{Expected: Expected{Answer: "8"}, Question: eggs, Reply: "Nice effort! Tom used 4 eggs. So 12 - 4 = 8. Keep going."}, []string{"8"}},
		{"hint without the answer", LeakCheck{Expected: Expected{Answer: "8"}, Question: eggs, Reply: "How many eggs did Tom start with, and how many did he use?"}, nil},
		{"operand is not a leak", LeakCheck{Expected: Expected{Answer: "8"}, Question: eggs, Reply: "What is 8 x 2?"}, nil},
		{"fraction equivalent decimal", LeakCheck{Expected: Expected{Answer: "3/4"}, Reply: "So the share is 0.75."}, []string{"0.75"}},
		{"fraction equivalent percent", LeakCheck{Expected: Expected{Answer: "3/4"}, Reply: "That means 75% of the pizza is eaten."}, nil},
		{"fraction equivalent percent result", LeakCheck{Expected: Expected{Answer: "3/4"}, Reply: "The part eaten is 75%."}, []string{"75%"}},
		{"spaced expected fraction", LeakCheck{Expected: Expected{Answer: "3 / 4", Kind: KindFraction}, Reply: "So the share is 0.75."}, []string{"0.75"}},
		{"fraction words", LeakCheck{Expected: Expected{Answer: "3/4"}, Reply: "The answer is three quarters."}, []string{"three quarters"}},
		{"fraction out of", LeakCheck{Expected: Expected{Answer: "3/4"}, Reply: "So the answer is 3 out of 4."}, []string{"3 out of 4"}},
		{"percentage as decimal", LeakCheck{Expected: Expected{Answer: "30%"}, Reply: "The correct answer should be 0.3."}, []string{"0.3"}},
		{"unit converted", LeakCheck{Expected: Expected{Answer: "12 cm"}, Reply: "The side is 120 mm."}, []string{"120 mm"}},
		// A compound quantity is the value it sums to, as the evaluator reads it.
		{"compound quantity", LeakCheck{Expected: Expected{Answer: "150 min"}, Reply: "So the trip takes 2 hours 30 minutes."}, []string{"2 hours 30 minutes"}},
		{"currency", LeakCheck{Expected: Expected{Answer: "25000"}, Reply: "So the total is $20,000 + $5,000 = $25,000."}, []string{"$25,000"}},
		{"scale word", LeakCheck{Expected: Expected{Answer: "5000"}, Reply: "So the total is 5 thousand."}, []string{"5 thousand"}},
		{"lakh", LeakCheck{Expected: Expected{Answer: "250000"}, Reply: "That makes 2.5 lakh rupees."}, []string{"2.5 lakh rupees"}},
		{"scale word as operand", LeakCheck{Expected: Expected{Answer: "5000"}, Reply: "What is 5 times 1 thousand?"}, nil},
		{"other scale", LeakCheck{Expected: Expected{Answer: "5000"}, Reply: "Is it 5 hundred or more?"}, nil},
		{"echo of the learner", LeakCheck{Expected: Expected{Answer: "12"}, Dialogue: student("I got 12"), Reply: "You said 12 — let's check that."}, nil},
		{"echo as result", LeakCheck{Expected: Expected{Answer: "12"}, Dialogue: student("3 x 4 = 12"), Reply: "Yes, 3 x 4 = 12. What comes next?"}, nil},
		{"echo declared the answer", LeakCheck{Expected: Expected{Answer: "12"}, Dialogue: student("maybe 3 x 4 = 12 then"), Reply: "Yes, the answer is 12."}, []string{"12"}},
		{"echo credited to the learner", LeakCheck{Expected: Expected{Answer: "12"}, Dialogue: student("the answer is 12"), Reply: "Your answer is 12, good."}, nil},
		{"tutor's own earlier words are not echo", LeakCheck{Expected: Expected{Answer: "12"}, Dialogue: []Utterance{{Role: RoleTutor, Text: "Think about 3 x 4."}}, Reply: "3 x 4 = 12."}, []string{"12"}},
		{"step number", LeakCheck{Expected: Expected{Answer: "3"}, Reply: "Step 3: add the tens."}, nil},
		{"list numbering", LeakCheck{Expected: Expected{Answer: "2"}, Reply: "1. Count the eggs.\n2. Subtract the used ones."}, nil},
		{"value from the question", LeakCheck{Expected: Expected{Answer: "12"}, Question: "A box holds 12 pens. How many pens are in one box?", Reply: "The box holds 12 pens, right?"}, nil},
		{"question value restated", LeakCheck{Expected: Expected{Answer: "4"}, Question: eggs, Reply: "Tom has 12 eggs and he uses 4."}, nil},
		{"question value computed", LeakCheck{Expected: Expected{Answer: "4"}, Question: eggs, Reply: "So 8 - 4 = 4."}, []string{"4"}},
		{"question sentence", LeakCheck{Expected: Expected{Answer: "8"}, Question: eggs, Reply: "Is it more than 8?"}, nil},
		{"expression", LeakCheck{Expected: Expected{Answer: "2x + 6"}, Reply: "Expanding gives 2(x+3) = 2x + 6."}, []string{"2(x+3) = 2x + 6"}},
		{"expression echoed", LeakCheck{Expected: Expected{Answer: "2x + 6"}, Dialogue: student("is it 2x+6?"), Reply: "Yes, 2x + 6."}, nil},
		{"assignment", LeakCheck{Expected: Expected{Answer: "x = 7"}, Reply: "Subtract 3 from both sides, then x = 7."}, []string{"x = 7"}},
		{"text answer", LeakCheck{Expected: Expected{Answer: "photosynthesis"}, Question: "What process do plants use to make food?", Reply: "It's called photosynthesis."}, []string{"photosynthesis"}},
		{"text in question", LeakCheck{Expected: Expected{Answer: "photosynthesis"}, Question: "Describe what photosynthesis does.", Reply: "Photosynthesis uses light."}, nil},
		{"text said by learner", LeakCheck{Expected: Expected{Answer: "photosynthesis"}, Dialogue: student("photosynthesis?"), Reply: "Yes, photosynthesis!"}, nil},
		{"ratio", LeakCheck{Expected: Expected{Answer: "3:5"}, Question: "Write 15 : 25 in its simplest form.", Reply: "Dividing both by 5 gives 3 to 5."}, []string{"3 to 5"}},
		{"ratio in words", LeakCheck{Expected: Expected{Answer: "3:5"}, Question: "Write 15 : 25 in its simplest form.", Reply: "So it is three is to five."}, []string{"three is to five"}},
		{"ratio of the question", LeakCheck{Expected: Expected{Answer: "3:5"}, Question: "Write 15 : 25 in its simplest form.", Reply: "What divides both terms of 15 : 25?"}, nil},
		{"ratio reversed", LeakCheck{Expected: Expected{Answer: "3:5"}, Question: "Write 15 : 25 in its simplest form.", Reply: "It is not 5:3, the order matters."}, nil},
		{"ratio said by learner", LeakCheck{Expected: Expected{Answer: "3:5"}, Dialogue: student("3 to 5?"), Reply: "Yes, 3:5."}, nil},
		{"ratio as a fraction", LeakCheck{Expected: Expected{Answer: "3:5"}, Question: "Write 15 : 25 in its simplest form.", Reply: "So the simplified ratio is 3/5."}, []string{"3/5"}},
		{"ratio declared after the learner's hedge", LeakCheck{Expected: Expected{Answer: "3:5"}, Dialogue: student("is it 3:5 or 5:3?"), Reply: "The answer is 3:5."}, []string{"3:5"}},
		{"ratio credited to the learner", LeakCheck{Expected: Expected{Answer: "3:5"}, Dialogue: student("3:5"), Reply: "You said 3:5, so let's check it."}, nil},
		{"choice declared", LeakCheck{Expected: Expected{Answer: "B", Options: []string{"12", "15"}}, Reply: "The answer is B."}, []string{"B"}},
		{"choice discussed", LeakCheck{Expected: Expected{Answer: "B", Options: []string{"12", "15"}}, Reply: "Look again at option A and option B."}, nil},
		{"boolean declared", LeakCheck{Expected: Expected{Answer: "yes"}, Reply: "The answer is yes."}, []string{"yes"}},
		{"boolean discourse", LeakCheck{Expected: Expected{Answer: "yes"}, Reply: "Yes, let's think about it."}, nil},
		{"empty reply", LeakCheck{Expected: Expected{Answer: "8"}, Reply: ""}, nil},
		{"no expected answer", LeakCheck{Reply: "The answer is 8."}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			leaks := DetectLeaks(tc.check)
			var forms []string
			for _, l := range leaks {
				forms = append(forms, l.Form)
				if got := tc.check.Reply[l.Sentence.Start:l.Sentence.End]; got != l.Sentence.Text {
					t.Errorf("sentence span %d:%d is %q, want %q", l.Sentence.Start, l.Sentence.End, got, l.Sentence.Text)
				}
			}
			if diff := cmp.Diff(tc.wantForm, forms); diff != "" {
				t.Errorf("DetectLeaks(%q) forms mismatch (-want +got):\n%s\nleaks: %+v", tc.check.Reply, diff, leaks)
			}
		})
	}
}

func TestDetectLeaksSentence(t *testing.T) {
	reply := "Good effort. So 12 - 4 = 8 eggs are left. Try the next one!"
	got := DetectLeaks(LeakCheck{Expected: Expected{Answer: "8"}, Reply: reply})
	want := []Leak{{
		Sentence: Sentence{Text: "So 12 - 4 = 8 eggs are left.", Start: 13, End: 41},
		Form:     "8 eggs",
		Reason:   "result of a computation",
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DetectLeaks mismatch (-want +got):\n%s", diff)
	}
}

func TestSplitSentences(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"One. Two! Three?", []string{"One.", "Two!", "Three?"}},
		{"It costs $3.50 now. Next.", []string{"It costs $3.50 now.", "Next."}},
		{"Use e.g. a ruler. Then measure.", []string{"Use e.g. a ruler.", "Then measure."}},
		{"Line one\nLine two", []string{"Line one", "Line two"}},
		{"Really?! Yes.", []string{"Really?!", "Yes."}},
		{"He said \"stop.\" Then left.", []string{"He said \"stop.\"", "Then left."}},
		{"  padded.  ", []string{"padded."}},
		{"no end", []string{"no end"}},
		// The full stops and marks of other scripts, with or without a
		// space after them: Chinese and Japanese put none.
		{"सही उत्तर ४२ है। अब अगला सवाल।", []string{"सही उत्तर ४२ है।", "अब अगला सवाल।"}},
		{"पहला श्लोक॥ दूसरा।", []string{"पहला श्लोक॥", "दूसरा।"}},
		{"答案是42。下一个问题！好吗？", []string{"答案是42。", "下一个问题！", "好吗？"}},
		{"真的吗？！对。", []string{"真的吗？！", "对。"}},
		{"هل هو ٤٢؟ نعم", []string{"هل هو ٤٢؟", "نعم"}},
		{"جواب ۴۲ ہے۔ اگلا سوال", []string{"جواب ۴۲ ہے۔", "اگلا سوال"}},
		{"उसने कहा \"रुको।\" फिर गया।", []string{"उसने कहा \"रुको।\"", "फिर गया।"}},
		{"他说“好。”然后走了。", []string{"他说“好。”", "然后走了。"}},
		{"قیمت ۴۲۔۵ ہے۔ ٹھیک", []string{"قیمت ۴۲۔۵ ہے۔", "ٹھیک"}}, // a mark between digits is a decimal point
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			var got []string
			for _, s := range SplitSentences(tc.in) {
				if tc.in[s.Start:s.End] != s.Text {
					t.Errorf("span %d:%d is %q, want %q", s.Start, s.End, tc.in[s.Start:s.End], s.Text)
				}
				got = append(got, s.Text)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("SplitSentences(%q) mismatch (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

func TestLeaksInPlainStatements(t *testing.T) {
	tests := []struct {
		answer, reply string
		leak          bool
	}{
		{"3/4", "It comes to three quarters altogether.", true},
		{"12", "The two parts add up to 12.", true},
		{"16", "16 is right, well done!", true},
		{"16", "16 is the correct answer.", true},
		{"16", "Is 16 the right size for this box?", false},
		{"16", "Check whether 16 is right by adding back.", true},
	}
	for _, tt := range tests {
		got := len(DetectLeaks(LeakCheck{Expected: Expected{Answer: tt.answer}, Reply: tt.reply})) > 0
		if got != tt.leak {
			t.Errorf("DetectLeaks(%q, %q) = %v, want %v", tt.answer, tt.reply, got, tt.leak)
		}
	}
}

// TestQuotedQuestionsAreNoLeak: a question quoted word for word gives no
// answer away, its own or another's: "Answer yes or no." states no "yes",
// and "5x" in another question is no 5. Stating the answer beside it
// still is a leak.
func TestQuotedQuestionsAreNoLeak(t *testing.T) {
	const next = "Is x = 4 a solution of 3x + 5 = 5x - 3? Answer yes or no."
	const pending = "Solve 7x = 3x + 20."
	for _, tc := range []struct {
		name  string
		check LeakCheck
		leaks bool
	}{
		{"the next question, quoted", LeakCheck{Expected: Expected{Answer: "yes", Kind: KindBoolean}, Question: next,
			Reply: "No problem, we'll build up to it. Try this one: " + next}, false},
		{"the pending answer beside another question", LeakCheck{Expected: Expected{Answer: "5", Kind: KindInteger}, Question: pending, Quoted: []string{next},
			Reply: "Let's warm up with another one on the same idea: " + next}, false},
		{"another question not said to be quoted", LeakCheck{Expected: Expected{Answer: "5", Kind: KindInteger}, Question: pending,
			Reply: "Let's warm up with another one on the same idea: " + next}, true},
		{"the question and its answer", LeakCheck{Expected: Expected{Answer: "yes", Kind: KindBoolean}, Question: next,
			Reply: "Try this one: " + next + " The answer is yes."}, true},
	} {
		if got := len(DetectLeaks(tc.check)) > 0; got != tc.leaks {
			t.Errorf("%s: leaks %t, want %t", tc.name, got, tc.leaks)
		}
	}
}
