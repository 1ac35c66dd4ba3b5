package curriculum_test

import (
	"fmt"

	"github.com/tutord/tutord/internal/curriculum"
)

func ExampleParse() {
	doc := `country: India
board: CBSE
grade: seven
subject: Mathematics
topic: {key: fractions, title: Fractions}
subtopics:
  - key: adding-fractions
    title: Adding fractions
    teaching_approach: Use strips cut into equal parts.
    learning_objectives: [Add like fractions.]
    questions:
      - id: like-1
        question: What is 1/5 + 2/5?
        answer: "3/5"
        kind: fraction
        difficulty: simple
        type: procedural
        hints: [Count the fifths., Add the numerators 1 and 2.]
        solution: 1/5 + 2/5 = 3/5.
`
	_, err := curriculum.Parse("fractions.yaml", []byte(doc))
	fmt.Println(err)
	// Output:
	// fractions.yaml:3: grade: must be an integer, not "seven"
	// fractions.yaml:16: subtopics[0].questions[0].difficulty: must be one of easy, medium, hard, not "simple"
}

func ExampleInferStepType() {
	for i, title := range []string{"What a ratio is", "Dividing in a ratio", "Quick quiz", "Word problems"} {
		fmt.Println(title, "→", curriculum.InferStepType(i+1, 4, title))
	}
	// Output:
	// What a ratio is → explain
	// Dividing in a ratio → check
	// Quick quiz → check
	// Word problems → practice
}

func ExampleFile_Guidelines() {
	doc := `country: India
board: CBSE
grade: 7
subject: Mathematics
topic: {key: fractions, title: Fractions}
subtopics:
  - key: adding-fractions
    title: Adding fractions
    teaching_approach: Use strips cut into equal parts.
    learning_objectives: [Add like fractions.]
    questions:
      - id: like-1
        question: What is 1/5 + 2/5?
        answer: "3/5"
        difficulty: easy
        type: procedural
        hints: [Count the fifths., Add the numerators 1 and 2.]
        solution: 1/5 + 2/5 = 3/5.
`
	f, err := curriculum.Parse("fractions.yaml", []byte(doc))
	if err != nil {
		fmt.Println(err)
		return
	}
	g := f.Guidelines()[0]
	fmt.Println(g.Key, g.Subtopic.Status, g.DefaultPlan)
	for _, st := range g.Subtopic.Plan {
		fmt.Println(st.Type, st.Concept)
	}
	// Output:
	// mathematics/fractions/adding-fractions approved true
	// explain Adding fractions
	// check Adding fractions
	// explain Adding fractions
	// practice Adding fractions
}
