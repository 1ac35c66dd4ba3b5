package tutor

import (
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tutord/tutord/internal/tutor/answer"
)

// Precheck is what the program makes of a message before any model sees it.
type Precheck string

// The pre-check results.
const (
	PrecheckNone     Precheck = ""          // an ordinary message: evaluate and tutor it
	PrecheckEmpty    Precheck = "empty"     // nothing to read: a gentle nudge, no turn counted
	PrecheckTooLong  Precheck = "too_long"  // over the length limit: ask for less, no turn counted
	PrecheckStop     Precheck = "stop"      // the learner wants to stop
	PrecheckOffTopic Precheck = "off_topic" // chit-chat away from the lesson
	PrecheckIDK      Precheck = "idk"       // "I don't know": encourage, never give the answer
)

// Replies to messages that do not count as a turn.
const (
	NudgeReply   = "Take your time — type your answer or your question whenever you're ready." // an empty message
	TooLongReply = "That's a lot to read at once — could you send a shorter message?"          // a message over the limit
)

// PrecheckConfig holds the phrase lists of the pre-checks. Phrases match
// whole words, case-insensitively, with apostrophes ignored ("don't" is
// "dont"): "end" does not fire on "friend", nor "stop" on "stopwatch".
type PrecheckConfig struct {
	// Stop phrases ask to stop wherever they appear ("bye", "i'm done"),
	// unless more of the sentence follows them: "I need to go over this",
	// "I'm done with this step", "Goodbye is the last word of the poem"
	// go on. Only words of leaving may follow a stop phrase before the end
	// of its clause ("I'm done for today", "bye didi, see you").
	Stop []string
	// StopExact phrases ask to stop only as the whole message, give or take
	// Fillers: "done" alone stops, "are we done with step two" does not.
	// A phrase of more than one word asked as a question ("That's it?",
	// "no more?") is surprise, not a goodbye, and goes on; a single word
	// asked ("stop?", "done?") still asks to stop.
	StopExact []string
	// StopStated phrases ask to stop wherever they appear in a statement:
	// "I think that's enough for today". A question ("is that enough for
	// now?") or a "not" ("I'm not done for today") cancels them.
	StopStated []string
	// Fillers are words ignored at either end of a message for StopExact.
	Fillers []string
	// Break phrases ask for a break ("can we take a break?", "I'm tired"):
	// a stop request in a lesson, which pauses it (see CheckIn).
	Break []string
	// IDK phrases say "I don't know" (English and Hinglish). A message that
	// also ventures an answer is no "I don't know": one with a word of
	// guessing ("not sure, maybe condensation", "I think it's X but I'm not
	// sure"), or one whose "not sure" stands in a clause of its own beside
	// the answer ("evaporation, not sure").
	IDK []string
	// IDKExact phrases say "I don't know" only as a whole clause, give or
	// take Fillers: "skip" and "I know this, skip", not "skip counting".
	IDKExact []string
	// OffTopic phrases are chit-chat away from the lesson, unless "about"
	// follows them ("tell me a story about fractions") or the message names
	// a part of the lesson ("in the poem I'm Nobody! Who are you?").
	OffTopic []string
	// MaxStopWords: a longer message is never a stop request (0: 8).
	MaxStopWords int
	// MaxRunes: a longer message is too long (0: 4000).
	MaxRunes int
}

// DefaultPrecheckConfig returns the default phrase lists.
func DefaultPrecheckConfig() PrecheckConfig {
	return PrecheckConfig{
		Stop: []string{
			"bye", "bye bye", "goodbye", "good bye", "i quit", "i'm done", "i am done",
			"i'm finished", "i am finished", "end the session", "end session", "end this session",
			"stop the session", "stop the lesson", "stop the exam", "let's stop", "i want to stop",
			"can we stop", "can i stop", "can we end", "can we finish", "that's all for today",
			"that's it for today", "see you later", "see you tomorrow", "gotta go", "got to go",
			"i have to go", "i need to go", "bas karo", "band karo", "khatam karo", "chalo bye",
			"end the lesson", "end the class", "stop the class",
			"byee", "byeee", "byeeee", // texting spellings
		},
		Break: []string{
			"take a break", "have a break", "i need a break", "really need a break", "want a break", "a short break", "a quick break",
			"a snack break", "a small break", "break please", "break time", "i'm tired", "i am tired",
			"i'm so tired", "i am so tired", "i'm sleepy", "i am sleepy", "thak gaya", "thak gayi",
		},
		StopExact: []string{
			"stop", "end", "done", "exit", "quit", "finish", "finished", "enough", "the end",
			"that's it", "that's all", "no more", "bas", "khatam", "that's enough",
			"no that's all", "no that's it", "no thanks that's all", "no thanks that's it",
			"good night", "goodnight", "tata", "ta ta",
			// "I have to go", "that's enough now"; not "ho gaya" alone,
			// which may say the sum is solved.
			"jana hai", "jaana hai", "mujhe jana hai", "mujhe jaana hai", "ab bas", "bas ho gaya", "bas bas",
		},
		StopStated: []string{
			"enough for today", "enough for now", "that's all for now", "that's it for now", "done for today",
			"done for now", "call it a day",
		},
		Fillers: []string{
			"ok", "okay", "please", "pls", "plz", "now", "just", "so", "um", "umm", "hmm",
			"then", "yes", "yeah", "thanks", "thank", "you", "sir", "maam", "mam", "madam", "didi", "bhaiya",
		},
		IDK: []string{
			"i don't know", "dont know", "do not know", "dunno", "idk", "no idea", "no clue",
			"not sure", "i give up", "i can't", "i cannot", "tell me the answer",
			"skip it", "skip this", "skip that", "skip the question", "skip question", "can we skip",
			"can i skip", "let's skip", "i want to skip", "i'll skip",
			"just tell me", "what is the answer", "nahi pata", "nahin pata", "pata nahi",
			"pata nahin", "pta nahi", "nahi pta", "maloom nahi", "malum nahi", "nahi maloom",
			"nahi malum", "nahi aata", "nahi aati", "पता नहीं", "नहीं पता", "मालूम नहीं",
			// Texting spellings.
			"dnt know", "dont knw", "dnt knw", "i dno", "dno", "idek", "no idea at all", "donno", "i donno",
			"pata nhi", "nhi pata", "pta nhi", "nhi pta", "nhi aata", "nhi aati", "pata nai", "nai pata",
			"maloom nhi", "nhi maloom",
		},
		IDKExact: []string{"skip"},
		OffTopic: []string{
			"who are you", "what is your name", "what's your name", "tell me a joke",
			"tell me a story", "play a game", "let's play", "can you sing", "sing a song", "sing for me",
			"are you a robot", "are you human", "are you real", "what's the weather",
			"favourite movie", "favorite movie", "favourite song", "favorite song",
		},
	}
}

// Prechecker runs the pre-checks with one configuration. It is safe for
// concurrent use.
type Prechecker struct {
	stop, exact, stated, brk, idk, idkExact, offTopic [][]string
	exactWord                                         [][]string // the one-word StopExact phrases, which stop even when asked
	fillers                                           []string
	maxStopWords, maxRunes                            int
}

// NewPrechecker returns a Prechecker for c.
func NewPrechecker(c PrecheckConfig) *Prechecker {
	compile := func(phrases []string) [][]string {
		var out [][]string
		for _, p := range phrases {
			if w, _ := words(p, nil); len(w) > 0 {
				out = append(out, w)
			}
		}
		return out
	}
	p := &Prechecker{
		stop:         compile(c.Stop),
		exact:        compile(c.StopExact),
		stated:       compile(c.StopStated),
		brk:          compile(c.Break),
		idk:          compile(c.IDK),
		idkExact:     compile(c.IDKExact),
		offTopic:     compile(c.OffTopic),
		maxStopWords: c.MaxStopWords,
		maxRunes:     c.MaxRunes,
	}
	for _, ph := range p.exact {
		if len(ph) == 1 {
			p.exactWord = append(p.exactWord, ph)
		}
	}
	for _, f := range compile(c.Fillers) {
		p.fillers = append(p.fillers, f...)
	}
	if p.maxStopWords <= 0 {
		p.maxStopWords = 8
	}
	if p.maxRunes <= 0 {
		p.maxRunes = 4000
	}
	return p
}

// Check returns the pre-check result of a message. In order: empty; too
// long; then, only when the message holds no digit (a number makes it an
// answer attempt: "I'm done, it's 12" is an answer), a stop request in at
// most MaxStopWords words, off-topic chit-chat, "I don't know" (see
// PrecheckConfig for what each phrase list allows).
func (p *Prechecker) Check(msg string) Precheck {
	if isBlank(msg) {
		return PrecheckEmpty
	}
	if utf8.RuneCountInString(msg) > p.maxRunes {
		return PrecheckTooLong
	}
	var buf [32]string
	w, digit := words(msg, buf[:0])
	if digit {
		return PrecheckNone
	}
	cs := clauses(msg)
	exact := p.exact
	if strings.ContainsAny(msg, "?？") {
		exact = p.exactWord // "That's it?" is surprise; "stop?" still asks to stop
	}
	if len(w) <= p.maxStopWords && (p.stopPhrase(cs) || p.exactly(w, exact) || p.statedStop(msg, w)) {
		return PrecheckStop
	}
	if p.offTopicPhrase(w, cs) {
		return PrecheckOffTopic
	}
	if slices.ContainsFunc(cs, func(c []string) bool { return p.exactly(c, p.idkExact) }) || p.saysIDK(w, cs) {
		return PrecheckIDK
	}
	return PrecheckNone
}

// stopPhrase reports whether a Stop phrase ends one of the clauses cs,
// give or take words of leaving after it: "I'm done for today" and "bye
// didi, see you" stop; "I need to go over this again", "can we finish this
// question first" and "Goodbye is the last word of the poem" go on. A
// phrase of finishing ("I'm done", "I am finished") may mean the work is
// done: followed by a clause that states an answer ("I'm done! The answer
// is evaporation", "I am done. It's photosynthesis") it hands the answer
// in, as one followed by a number does; "I'm done, bye" and "I'm done.
// Thanks!" stop.
func (p *Prechecker) stopPhrase(cs [][]string) bool {
	for k, c := range cs {
		for _, phrase := range p.stop {
			for i := 0; i+len(phrase) <= len(c); i++ {
				if slices.Equal(c[i:i+len(phrase)], phrase) &&
					!slices.ContainsFunc(c[i+len(phrase):], func(x string) bool { return !leaving[x] && !slices.Contains(p.fillers, x) }) &&
					!(finishing[phrase[len(phrase)-1]] && slices.ContainsFunc(cs[k+1:], p.statesAnswer)) {
					return true
				}
			}
		}
	}
	return false
}

// finishing are the last words of the Stop phrases that may say the work
// is finished rather than the session: "I'm done", "I am finished".
var finishing = map[string]bool{"done": true, "finished": true}

// statesAnswer reports whether a clause states an answer: "the answer is
// evaporation", "it's photosynthesis", "I think it is a gas", with a word
// after the statement that is no word of leaving, thanks or mood ("it's
// late", "it's been fun" state none).
func (p *Prechecker) statesAnswer(c []string) bool {
	for i, x := range c {
		var rest []string
		switch {
		case x == "its":
			rest = c[i+1:]
		case x == "it" && i+1 < len(c) && c[i+1] == "is",
			x == "answer" && i+1 < len(c) && c[i+1] == "is":
			rest = c[i+2:]
		default:
			continue
		}
		if slices.ContainsFunc(rest, func(x string) bool {
			return !leaving[x] && !parting[x] && !notStated[x] && !slices.Contains(p.fillers, x)
		}) {
			return true
		}
	}
	return false
}

// notStated are words after "it's" that state no answer: "it's late",
// "it's all over", "it's been fun".
var notStated = map[string]bool{"late": true, "over": true, "all": true, "enough": true, "been": true, "getting": true,
	"done": true, "finished": true, "ok": true, "fine": true, "bedtime": true}

// leaving are the words that may follow a Stop phrase in its clause.
var leaving = func() map[string]bool {
	m := maps.Clone(sayingSo)
	for _, x := range strings.Fields(`today tonight tomorrow here later bye goodbye see sorry to sleep bed
		my mom mum mummy mama papa dad is calling dinner lunch time`) {
		m[x] = true
	}
	return m
}()

// offTopicPhrase reports whether a message is off-topic chit-chat: it holds
// an OffTopic phrase that "about" does not follow ("tell me a story about
// fractions" is on the lesson), and it names no part of the lesson.
func (p *Prechecker) offTopicPhrase(w []string, cs [][]string) bool {
	if slices.ContainsFunc(w, func(x string) bool { return lessonWords[x] }) {
		return false
	}
	for _, c := range cs {
		for _, phrase := range p.offTopic {
			for i := 0; i+len(phrase) <= len(c); i++ {
				if slices.Equal(c[i:i+len(phrase)], phrase) && (i+len(phrase) == len(c) || c[i+len(phrase)] != "about") {
					return true
				}
			}
		}
	}
	return false
}

// lessonWords name a part of a lesson: a message that names one is about
// the lesson ("in the poem I'm Nobody! Who are you?", "who are you in
// this sentence").
var lessonWords = func() map[string]bool {
	m := map[string]bool{}
	for _, x := range strings.Fields(`poem poems poet poetry stanza chapter lesson question word words verb noun sentence`) {
		m[x] = true
	}
	return m
}()

// saysIDK reports whether a message says "I don't know" and ventures no
// answer: a word of guessing ("maybe", "I think") makes it an answer, and
// so does a clause of its own beside a "not sure" that stands alone
// ("evaporation, not sure", "not sure but evaporation") unless it asks
// ("not sure but how do I start"). "I'm not sure what to do", "I'm stuck, I
// don't know" and "no idea, sorry" say "I don't know".
func (p *Prechecker) saysIDK(w []string, cs [][]string) bool {
	if !containsAny(w, p.idk) || containsAny(w, guesses) {
		return false
	}
	idk, answer := false, false
	for _, c := range butClauses(cs) {
		switch {
		case containsAny(c, hedges) && !slices.ContainsFunc(c, func(x string) bool { return !hedging[x] }):
			// "not sure", "but I'm not sure": a hedge on the rest.
		case containsAny(c, p.idk):
			idk = true
		case !asking[c[0]] && slices.ContainsFunc(c, func(x string) bool { return !sayingSo[x] && !slices.Contains(p.fillers, x) }):
			answer = true
		}
	}
	return idk || !answer
}

var (
	// guesses are the words of venturing an answer.
	guesses = phrases("i think", "maybe", "perhaps", "probably", "i guess", "might be", "could be", "shayad")
	// hedges say "I don't know" of an answer given beside them.
	hedges = phrases("not sure")
	// asking are the words that start a clause asking rather than
	// answering.
	asking = map[string]bool{"what": true, "whats": true, "why": true, "how": true, "who": true, "when": true, "where": true, "which": true}
	// hedging are the words a clause of hedging is made of.
	hedging = func() map[string]bool {
		m := maps.Clone(sayingSo)
		for _, x := range strings.Fields(`not sure but though very totally about it this that`) {
			m[x] = true
		}
		return m
	}()
)

// butClauses splits each of the clauses cs at "but": "not sure but
// freezing" is a hedge and an answer, as "not sure, freezing" is.
func butClauses(cs [][]string) [][]string {
	var out [][]string
	for _, c := range cs {
		for len(c) > 0 {
			i := slices.Index(c, "but")
			if i < 0 {
				out = append(out, c)
				break
			}
			if i > 0 {
				out = append(out, c[:i])
			}
			c = c[i+1:]
		}
	}
	return out
}

// phrases returns the words of each phrase.
func phrases(ps ...string) [][]string {
	out := make([][]string, len(ps))
	for i, p := range ps {
		out[i], _ = words(p, nil)
	}
	return out
}

// clauseMarks are the punctuation marks that end a clause.
const clauseMarks = ",.;:!?？。।…—"

// clauses returns the words of each clause of s: the runs between
// punctuation marks ("evaporation, not sure" has two).
func clauses(s string) [][]string {
	var out [][]string
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(clauseMarks, r) }) {
		if w, _ := words(part, nil); len(w) > 0 {
			out = append(out, w)
		}
	}
	return out
}

// CheckIn is Check for a session in mode m: in a lesson a break request is
// a stop request too, which pauses it until the next message; an exam or a
// doubts session, which a stop would end, goes on. In an exam a stop phrase
// beside a clause that answers the question on screen ("freezing, bye",
// "bye, its condensation") is an answer attempt, as a number makes one; in
// a doubts session a stop phrase beside a question ("I'm done, but what is
// chlorophyll?") is a doubt, answered before the session ends.
func (p *Prechecker) CheckIn(m Mode, msg string) Precheck {
	pre := p.Check(msg)
	if pre == PrecheckStop && m == ModeExam && p.answersBeside(clauses(msg)) {
		// "freezing, bye": the answer is judged, as "I'm done, it's 12" is.
		return PrecheckNone
	}
	if pre == PrecheckStop && m == ModeClarify && p.asksBeside(msg) {
		return PrecheckNone
	}
	if pre != PrecheckNone || m != ModeTeachMe {
		return pre
	}
	var buf [32]string
	if w, digit := words(msg, buf[:0]); !digit && len(w) <= p.maxStopWords && containsAny(w, p.brk) {
		return PrecheckStop
	}
	return pre
}

// Judged returns the pre-check p of a message once the evaluator has judged
// it v against the question pending in s: a lesson's pending question, an
// exam's current one. The pre-check reads the words, not the question, and
// a stop request that is exactly the question's answer ("Stop." to "What
// must a driver do at a red light?", "finish" for the opposite of start)
// is an answer: it is judged and the session goes on. Only a right answer
// counts so: "stop" to a question whose answer is "go" still stops, and
// with no question pending (a doubts session) p stands.
func (p Precheck) Judged(s State, v answer.Verdict) Precheck {
	if p != PrecheckStop || v != answer.Correct {
		return p
	}
	switch {
	case s.Mode == ModeTeachMe && s.LastQuestion != nil,
		s.Mode == ModeExam && !s.ExamFinished && s.ExamCurrentIdx < len(s.ExamQuestions):
		return PrecheckNone
	}
	return p
}

// answersBeside reports whether one of the clauses cs of a stop request is
// an answer: a few words of their own, with no stop or "I don't know"
// phrase, no word of parting, thanks, mood or asking, and more than words
// of saying so. "freezing, bye" and "bye, it is condensation" answer; "I'm
// done with this, bye", "thanks didi, bye", "that was fun, bye" and "I
// have to go, my mom is calling" do not.
func (p *Prechecker) answersBeside(cs [][]string) bool {
	if len(cs) < 2 {
		return false
	}
	return slices.ContainsFunc(cs, func(c []string) bool {
		return len(c) <= 4 && !containsAny(c, p.stop) && !containsAny(c, p.idk) && !p.exactly(c, p.exact) &&
			!slices.ContainsFunc(c, func(x string) bool { return parting[x] }) &&
			slices.ContainsFunc(c, func(x string) bool { return !sayingSo[x] && !slices.Contains(p.fillers, x) })
	})
}

// asksBeside reports whether a stop request asks something in a clause of
// its own: one that opens with a word of asking ("I'm done, but what is
// chlorophyll?", "bye. why are leaves green") or one a question mark ends
// ("bye, can you explain osmosis?"), with more than a stop phrase and
// words of leaving. "can we stop?", "bye, see you tomorrow?" and "ok bye"
// ask nothing.
func (p *Prechecker) asksBeside(msg string) bool {
	asks := func(c []string) bool {
		return len(c) > 1 && !containsAny(c, p.stop) && !p.exactly(c, p.exact) &&
			slices.ContainsFunc(c, func(x string) bool { return !leaving[x] && !slices.Contains(p.fillers, x) })
	}
	cs := butClauses(clauses(msg))
	if len(cs) < 2 {
		return false
	}
	if slices.ContainsFunc(cs, func(c []string) bool { return asking[c[0]] && asks(c) }) {
		return true
	}
	for _, c := range asked(msg) {
		if bc := butClauses([][]string{c}); len(bc) > 0 && asks(bc[len(bc)-1]) {
			return true
		}
	}
	return false
}

// asked returns the words of each clause of s that a question mark ends.
func asked(s string) [][]string {
	var out [][]string
	start := 0
	for i, r := range s {
		if !strings.ContainsRune(clauseMarks, r) {
			continue
		}
		if r == '?' || r == '？' {
			if w, _ := words(s[start:i], nil); len(w) > 0 {
				out = append(out, w)
			}
		}
		start = i + utf8.RuneLen(r)
	}
	return out
}

// parting are the words of a clause said in leaving rather than in
// answering: thanks, how the lesson went, where the learner goes, a
// question.
var parting = func() map[string]bool {
	m := map[string]bool{}
	for _, x := range strings.Fields(`thanks thank fun nice great good lovely awesome cool amazing enjoyed liked love
		learned learnt lot help helped helping got get understood understand clear class lesson session exam test
		today tonight tomorrow later night morning see sorry sleep bed mom mum mummy mama papa dad calling dinner lunch
		hard easy difficult boring bored tired sleepy break what why how who when where which`) {
		m[x] = true
	}
	return m
}()

// statedStop reports whether a message states a StopStated phrase: with
// no question mark, and with only words of saying so around it ("I think
// that's enough for today", "ok guys, done for now"). "One more question
// and then done for today", "why are we done for today" and "I'm not
// done for today" go on.
func (p *Prechecker) statedStop(msg string, w []string) bool {
	if strings.ContainsAny(msg, "?？") {
		return false
	}
	for _, phrase := range p.stated {
		for i := 0; i+len(phrase) <= len(w); i++ {
			if !slices.Equal(w[i:i+len(phrase)], phrase) {
				continue
			}
			rest := slices.Concat(w[:i], w[i+len(phrase):])
			if !slices.ContainsFunc(rest, func(x string) bool { return !sayingSo[x] }) {
				return true
			}
		}
	}
	return false
}

// sayingSo are the words that may stand around a StopStated phrase.
var sayingSo = func() map[string]bool {
	m := map[string]bool{}
	for _, x := range strings.Fields(`i think thats its im am we were are ok okay alright right so well yes yeah fine good lets
		call it a day guys sir maam didi bhaiya thanks thank you hmm please bye na now then tired sleepy yaar bhai bro
		already really quite really sorry for`) {
		m[x] = true
	}
	return m
}()

// exactly reports whether w is one of the phrases, give or take fillers at
// either end. A phrase may end in a filler itself ("done for now"), so each
// trailing filler is tried with the phrase and without.
func (p *Prechecker) exactly(w []string, phrases [][]string) bool {
	for len(w) > 0 && slices.Contains(p.fillers, w[0]) {
		w = w[1:]
	}
	for {
		for _, phrase := range phrases {
			if slices.Equal(w, phrase) {
				return true
			}
		}
		if len(w) == 0 || !slices.Contains(p.fillers, w[len(w)-1]) {
			return false
		}
		w = w[:len(w)-1]
	}
}

// words splits s into lowercase words of letters, marks and digits, with
// apostrophes dropped, appending to dst; it also reports whether s holds a
// digit or other number character.
func words(s string, dst []string) ([]string, bool) {
	digit := false
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			dst = append(dst, b.String())
			b.Reset()
		}
	}
	for _, r := range s {
		switch {
		case unicode.IsNumber(r):
			digit = true
			b.WriteRune(r)
		case unicode.IsLetter(r) || unicode.IsMark(r):
			b.WriteRune(unicode.ToLower(r))
		case r == '\'' || r == '’' || r == 'ʼ' || r == '`':
			// "don't" and "dont" are the same word.
		default:
			flush()
		}
	}
	flush()
	return dst, digit
}

// AsksForAnswer reports whether a message asks to be told an answer
// ("just tell me the answer", "what's the answer?", "show me the answer
// key"), which an exam does not take for an attempt.
func AsksForAnswer(msg string) bool {
	var buf [32]string
	w, _ := words(msg, buf[:0])
	return containsAny(w, answerRequests)
}

var answerRequests = func() [][]string {
	var out [][]string
	for _, p := range []string{
		"tell me the answer", "tell me answer", "just tell me", "what is the answer", "whats the answer",
		"what is answer", "give me the answer", "show me the answer", "answer key", "say the answer",
		"reveal the answer", "tell the answer", "answer batao", "answer bata do", "answer bolo",
	} {
		w, _ := words(p, nil)
		out = append(out, w)
	}
	return out
}()

// containsAny reports whether one of the phrases occurs in w as a run of
// whole words.
func containsAny(w []string, phrases [][]string) bool {
	for _, ph := range phrases {
		for i := 0; i+len(ph) <= len(w); i++ {
			if slices.Equal(w[i:i+len(ph)], ph) {
				return true
			}
		}
	}
	return false
}
