package orchestrator

import (
	"testing"

	"github.com/tutord/tutord/internal/tutor"
	"github.com/tutord/tutord/internal/tutor/answer"
)

// TestAlsoWrong: a reply that gives the right answer and the question's
// known wrong one is a hedge, not a right answer.
func TestAlsoWrong(t *testing.T) {
	topic := &tutor.Topic{Questions: []tutor.BankQuestion{{ID: "gas", Text: "Which gas do plants take in?", Answer: "carbon dioxide",
		Misconception: "Says oxygen.", MisconceptionAnswers: []string{"oxygen"}}}}
	exp := answer.Expected{Answer: "carbon dioxide"}
	tests := []struct {
		reply string
		want  answer.Verdict
	}{
		{"carbon dioxide", answer.Correct},
		{"it's carbon dioxide, not oxygen", answer.Correct},
		{"oxygen and carbon dioxide", answer.NotAttempt},
		{"carbon dioxide or oxygen", answer.NotAttempt},
		{"oxygen", answer.Incorrect},
	}
	for _, tt := range tests {
		if got := alsoWrong(answer.Evaluate(exp, tt.reply), topic, "gas", tt.reply); got.Verdict != tt.want {
			t.Errorf("%q: %s (%s), want %s", tt.reply, got.Verdict, got.Reason, tt.want)
		}
	}
	// Beside another thing that is not the known wrong answer: partly right.
	topic.Steps = []tutor.Step{{Content: "Plants take in carbon dioxide and water."}}
	if got := alsoWrong(namedBeside(judge(exp, "Which gas do plants take in?", "carbon dioxide and water"), topic, "gas", "carbon dioxide and water"), topic, "gas", "carbon dioxide and water"); got.Verdict != answer.Partial {
		t.Errorf("right answer beside another: %s (%s), want partial", got.Verdict, got.Reason)
	}
	// The other thing named may be a word of the question: still partly
	// right, not the question's value repeated.
	ice := &tutor.Topic{Steps: []tutor.Step{{Content: "Ice is a solid; water is a liquid."}},
		Questions: []tutor.BankQuestion{{ID: "ice", Text: "Is ice a solid, a liquid or a gas?", Answer: "solid"}}}
	iceExp := answer.Expected{Answer: "solid", Kind: answer.KindText}
	if got := echoed(namedBeside(judge(iceExp, ice.Questions[0].Text, "solid and liquid"), ice, "ice", "solid and liquid"), ice.Questions[0].Text); got.Verdict != answer.Partial {
		t.Errorf("\"solid and liquid\": %s (%s), want partial", got.Verdict, got.Reason)
	}
	// A question whose right answer holds the wrong one's words is left alone.
	carbon := &tutor.Topic{Questions: []tutor.BankQuestion{{ID: "c", Answer: "carbon dioxide", Misconception: "Says carbon.", MisconceptionAnswers: []string{"carbon"}}}}
	if got := alsoWrong(answer.Evaluate(exp, "carbon dioxide"), carbon, "c", "carbon dioxide"); got.Verdict != answer.Correct {
		t.Errorf("right answer holding the wrong one: %s", got.Verdict)
	}
	// A comparison names the wrong value as the one compared with.
	greater := &tutor.Topic{Questions: []tutor.BankQuestion{{ID: "cmp", Text: "Which is greater, -7 or -2?", Answer: "-2", Kind: "integer",
		Misconception: "Thinks -7 is greater.", MisconceptionAnswers: []string{"-7"}}}}
	for _, reply := range []string{"-7 < -2", "-2 > -7", "-2 is greater than -7"} {
		res := judge(greater.Questions[0].Expected(), greater.Questions[0].Text, reply)
		if got := alsoWrong(res, greater, "cmp", reply); got.Verdict != answer.Correct {
			t.Errorf("%q: %s (%s), want correct", reply, got.Verdict, got.Reason)
		}
	}
}

// TestEchoed: repeating the question's value is not a partly right answer.
func TestEchoed(t *testing.T) {
	tests := []struct {
		question, answer, reply string
		want                    answer.Verdict
	}{
		{"Write 0.35 as a percentage.", "35%", "0.35", answer.Incorrect},
		{"Write 0.35 as a percentage.", "35%", "35", answer.Partial},
		{"Write 0.35 as a percentage.", "35%", "35%", answer.Correct},
		{"Simplify 6/10.", "3/5", "6/10", answer.Incorrect},
		{"What is 7/10 - 3/10 in its simplest form?", "2/5", "4/10", answer.Partial},
	}
	for _, tt := range tests {
		exp := answer.Expected{Answer: tt.answer, Simplest: true, RequireUnit: true}
		if got := echoed(answer.Evaluate(exp, tt.reply), tt.question); got.Verdict != tt.want {
			t.Errorf("%q for %q: %s (%s), want %s", tt.reply, tt.question, got.Verdict, got.Reason, tt.want)
		}
	}
}

// TestChatter: a learner relies on "lol", "wait a sec" or "I'm back" to a
// question whose answer is words being taken for no answer (asked again,
// no wrong attempt), and on a short real answer, right or wrong, being
// judged all the same.
func TestChatter(t *testing.T) {
	gas := answer.Expected{Answer: "carbon dioxide", Kind: answer.KindText, Accept: []string{"CO2"}}
	states := answer.Expected{Answer: "solid, liquid, gas", Kind: answer.KindSet}
	for _, tt := range []struct {
		exp   answer.Expected
		reply string
		want  bool
	}{
		{gas, "lol", true},
		{gas, "wait a sec", true},
		{gas, "I'm back", true},
		{gas, "sorry I was away", true},
		{gas, "brb", true},
		{gas, "one moment please", true},
		{gas, "hint pls", true},
		{gas, "lol this is boring", true},
		{states, "ok I'm back", true},
		// Answers, right or wrong.
		{gas, "oxygen", false},
		{gas, "carbon dioxide", false},
		{gas, "the sun", false},
		{gas, "evaporation", false},
		{gas, "not sure, nitrogen", false},
		{gas, "hold on, oxygen", false},
		{states, "solid liquid", false},
		{answer.Expected{Answer: "back", Kind: answer.KindText}, "back", false}, // a word of the answer
		{answer.Expected{Answer: "yes", Kind: answer.KindBoolean}, "no", false},
		{answer.Expected{Answer: "B", Kind: answer.KindChoice, Options: []string{"sun", "soil"}}, "a", false},
		{answer.Expected{Answer: "14", Kind: answer.KindInteger}, "lol", false}, // the evaluator's NotAttempt already
		{gas, "i was away for a bit but i think it is oxygen", false},           // too long to be only chatter
	} {
		if got := chatter(tt.reply, tt.exp); got != tt.want {
			t.Errorf("chatter(%q) to %q = %v, want %v", tt.reply, tt.exp.Answer, got, tt.want)
		}
	}
}

// judgeCase is a reply to a question with an integer answer, and the
// verdict judge should give it.
type judgeCase struct {
	question, answer, reply string
	want                    answer.Verdict
}

func checkJudge(t *testing.T, tests []judgeCase) {
	t.Helper()
	for _, tt := range tests {
		exp := answer.Expected{Answer: tt.answer, Kind: answer.KindInteger}
		if got := judge(exp, tt.question, tt.reply); got.Verdict != tt.want {
			t.Errorf("%q for %q: %s (%s), want %s", tt.reply, tt.question, got.Verdict, got.Reason, tt.want)
		}
	}
}

// TestListed: a reply listing several values is judged by the one given
// for what the question asks.
func TestListed(t *testing.T) {
	const share = "₹900 is divided between Asha and Bina in the ratio 4 : 5. How many rupees does Bina get?"
	const larger = "Two numbers are in the ratio 3 : 7 and their sum is 80. What is the larger number?"
	checkJudge(t, []judgeCase{
		{share, "500", "Asha 400, Bina 500", answer.Correct},
		{share, "500", "Asha gets 400 and Bina gets 500", answer.Correct},
		{share, "500", "Bina's share is 500, Asha's 400", answer.Correct},
		{share, "500", "Asha 500, Bina 400", answer.Incorrect},
		{share, "500", "400 and 500", answer.NotAttempt},
		{share, "500", "400 and 600", answer.Incorrect},
		{share, "500", "500", answer.Correct},
		{share, "500", "9 parts, 900 ÷ 9 = 100, 5 × 100 = 500", answer.Correct},
		{share, "500", "₹1,500", answer.Incorrect},
		{larger, "56", "24 and 56", answer.NotAttempt},
		{larger, "56", "56 and 24", answer.NotAttempt},
		{larger, "56", "the larger is 56", answer.Correct},
		{larger, "56", "one hundred and fifty six", answer.Incorrect},
		{"What is 15% of 360?", "54", "54", answer.Correct},
		{share, "500", "14, no wait 500", answer.Correct},
		{share, "500", "The answer is 500, not 400", answer.Correct},
		{share, "500", "500, since 5 parts", answer.Correct},
		{share, "500", "It's 500, Bina gets 5 parts", answer.Correct},
		{share, "500", "₹400 and ₹500", answer.NotAttempt},
		{share, "500", "400 rupees and 500 rupees", answer.NotAttempt},
	})
	// Other kinds are left alone: "3 and 5/6" is one mixed number.
	exp := answer.Expected{Answer: "3 5/6", Kind: answer.KindMixedNumber}
	if got := listed(answer.Evaluate(exp, "3 and 5/6"), exp, "What is 1 1/2 + 2 1/3?", "3 and 5/6"); got.Verdict != answer.Correct {
		t.Errorf("mixed number with and: %s (%s)", got.Verdict, got.Reason)
	}
}

// TestCompared: a comparison answers "which is greater" with its greater
// side, and "which is smaller" with its smaller one.
func TestCompared(t *testing.T) {
	greater, smaller := "Which is greater, -7 or -2?", "Which is smaller, -7 or -2?"
	checkJudge(t, []judgeCase{
		{greater, "-2", "-7 < -2", answer.Correct},
		{greater, "-2", "-2 > -7", answer.Correct},
		{greater, "-2", "-7 > -2", answer.Incorrect},
		{greater, "-2", "-2", answer.Correct},
		{greater, "-2", "-7", answer.Incorrect},
		{smaller, "-7", "-7 < -2", answer.Correct},
		{smaller, "-7", "-2 < -7", answer.Incorrect},
		{"What is 3 + 4?", "7", "7 > 3", answer.Correct},
		{"Which is greater, -7 or -2? Use what the lesson showed.", "-2", "-2 > -7", answer.Correct},
		{"Which is more negative, -3 or -8?", "-8", "-8 < -3", answer.Correct},
		{"Which is the greatest: -7, -2 or -9?", "-2", "-7 < -2", answer.Correct},
	})
}

// TestSignedFall: the size of a fall, given with a minus, answers a
// question that asks by how much something fell; elsewhere the sign
// counts.
func TestSignedFall(t *testing.T) {
	checkJudge(t, []judgeCase{
		{"The population of a town fell from 12,000 to 10,200. By what percentage did it fall?", "15", "-15", answer.Correct},
		{"The temperature dropped from 5 °C to -3 °C. By how many degrees did it drop?", "8", "-8", answer.Correct},
		{"What is 5 - 20?", "15", "-15", answer.Incorrect},
		{"By what percentage did it fall?", "15", "-12", answer.Incorrect},
	})
	exp := answer.Expected{Answer: "15%"}
	if got := judge(exp, "By what percentage did it fall?", "-15%"); got.Verdict != answer.Correct || got.Extracted != "-15%" {
		t.Errorf("-15%% for a fall of 15%%: %+v", got)
	}
}

// TestLetterWithoutOptions: a bare letter to a question without options
// is no answer (the learner is asked for theirs), unless the answer is a
// letter or the question shows lettered options.
func TestLetterWithoutOptions(t *testing.T) {
	sum := answer.Expected{Answer: "7/8"}
	for _, c := range []struct {
		exp           answer.Expected
		question, msg string
		want          answer.Verdict
		reason        string
	}{
		{sum, "What is 3/4 + 1/8?", "B", answer.NotAttempt, answer.ReasonLetterNoOptions},
		{sum, "What is 3/4 + 1/8?", "option c", answer.NotAttempt, answer.ReasonLetterNoOptions},
		{sum, "What is 3/4 + 1/8?", "(d)", answer.NotAttempt, answer.ReasonLetterNoOptions},
		{sum, "What is 3/4 + 1/8?", "7/8", answer.Correct, ""},
		{sum, "What is 3/4 + 1/8?", "e", answer.NotAttempt, "no number in the reply"}, // as before: not a letter of options
		{answer.Expected{Answer: "b", Kind: answer.KindText}, "Which letter comes after a?", "b", answer.Correct, ""},
		{answer.Expected{Answer: "bee", Kind: answer.KindText, Accept: []string{"b"}}, "Which insect makes honey?", "b", answer.Correct, ""},
		{answer.Expected{Answer: "solid", Kind: answer.KindText}, "Which keeps its shape? A) gas B) solid", "B", answer.Incorrect, ""},
		{answer.Expected{Answer: "solid", Kind: answer.KindText}, "Which keeps its shape? A: gas, B: solid", "B", answer.Incorrect, ""},
		{answer.Expected{Answer: "solid", Kind: answer.KindText}, "Which keeps its shape? a. gas b. solid", "b", answer.Incorrect, ""},
		// A letter that names something of the answer or the question.
		{answer.Expected{Answer: "vitamin C", Kind: answer.KindText}, "Which vitamin prevents scurvy?", "C", answer.Incorrect, ""},
		{answer.Expected{Answer: "angle B", Kind: answer.KindText}, "In triangle ABC, angle A is 50° and angle C is 70°. Which angle is the largest?", "B", answer.Incorrect, ""},
		{answer.Expected{Answer: "5", Kind: answer.KindInteger}, "If d + 3 = 8, what is d?", "d", answer.NotAttempt, "no number in the reply"},
		// "a" in a question is an article.
		{sum, "What is 3/4 + 1/8? Write a fraction.", "a", answer.NotAttempt, answer.ReasonLetterNoOptions},
	} {
		got := judge(c.exp, c.question, c.msg)
		if got.Verdict != c.want || c.reason != "" && got.Reason != c.reason {
			t.Errorf("%q for %q: %s (%s), want %s (%s)", c.msg, c.question, got.Verdict, got.Reason, c.want, c.reason)
		}
	}
}

// TestByPlace: an option picked by its place is read in the order the
// learner saw the options: lettered, or as the question names them.
func TestByPlace(t *testing.T) {
	lettered := answer.Expected{Answer: "C", Kind: answer.KindChoice, Options: []string{"gas", "liquid", "solid"}}
	named := answer.Expected{Answer: "C", Kind: answer.KindChoice, Options: []string{"smaller than 4", "equal to 4", "bigger than 4"}}
	for _, c := range []struct {
		exp           answer.Expected
		question, msg string
		want          answer.Verdict
		extracted     string
	}{
		{lettered, "Which state keeps its shape?", "the last one", answer.Correct, "solid"},
		{lettered, "Which state keeps its shape?", "the first one", answer.Incorrect, "gas"},
		{lettered, "Which state keeps its shape?", "option 2", answer.Incorrect, "liquid"},
		{named, "Is 4 ÷ (1/2) bigger than 4, smaller than 4 or equal to 4?", "the first one", answer.Correct, "bigger than 4"},
		{named, "Is 4 ÷ (1/2) bigger than 4, smaller than 4 or equal to 4?", "the last one", answer.Incorrect, "equal to 4"},
		// Letters the learner never saw earn nothing: which one is meant
		// is asked.
		{named, "Is 4 ÷ (1/2) bigger than 4, smaller than 4 or equal to 4?", "C", answer.NotAttempt, ""},
		{named, "Is 4 ÷ (1/2) bigger than 4, smaller than 4 or equal to 4?", "a", answer.NotAttempt, ""},
		{named, "Is 4 ÷ (1/2) bigger than 4, smaller than 4 or equal to 4?", "(b)", answer.NotAttempt, ""},
		{named, "Is 4 ÷ (1/2) bigger than 4, smaller than 4 or equal to 4?", "option C", answer.NotAttempt, ""},
	} {
		got := judge(c.exp, c.question, c.msg)
		if got.Verdict != c.want || got.Extracted != c.extracted {
			t.Errorf("%q for %q: %s %q, want %s %q", c.msg, c.question, got.Verdict, got.Extracted, c.want, c.extracted)
		}
	}
	// Letters shown are the stored ones.
	if got := judge(lettered, "Which state keeps its shape? Is it A) gas, B) liquid or C) solid?", "C"); got.Verdict != answer.Correct {
		t.Errorf("C of lettered options: %s %q, want correct", got.Verdict, got.Extracted)
	}
	if got := judge(lettered, "Which state keeps its shape? Is it A) gas, B) liquid or C) solid?", "a"); got.Verdict != answer.Incorrect {
		t.Errorf("a of lettered options: %s %q, want incorrect", got.Verdict, got.Extracted)
	}
	for _, q := range []string{"Which state keeps its shape? (a) gas (b) liquid (c) solid", "Which state keeps its shape? a) gas b) liquid c) solid", "Which state keeps its shape?\nA. gas\nB. liquid\nC. solid"} {
		if got := judge(lettered, q, "c"); got.Verdict != answer.Correct {
			t.Errorf("c of options lettered as in %q: %s %q, want correct", q, got.Verdict, got.Extracted)
		}
	}
	first := answer.Expected{Answer: "B", Kind: answer.KindChoice, Options: []string{"last", "first"}}
	if got := judge(first, "Which comes first?", "first"); got.Verdict != answer.Correct {
		t.Errorf("an option whose text is a place: %s", got.Verdict)
	}
}

// TestListedByNoun: a list labelled with the asking sentence's noun gives
// the answer by that label ("the son is 8"), not its first value.
func TestListedByNoun(t *testing.T) {
	q := "Ravi is 4 times as old as his son. In 16 years, Ravi will be twice as old as his son. How old is the son now?"
	checkJudge(t, []judgeCase{
		{q, "8", "Ravi is 32 and the son is 8", answer.Correct},
		{q, "8", "the son is 8 and Ravi is 32", answer.Correct},
		{q, "8", "Ravi is 8 and the son is 32", answer.Incorrect},
		{q, "8", "32 and 8", answer.NotAttempt},
	})
}

// TestListedByLowerCaseNoun: values labelled with the question's counted
// things ("boys", "girls") are read by the one asked for.
func TestListedByLowerCaseNoun(t *testing.T) {
	q := "In a class, the ratio of boys to girls is 5 : 4. There are 20 boys. How many girls are there?"
	checkJudge(t, []judgeCase{
		{q, "16", "boys are 20 and girls are 25", answer.Incorrect},
		{q, "16", "boys are 20 and girls are 16", answer.Correct},
		{q, "16", "20 boys and 16 girls", answer.Correct},
		{q, "16", "16", answer.Correct},
		{"In a class, the ratio of boys to the girls is 5 : 4. There are 25 boys. How many girls are there?", "20", "boys 20, girls 25", answer.Incorrect},
		// A verb is no label: the list of values is a hedge.
		{"A submarine is 120 m below sea level. It rises 45 m and then dives 70 m. How many metres below sea level is it now?", "145", "rises 45, dives 70, 145 m", answer.NotAttempt},
	})
}

// TestByRestated: "45 by 5" to a question that says "divide 45 by 5" is
// the question said back, not an answer; "x = 90 by 5" to another is 18.
func TestByRestated(t *testing.T) {
	checkJudge(t, []judgeCase{
		{"Divide 45 by 5.", "9", "45 by 5", answer.NotAttempt},
		{"What is 45 divided by 5?", "9", "45 by 5", answer.NotAttempt},
		{"Divide 45 by 5.", "9", "45 by 5 = 9", answer.Correct},
		{"Divide 45 by 5.", "9", "9 because 45 by 5 is 9", answer.Correct},
		{"A rectangle is 6 by 4 cm. What is its area in square cm?", "24", "6 by 4 = 24", answer.Correct},
		{"Divide 45 by 5.", "9", "9", answer.Correct},
		{"Solve 3x + 2x = 90.", "18", "x = 90 by 5", answer.Correct},
	})
}

// TestBySize: a reply giving both values to a question that asks for the
// smaller or the larger is judged by the one labelled as asked; unlabelled,
// it has not said which, and is asked (as a hedge); the values a question
// offers are no answer.
func TestBySize(t *testing.T) {
	smaller := "Two numbers differ by 9. Five times the smaller number equals twice the larger number. What is the smaller number?"
	larger := "Two numbers are in the ratio 3 : 7 and their sum is 80. What is the larger number?"
	checkJudge(t, []judgeCase{
		{smaller, "6", "The numbers are 15 and 6.", answer.NotAttempt},
		{smaller, "6", "6, 15", answer.NotAttempt},
		{smaller, "6", "6 is the smaller one", answer.Correct},
		{smaller, "6", "The numbers are 15 and 5.", answer.Incorrect},
		{larger, "56", "smaller is 24, larger is 56", answer.Correct},
		{larger, "56", "80/10 = 8, so smaller is 24 and larger is 56", answer.Correct},
		{larger, "56", "the larger is 56 and the smaller is 24", answer.Correct},
		{larger, "56", "56 is the larger", answer.Correct},
		{larger, "56", "smaller is 56, larger is 24", answer.Incorrect},
		{larger, "56", "24 or 56", answer.NotAttempt},                  // a hedge
		{larger, "56", "the larger is 7 times 8 = 56", answer.Correct}, // working, not a label
		{larger, "56", "the larger is 7 parts = 56", answer.Correct},
		{larger, "56", "larger is 7 by 10 of 80 = 56", answer.Correct},
		{larger, "56", "if smaller is 30 then larger is 50, no wait larger is 56", answer.Correct}, // corrected
		{"Which is greater, 3/4 or 2/3?", "3/4", "3/4 is the greater", answer.Correct},
		{"A rope is cut into two pieces whose lengths differ by 3 m. What is the smaller piece?", "2 1/2", "smaller is 2 1/2 m, larger 5 1/2 m", answer.Correct},
		{"Two shares differ by 500. What is the smaller share?", "1500", "smaller share is 1,500", answer.Correct},
		{"What is the least number of buses needed?", "7", "7 buses, 6 would leave 10 students", answer.Correct}, // a superlative asks something else
		{"A rope is cut into two pieces whose lengths differ by 3 m. What is the smaller piece?", "2 1/2", "the smaller piece is 2 and 1/2 m", answer.Correct},
		{"A rope is cut into two pieces whose lengths differ by 3 m. What is the smaller piece?", "2 1/2", "smaller is 2 and a half", answer.Correct},
		{larger, "56", "larger is 24, no wait, 56", answer.Correct},
		{larger, "56", "larger is 56, smaller is 24, no wait 20", answer.Correct}, // the correction is of the smaller
		{"What is the least common multiple of 4, 6 and 12?", "12", "12 24 36", answer.Correct},
	})
	exp := answer.Expected{Answer: "-2", Kind: answer.KindInteger}
	if got := judge(exp, "Which is greater, -7 or -2?", "-7 and -2"); got.Verdict == answer.Correct {
		t.Errorf("the question's own values: %s, want no credit", got.Verdict)
	}
}

// TestDeclinesExamQuestion: "pass" or "next" declines an exam question,
// unless it is the question's answer; a message that says more than a
// skip, and a lesson, decline nothing.
func TestDeclinesExamQuestion(t *testing.T) {
	exam := func(question, expected string) tutor.State {
		return tutor.State{Mode: tutor.ModeExam, ExamQuestions: []tutor.ExamQuestion{{QuestionText: question, ExpectedAnswer: expected}}}
	}
	topic := &tutor.Topic{}
	double := exam("What is double 7?", "14")
	for msg, want := range map[string]bool{
		"pass": true, "Pass.": true, "next": true, "next question": true, "next question please": true, "ok next": true,
		"I'll pass": true, "can we move on?": true, "skip this one": true,
		"hi": false, "next time": false, "14": false, "pass me the answer": false, "what comes next?": false,
	} {
		if got := declinesExamQuestion(double, topic, msg); got != want {
			t.Errorf("%q to %q: %v, want %v", msg, double.ExamQuestions[0].QuestionText, got, want)
		}
	}
	if declinesExamQuestion(exam("Which word is the verb in 'Players pass the ball'?", "pass"), topic, "pass") {
		t.Errorf("the right answer \"pass\" declines the question")
	}
	lesson := double
	lesson.Mode = tutor.ModeTeachMe
	if declinesExamQuestion(lesson, topic, "next") {
		t.Errorf("\"next\" in a lesson declines an exam question")
	}
	finished := double
	finished.ExamFinished = true
	if declinesExamQuestion(finished, topic, "next") {
		t.Errorf("\"next\" after the exam declines a question")
	}
}
