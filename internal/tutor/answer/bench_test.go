package answer

import "testing"

func BenchmarkEvaluate(b *testing.B) {
	cases := []struct {
		name  string
		exp   Expected
		reply string
	}{
		{"integer_in_sentence", Expected{Answer: "42"}, "I think it's 42 apples"},
		{"fraction", Expected{Answer: "3/4", Simplest: true}, "the answer is 6/8"},
		{"unit", Expected{Answer: "12 cm", RequireUnit: true}, "it is 120 mm long"},
		{"text", Expected{Answer: "photosynthesis"}, "I think it's photosynthesis"},
		{"choice", Expected{Answer: "B", Options: []string{"12", "15", "18"}}, "option b"},
		{"expression", Expected{Answer: "2x + 6"}, "2(x+3)"},
		{"worked_solution", Expected{Answer: "10"}, "The total number of spoons from Julia and her husband was 12+3=15 spoons.\nSince the husband bought a package of five spoons, then Julia's package contained 15-5=10 spoons."},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Evaluate(c.exp, c.reply)
			}
		})
	}
}

func BenchmarkDetectLeaks(b *testing.B) {
	c := LeakCheck{
		Expected: Expected{Answer: "163"},
		Question: "Candice put 80 post-it notes in her purse. She bought a package of notes, used 220 on cups and had 23 left. How many notes were in the package?",
		Dialogue: []Utterance{
			{Role: RoleTutor, Text: "Can you walk me through your solution?"},
			{Role: RoleStudent, Text: "80 + x = 220 + 23. Solving for x we get x = 117. So she bought 117 post-it notes."},
		},
		Reply: "Actually, you've made a slight mistake. If she used 243 post-it notes in total and she started with 80, she must have bought 243 - 80 = 163 post-it notes. Let's try the calculation again.",
	}
	b.Run("leaks", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			DetectLeaks(c)
		}
	})
	// Most replies keep the answer back: the question and the learner's
	// words need no reading then.
	c.Reply = "Not quite. She used 220 notes on cups and had 23 left: how many did she have before she used any?"
	b.Run("keeps back", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			DetectLeaks(c)
		}
	})
}
