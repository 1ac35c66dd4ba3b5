package rules

import (
	"regexp"
	"slices"
	"strings"

	"github.com/tutord/tutord/internal/agents"
	"github.com/tutord/tutord/internal/tutor"
)

// clarify returns the tutor output of a clarify_doubts turn: the learner
// asks, the engine answers from the lesson's explanations and closes with
// one question; "no, I'm done" ends the session.
func clarify(t agents.Turn) tutor.TutorOutput {
	s, msg := t.State, doubtBeside(t.Message)
	rest, greeted := afterGreeting(msg)
	if greeted && rest != "" {
		// "hi, what is photosynthesis?": the doubt, as if asked alone.
		msg = rest
	}
	v := newVoice(s)
	out := tutor.TutorOutput{Intent: tutor.IntentFollowup, MisconceptionsDetected: []string{}, MasteryUpdates: []tutor.MasteryUpdate{}}
	var parts []string
	note := ""
	switch {
	case t.Precheck == tutor.PrecheckStop || isDone(msg) && !(plainNo(msg) && !thanks(msg) && closesWith(lastTeacher(s), mHelps)):
		// A bare "no" to "Is that clearer now?" says the explanation did
		// not help (below), not that there are no more doubts.
		out.Intent, out.SessionComplete = tutor.IntentDone, true
		for _, c := range conceptsNamed(t.Topic, msg) {
			// "thanks, that's all about mixed numbers": discussed, as an
			// answered doubt's concept is.
			out.MasteryUpdates = append(out.MasteryUpdates, tutor.MasteryUpdate{Concept: c, Score: 0.5})
		}
		bye := mGoodbye // "no, I'm done" is not thanks: no "you're welcome"
		if thanks(msg) {
			bye = mGoodbyeThanks
		}
		parts = append(parts, v.say(bye))
		note = "learner is done"
	case t.Precheck == tutor.PrecheckOffTopic:
		out.Intent = tutor.IntentOffTopic
		parts = append(parts, v.say(mStayOnTopic, "{topic}", topicTitle(t.Topic)))
		note = "off topic; redirected"
	case t.Precheck == tutor.PrecheckIDK:
		parts = append(parts, v.say(mSuggest, "{concepts}", conceptList(t.Topic.Concepts(), 3)))
		note = "suggested doubts to ask"
	case greeted && rest == "" && t.Precheck == tutor.PrecheckNone:
		// "hello sir": no doubt yet, so nothing to look up; a greeting
		// back and an invitation to ask.
		parts = append(parts, v.say(mHelloDoubts, "{topic}", topicTitle(t.Topic)))
		note = "greeted; asked for the doubt"
	case rude(msg) && !isQuestion(msg):
		// "whatever you are useless": calm, and an open door.
		parts = append(parts, v.say(mKeepKind), v.say(mClosure))
		note = "a rude message"
	case isAck(msg):
		ack := mGlad
		if thanks(msg) {
			ack = mWelcome // "ok thanks" is not good news
		}
		parts = append(parts, v.say(ack))
		note = "acknowledged"
	case isNo(msg) && !asksSomething(msg), unhelped(msg) && !asksMeaning(msg):
		// The answer did not land: the school words it uses, then more
		// of the explanation that answered the doubt, and only then the
		// question of what is unclear.
		last := lastTeacher(t.State)
		again := opensWith(last, mOtherWay) || opensWith(last, mPutAnotherWay)
		if defs := wordsUsed(sentences(last), sentences(last), t.Topic.Subject, 2); !again && len(defs) > 0 {
			parts = append(parts, v.say(mOtherWay))
			parts = append(parts, defs...)
			parts = append(parts, v.say(mHelps))
			note = "the answer did not help; explained its words"
			break
		}
		if _, more, ok := followUp(t); ok && len(more) > 0 && !opensWith(last, mPutAnotherWay) {
			parts = append(parts, v.say(mPutAnotherWay))
			parts = append(parts, more...)
			parts = append(parts, v.say(mHelps))
			note = "the answer did not help; explained more"
			break
		}
		parts = append(parts, v.say(mUnclear))
		note = "the answer did not help; asked what is unclear"
	case !asksAbout(msg) && !asksWord(msg):
		// "Why?", "how come?", "what do you mean?": a question about the
		// answer just given, or, with none, no question yet. ("What does
		// solve mean?" asks about a word of the glossary.)
		concept, sents, ok := followUp(t)
		switch {
		case ok && len(sents) > 0:
			out.Intent = tutor.IntentFollowup
			parts = append(parts, sents...)
			parts = append(parts, v.say(mClosure))
			note = "explained more from the guideline"
			if concept != "" {
				out.MasteryUpdates = append(out.MasteryUpdates, tutor.MasteryUpdate{Concept: concept, Score: 0.5})
				note = "explained more of " + concept
			}
		case ok:
			out.Intent = tutor.IntentFollowup
			parts = append(parts, v.say(mNoMore), v.say(mClosure))
			note = "nothing more in the lesson on " + concept
		default:
			parts = append(parts, v.say(mWhatAbout, "{topic}", topicTitle(t.Topic), "{concepts}", conceptList(t.Topic.Concepts(), 3)))
			note = "asked what the doubt is"
		}
	default:
		concept, sents, ok := explain(t.Topic, withSolutions, msg, 2, nil)
		calc, calculated := worked(msg)
		if sol, solvable := solutionOf(msg); calculated && strings.HasPrefix(calc, "No: with ") && solvable {
			// "x + 7 = 10, I got x = 17": no, and how it goes. A doubts
			// session asks no questions of its own to give away.
			calc += " " + sol
		}
		if calculated && !strings.HasPrefix(calc, "Yes") && !strings.HasPrefix(calc, "No") &&
			strings.Count(calc, " = ") == 1 && strings.Contains(strings.Join(sents, " "), strings.SplitN(calc, " = ", 2)[0]) {
			calculated = false // the lesson works this very sum
		}
		if calculated && selfContained(calc) {
			ok = false
		}
		settled := false
		mistake, wrong := putForward(t.Topic, msg, calc, sents)
		sents = setRight(t.Topic, withSolutions, msg, mistake, wrong, sents, func(tutor.BankQuestion) bool { return true })
		if wrong {
			// "so plants eat soil for food?": no, first.
			parts = append(parts, v.say(mNotSo, "{mistake}", lowerFirst(mistake)))
			calc = noAgain(calc)
			ok = len(sents) > 0
		} else if verdict, answer, checked := temperatureVerdict(v, t.Topic, msg, sents); checked && !calculated {
			parts, sents = append(parts, verdict), answer
		} else if verdict, answer, checked := factVerdict(v, t.Topic, withSolutions, msg, sents); checked && !calculated && !claimedWord.MatchString(msg) {
			// "condensation takes in heat right?": the lesson's sentence
			// that settles it, even when no passage answered the doubt.
			parts, sents, settled = append(parts, verdict), answer, true
		}
		word, def, defined := glossed(msg)
		if defined && claimedWord.MatchString(msg) {
			// "condensation is when …?": only what the lesson says of
			// the word itself.
			sents = aboutWord(sents, word)
			ok = ok && len(sents) > 0
		}
		// A wrong meaning put forward is set right even when the lesson
		// says what the word is.
		if defined = defined && (!definesWord(sents, word) || strings.HasPrefix(def, "Not quite")); defined {
			// "what does product mean?": the word first, when the lesson
			// uses it without saying what it is.
			parts = append(parts, def)
		}
		if !ok && (calculated || defined || wrong || settled) {
			out.Intent = tutor.IntentQuestion
			note = "defined " + word
			switch {
			case wrong:
				note = "a common mistake put forward"
			case settled:
				note = "a claim checked against the lesson"
			}
			if calculated {
				parts = append(parts, calc)
				note = "worked the calculation asked about"
			}
			parts = append(parts, v.say(mClosure))
			break
		}
		if !ok {
			// Better no answer than an unrelated one: say what the lesson
			// can help with instead.
			out.Intent = tutor.IntentQuestion
			parts = append(parts, v.say(mNotInTopic, "{topic}", topicTitle(t.Topic), "{concepts}", conceptList(t.Topic.Concepts(), 4)), v.say(mClosure))
			note = "doubt not found in the lesson"
			break
		}
		out.Intent = tutor.IntentQuestion
		if n := len(s.ConceptsDiscussed); n > 0 && s.ConceptsDiscussed[n-1] == concept {
			out.Intent = tutor.IntentFollowup
		}
		if concept != "" && discussedBefore(t.PastDiscussions, concept) && !slices.Contains(s.ConceptsDiscussed, concept) {
			parts = append(parts, v.say(mLastTime, "{concept}", lowerFirst(concept)))
		}
		if calculated {
			parts = append(parts, calc)
		}
		parts = append(parts, sents...)
		parts = append(parts, v.say(mClosure))
		if concept != "" {
			// The domain records the concepts a doubts session names;
			// doubts sessions keep no mastery, so the score is neutral.
			out.MasteryUpdates = append(out.MasteryUpdates, tutor.MasteryUpdate{Concept: concept, Score: 0.5})
			note = "answered a doubt on " + concept
		} else {
			note = "answered a doubt from the guideline"
		}
	}
	if !out.SessionComplete && (t.Guard.TimeUp || tutor.TimeUp(s, t.Now)) {
		// The sitting's time is up and the session ends with this turn:
		// the answer, then a goodbye rather than a question inviting
		// another doubt (as the model's prompt directs it).
		ss := sentences(compose(parts...))
		for len(ss) > 0 && strings.HasSuffix(ss[len(ss)-1], "?") {
			ss = ss[:len(ss)-1]
		}
		parts = append(ss, v.say(mDoubtsTimeUp))
		out.Intent, out.SessionComplete = tutor.IntentDone, true
		note += "; time is up"
	}
	out.Response = compose(parts...)
	out.TurnSummary = cut("Doubts: "+note, 80)
	out.Reasoning = "Rules engine: " + note + "."
	return out
}

// conceptsNamed returns the plan concepts whose names msg holds in full,
// as whole words in any case, in the plan's order.
func conceptsNamed(t *tutor.Topic, msg string) []string {
	said := " " + strings.Join(words(msg), " ") + " "
	var out []string
	for _, c := range t.Concepts() {
		if name := strings.Join(words(c), " "); name != "" && strings.Contains(said, " "+name+" ") {
			out = append(out, c)
		}
	}
	return out
}

// opensWith reports whether text opens with a phrasing of move m.
func opensWith(text string, m move) bool {
	for _, p := range phrasebook[m] {
		if opening, _, _ := strings.Cut(p, "{"); opening != "" && strings.HasPrefix(text, opening) {
			return true
		}
	}
	return false
}

// closesWith reports whether text's last sentence is a phrasing of move m.
func closesWith(text string, m move) bool {
	ss := sentences(text)
	if len(ss) == 0 {
		return false
	}
	last := ss[len(ss)-1]
	for _, p := range phrasebook[m] {
		head, tail, slot := strings.Cut(p, "{")
		if !slot {
			if last == p {
				return true
			}
			continue
		}
		_, tail, _ = strings.Cut(tail, "}")
		if strings.HasPrefix(last, head) && strings.HasSuffix(last, tail) {
			return true
		}
	}
	return false
}

// lastTeacher returns the tutor's last message, "" when there is none.
func lastTeacher(s tutor.State) string {
	for i := len(s.History) - 1; i >= 0; i-- {
		if s.History[i].Role == tutor.RoleTeacher {
			return s.History[i].Content
		}
	}
	return ""
}

// followUp answers a question that names nothing ("why?", "how come?",
// "what do you mean?") as one about the learner's last doubt: more of the
// explanation that answered it, leaving out what the history window shows
// was said already (see explainMore). ok is false when no earlier doubt
// was answered; sents is empty when the lesson has nothing more to say.
func followUp(t agents.Turn) (concept string, sents []string, ok bool) {
	doubt := ""
	shown := map[string]bool{}
	for _, m := range t.State.History {
		switch {
		case m.Role == tutor.RoleStudent && asksAbout(m.Content):
			doubt = m.Content
		case m.Role == tutor.RoleTeacher:
			for _, s := range sentences(m.Content) {
				shown[s] = true
			}
		}
	}
	if doubt == "" {
		return "", nil, false
	}
	return explainMore(t.Topic, withSolutions, doubt, 2, func(s string) bool { return !shown[s] })
}

// discussedBefore reports whether an earlier doubts session discussed c.
func discussedBefore(past []agents.PastDiscussion, c string) bool {
	for _, p := range past {
		for _, pc := range p.Concepts {
			if strings.EqualFold(strings.TrimSpace(pc), c) {
				return true
			}
		}
	}
	return false
}

// doneWords are the only words of a short reply that says "no more
// doubts" without a done phrase: "no", "no thanks", "nope, I'm good".
var doneWords = wordSet("no nope nah nahi nahin nothing none more else thanks thank you ok okay sir maam im i am good fine all that is its clear have doubts doubt questions")

// donePhrases end a doubts session wherever they appear in a short reply.
var donePhrases = []string{
	"no more doubts", "no more questions", "no other doubts", "no other questions", "nothing else",
	"thats all", "thats it", "that is all", "that is it", "im done", "i am done", "all clear", "no thanks", "no thank you",
	"all good", "im good", "bas", "no doubts", "no questions", "have no doubts", "have no questions",
	"dont have any doubts", "dont have any questions", "dont have any more", "do not have any",
}

// unhelped reports a reply saying the last answer did not help: "that
// didn't help", "I still don't get it".
func unhelped(msg string) bool {
	if isQuestion(msg) || len(words(msg)) > 10 {
		return false
	}
	w := " " + strings.Join(words(msg), " ") + " "
	for _, p := range []string{" didnt help ", " doesnt help ", " not helpful ", " still dont ", " still confused ", " not clear ", " still not "} {
		if strings.Contains(w, p) {
			return true
		}
	}
	return confused(msg) && !isNo(msg)
}

// greeting matches a greeting at the start of a message: "hi", "hello
// sir", "good morning ma'am", "hey there", "hi, how are you?", with the
// punctuation after it.
var greeting = regexp.MustCompile(`(?i)^\s*(?:hi+|hello+|helo|hey+|heya|hiya|namaste|namaskar|good\s+(?:morning|afternoon|evening))\b` +
	`(?:[\s,]+(?:there|sir|ma'?am|mam|madam|miss|didi|bhaiya|teacher|ji|again|everyone|all))*` +
	`(?:[\s,]+how\s+(?:are|r)\s+(?:you|u)(?:\s+doing)?(?:\s+today)?)?` +
	`(?:[\s,.!?;:…~-]+|$)`)

// afterGreeting returns what a message says after the greeting it opens
// with ("what is photosynthesis?" of "hi, what is photosynthesis?"), and
// whether it opens with one; rest is "" for a greeting alone ("hello",
// "good morning sir!", "hey there 👋").
func afterGreeting(msg string) (rest string, ok bool) {
	loc := greeting.FindStringIndex(msg)
	if loc == nil {
		return msg, false
	}
	rest = strings.TrimSpace(msg[loc[1]:])
	if len(words(rest)) == 0 {
		rest = ""
	}
	return rest, true
}

// doubtBeside returns the doubt a message asks beside saying the learner
// is done ("I'm done, but what is chlorophyll?", "that's all. why are
// leaves green"): the message from the clause after the done phrase, as if
// asked alone. A message with no such doubt is returned as it is.
func doubtBeside(msg string) string {
	for _, l := range clauseOrComma.FindAllStringIndex(msg, -1) {
		if rest := strings.TrimSpace(msg[l[1]:]); rest != "" && isDone(msg[:l[0]]) && !isNo(msg[:l[0]]) && asksSomething(rest) {
			return rest
		}
	}
	return msg
}

// isDone reports whether a message in a doubts session says the learner has
// no more doubts. A question never does, nor does a message with one after
// its "all clear" ("all clear. one more: what is starch"), nor a long one.
func isDone(msg string) bool {
	w := words(msg)
	if len(w) == 0 || len(w) > 8 || asksSomething(msg) {
		return false
	}
	joined := " " + strings.Join(w, " ") + " "
	for _, p := range donePhrases {
		if strings.Contains(joined, " "+p+" ") {
			return true
		}
	}
	switch w[0] {
	case "no", "nope", "nah", "nahi", "nothing", "none":
	default:
		return false
	}
	for _, x := range w {
		if !doneWords[x] {
			return false
		}
	}
	return true
}

// asksSomething reports whether any clause of a message is a question:
// "no. why do leaves need light", "that's it, why are leaves green".
func asksSomething(msg string) bool {
	if isQuestion(msg) {
		return true
	}
	for _, c := range clauseOrComma.Split(msg, -1) {
		if isQuestion(c) {
			return true
		}
	}
	return false
}

var clauseOrComma = regexp.MustCompile(`[.;:!,]+`)

// ackWords are the words of a short reply that only agrees or thanks.
var ackWords = wordSet("yes yeah yep ok okay oh hmm haan ha sure alright fine perfect awesome thanks thank you so much a lot very " +
	"got it get great cool nice that thats helps helped makes sense understood understand clear now i see")

// ackSigns are the emoji that agree or thank on their own.
const ackSigns = "👍👌🙏🙂😊✅"

// isAck reports whether a message only agrees or thanks: "yes, that
// helps", "ok got it", "thank you so much", "👍".
func isAck(msg string) bool {
	w := words(msg)
	if len(w) == 0 {
		m := strings.TrimSpace(msg)
		return m != "" && strings.Trim(m, ackSigns+" \ufe0f") == ""
	}
	if len(w) > 6 || strings.ContainsAny(msg, "?？") {
		return false
	}
	agrees := false // "hmm" or "oh" alone is thinking aloud, not agreement
	for _, x := range w {
		if !ackWords[x] {
			return false
		}
		agrees = agrees || x != "hmm" && x != "oh"
	}
	return agrees
}

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}
