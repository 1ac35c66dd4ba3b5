package learner

import (
	"math/rand/v2"
	"strings"
	"unicode"

	"github.com/tutord/tutord/internal/tutor/answer"
)

// Move is what a learner's message does.
type Move string

// The moves.
const (
	MoveCorrect  Move = "correct"   // answers the question right
	MoveWrong    Move = "wrong"     // answers it wrong
	MoveIDK      Move = "idk"       // says "I don't know"
	MoveOffTopic Move = "off_topic" // chats about something else
	MoveAsk      Move = "ask"       // asks the tutor something back
	MoveAck      Move = "ack"       // acknowledges an explanation
	MoveDoubt    Move = "doubt"     // raises a doubt (clarify_doubts)
	MoveDone     Move = "done"      // has no more doubts
	MoveRepeat   Move = "repeat"    // points out that the tutor repeated itself
)

// Question is a question waiting for the learner's answer.
type Question struct {
	ID       string
	Text     string
	Expected answer.Expected
	// Wrong is a plausible wrong answer; "" when there is none.
	Wrong string
}

// Situation is what the learner sees before its turn.
type Situation struct {
	Mode  string // teach_me, clarify_doubts or exam
	Reply string // the tutor's last message
	// Question is the question waiting for an answer, nil when none is.
	Question *Question
	// Attempts counts the wrong answers already given to Question.
	Attempts int
}

// Message is a learner's message and what it does.
type Message struct {
	Text string
	Move Move
}

// Learner is a simulated learner. It is not safe for concurrent use.
type Learner struct {
	p       Profile
	rng     *rand.Rand
	doubts  []string
	raised  int
	replies []string
}

// New returns a learner with profile p, deterministic for seed. lesson
// gives the doubts of clarify_doubts sessions; nil gives general ones.
func New(p Profile, seed uint64, lesson *Subtopic) *Learner {
	return &Learner{p: p, rng: rand.New(rand.NewPCG(seed, 0x7475746f72640a)), doubts: doubtsOf(lesson)}
}

// draws is how many random numbers each turn takes, whatever the move,
// so that one different tutor reply does not shift every later choice.
const draws = 6

// Next returns the learner's next message.
func (l *Learner) Next(s Situation) Message {
	var u [draws]float64
	for i := range u {
		u[i] = l.rng.Float64()
	}
	repeated := l.repeated(s.Reply)
	l.replies = append(l.replies, s.Reply)
	m := l.next(s, u, repeated)
	if m.Move != MoveCorrect && m.Move != MoveWrong && u[5] < l.p.Emoji {
		m.Text += " " + pick(emoji, u[4])
	}
	return m
}

func (l *Learner) next(s Situation, u [draws]float64, repeated bool) Message {
	p := l.p
	if repeated && p.NoticesRepeats {
		return Message{"You already said that. Can you explain it another way?", MoveRepeat}
	}
	switch s.Mode {
	case "clarify_doubts":
		if u[0] < p.OffTopic {
			return Message{pick(offTopic, u[1]), MoveOffTopic}
		}
		if l.raised >= p.Doubts {
			return Message{"No more doubts.", MoveDone}
		}
		l.raised++
		return Message{l.doubts[(l.raised-1)%len(l.doubts)], MoveDoubt}
	}
	if s.Question == nil {
		switch {
		case p.Simpler && u[0] < p.Ask && len(answer.SplitSentences(s.Reply)) > 3:
			return Message{pick(simpler, u[1]), MoveAsk}
		case u[0] < p.OffTopic:
			return Message{pick(offTopic, u[1]), MoveOffTopic}
		}
		return Message{pick(acks[p.Length], u[1]), MoveAck}
	}
	switch r := u[0]; {
	case r < p.IDK:
		return Message{pick(idks[p.Length], u[1]), MoveIDK}
	case r < p.IDK+p.OffTopic:
		return Message{pick(offTopic, u[1]), MoveOffTopic}
	case r < p.IDK+p.OffTopic+p.Ask && s.Mode != "exam":
		return Message{pick(asks, u[1]), MoveAsk}
	}
	if u[2] < min(1, p.Correct+p.Learning*float64(s.Attempts)) {
		return Message{l.phrase(s.Question.Expected, s.Question.Expected.Answer, true, u[3]), MoveCorrect}
	}
	if s.Question.Wrong == "" {
		return Message{pick(idks[p.Length], u[1]), MoveIDK}
	}
	return Message{l.phrase(s.Question.Expected, s.Question.Wrong, false, u[3]), MoveWrong}
}

// Said is an answer as a learner gives it: the text of a choice
// question's option rather than the letter the bank stores, which a
// question that names its options in its sentence never shows.
func Said(exp answer.Expected, value string) string {
	v := strings.TrimSpace(value)
	if len(exp.Options) == 0 || len(v) != 1 {
		return value
	}
	if i := int(strings.ToUpper(v)[0]) - 'A'; i >= 0 && i < len(exp.Options) {
		return strings.TrimSpace(exp.Options[i])
	}
	return value
}

// phrase words an answer in the learner's style, falling back to the bare
// answer when the evaluator would read the phrasing differently.
func (l *Learner) phrase(exp answer.Expected, value string, correct bool, u float64) string {
	value = Said(exp, value)
	templates := answers[l.p.Length]
	if l.p.Confident {
		templates = confident
	}
	text := strings.ReplaceAll(pick(templates, u), "{a}", value)
	v := answer.Evaluate(exp, text).Verdict
	if correct && v == answer.Correct || !correct && (v == answer.Incorrect || v == answer.Partial) {
		return text
	}
	return value
}

// repeated reports whether reply says what an earlier reply said: the
// same words, give or take a fifth of them.
func (l *Learner) repeated(reply string) bool {
	w := wordSet(reply)
	if len(w) < 6 {
		return false
	}
	for _, prev := range l.replies {
		if jaccard(w, wordSet(prev)) >= 0.8 {
			return true
		}
	}
	return false
}

// Similarity is the share of words two texts have in common (Jaccard
// similarity of their sets of words, case-insensitive): 1 for the same
// words, 0 for none in common or an empty text.
func Similarity(a, b string) float64 {
	return jaccard(wordSet(a), wordSet(b))
}

func wordSet(s string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		set[w] = true
	}
	return set
}

func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	inter := 0
	for w := range a {
		if b[w] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// doubtsOf returns the doubts a learner raises about a lesson: one per
// concept of its plan, in order.
func doubtsOf(s *Subtopic) []string {
	var out []string
	if s != nil {
		seen := map[string]bool{}
		templates := []string{"Can you explain %s again?", "I have a doubt about %s. How does it work?", "What is the main idea of %s?"}
		for _, st := range s.Topic.Steps {
			c := strings.ToLower(st.Concept)
			if c == "" || seen[c] {
				continue
			}
			seen[c] = true
			out = append(out, strings.Replace(templates[len(out)%len(templates)], "%s", c, 1))
		}
	}
	if len(out) == 0 {
		out = []string{"Can you explain the main idea again?", "Why does this work?"}
	}
	return out
}

func pick(list []string, u float64) string {
	return list[min(int(u*float64(len(list))), len(list)-1)]
}

// The learner's phrasings. Answers avoid words the pre-checks read as
// "I don't know" or "stop", and numbers that would compete with the answer.
var (
	answers = map[Length][]string{
		Terse:  {"{a}"},
		Short:  {"It's {a}", "{a} I think", "I got {a}"},
		Medium: {"I think the answer is {a}.", "My answer is {a}.", "I worked it out and got {a}."},
		Long: {
			"I think the answer is {a}. I went through it step by step and checked it again.",
			"My answer is {a}. It took me a while, but I believe that is right.",
			"I worked it out and got {a}. I wrote down each step to be careful.",
		},
	}
	confident = []string{"It's definitely {a}, I'm sure.", "Easy, it's {a}.", "Obviously {a}."}
	idks      = map[Length][]string{
		Terse:  {"idk", "dunno"},
		Short:  {"I don't know", "no idea"},
		Medium: {"I don't know how to do this one.", "I'm stuck, I don't know."},
		Long:   {"I don't know how to do this one. I tried but I got lost.", "I'm stuck, I don't know where to start."},
	}
	acks = map[Length][]string{
		Terse:  {"ok", "yes", "okay"},
		Short:  {"Okay, got it", "Yes, go on", "Makes sense"},
		Medium: {"Okay, that makes sense. Please go on.", "Yes, I understand so far."},
		Long:   {"Okay, that makes sense to me. Please go on with the lesson.", "Yes, I understand so far, and I am ready for more."},
	}
	offTopic = []string{
		"Did you watch the cricket match yesterday?",
		"I want to play football after this.",
		"What's your favourite movie?",
		"My cat keeps sitting on my keyboard lol",
		"Can we talk about video games instead?",
	}
	asks    = []string{"Can you explain that more simply?", "Why does that work?", "Can you show me an example first?"}
	simpler = []string{"That's a lot. Can you say it more simply?", "Can you explain that in simpler words?"}
	emoji   = []string{"😊", "🤔", "😅", "🙂", "👍"}
)
