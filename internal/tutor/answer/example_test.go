package answer_test

import (
	"fmt"

	"github.com/tutord/tutord/internal/tutor/answer"
)

func ExampleEvaluate() {
	exp := answer.Expected{Answer: "3/4"} // the kind is inferred: fraction
	for _, reply := range []string{
		"I think it's 0.75",
		"three quarters",
		"not 1/2, it's 3/4",
		"is it 1/2 or 3/4?",
		"2/3",
		"hmm, why?",
	} {
		r := answer.Evaluate(exp, reply)
		fmt.Printf("%-22q %-12s %q\n", reply, r.Verdict, r.Extracted)
	}
	// Output:
	// "I think it's 0.75"    correct      "0.75"
	// "three quarters"       correct      "three quarters"
	// "not 1/2, it's 3/4"    correct      "3/4"
	// "is it 1/2 or 3/4?"    not_attempt  "1/2 or 3/4"
	// "2/3"                  incorrect    "2/3"
	// "hmm, why?"            not_attempt  ""
}

func ExampleEvaluate_units() {
	exp := answer.Expected{Answer: "12 cm", RequireUnit: true}
	for _, reply := range []string{"120 mm", "12", "12 m"} {
		r := answer.Evaluate(exp, reply)
		fmt.Println(reply, "→", r.Verdict, r.Reason)
	}
	// Output:
	// 120 mm → correct same quantity in mm
	// 12 → partial right number, unit missing
	// 12 m → partial right number, wrong unit
}

func ExampleDetectLeaks() {
	leaks := answer.DetectLeaks(answer.LeakCheck{
		Expected: answer.Expected{Answer: "8"},
		Question: "Tom has 12 eggs and uses 4. How many eggs are left?",
		Dialogue: []answer.Utterance{{Role: answer.RoleStudent, Text: "I think 16"}},
		Reply:    "Tom started with 12 eggs. He used 4, so 12 - 4 = 8, not 16. Well done for trying!",
	})
	for _, l := range leaks {
		fmt.Printf("%q reveals %q (%s)\n", l.Sentence.Text, l.Form, l.Reason)
	}
	// Output:
	// "He used 4, so 12 - 4 = 8, not 16." reveals "8" (given as the correction of a wrong value)
}
