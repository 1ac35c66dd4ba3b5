package answer

import (
	"regexp"
	"strings"
)

// AsksBack reports whether a reply is a question to the tutor rather than
// an answer put as a question: "what does 'of' mean here?", "what is the
// HCF of 15 and 25?", "why is it negative?" and "should I add them?" ask
// back; "is it 5?", "is the answer 12?", "is x = 4?", "what about 7?",
// "how about evaporation?", "what I got was 4" and "should be 4" offer an
// answer. A question word opens a question back; a verb ("is", "should")
// does only before a person ("should I …?", "can you …?") and with a
// question mark. Openers ("wait", "so", "hmm") are passed over.
func AsksBack(reply string) bool {
	var buf [24]token
	var w []string // the words, a number as "#"
	for _, t := range appendTokens(buf[:0], reply) {
		switch t.kind {
		case tWord:
			w = append(w, strings.ReplaceAll(t.text, "'", ""))
		case tNum:
			w = append(w, "#")
		}
	}
	for len(w) > 1 && backOpeners[w[0]] {
		w = w[1:]
	}
	if len(w) < 2 || offers[w[1]] {
		return false
	}
	asks := strings.ContainsAny(reply, "?？")
	switch w[0] {
	case "what", "whats", "why", "how", "where", "which", "who", "whose", "explain", "remind", "kya", "kaise", "kyun", "kyu":
		// "what I got was 4", "what we need is 5": an answer; "what I have
		// to write here?" asks.
		// "what's 3/4 of 12?" asks.
		return (w[1] != "#" || w[0] == "whats") && w[1] != "about" && (w[1] != "i" && w[1] != "we" || asks)
	case "do", "does", "did":
		// "do two minuses make a plus here?", "does 5 go into 20?"
		return asks
	case "can", "could", "would", "will":
		// "can you solve 3(x+2) = 2x + 10 for me"
		return persons[w[1]] && (asks || strings.Contains(strings.ToLower(reply), "for me"))
	case "is", "are", "should", "was":
		// "is 5/8 more than half?" compares; "is 12?" and "is it 12?"
		// answer.
		return asks && (persons[w[1]] || comparing.MatchString(reply))
	}
	return false
}

// comparing finds a reply that compares two values.
var comparing = regexp.MustCompile(`(?i)\b(?:more|less|greater|bigger|smaller|larger|fewer|higher|lower)\s+than\b`)

// AsksQuestionAgain reports whether a reply asks to hear the question
// again, wherever it says so: "2/15 ÷ ... wait what's the question again",
// "can you repeat the question?".
func AsksQuestionAgain(reply string) bool { return questionAgain.MatchString(reply) }

var questionAgain = regexp.MustCompile(`(?i)(?:^|[,.!?…]\s*|\b(?:wait|sorry|um|hmm|so|but|and|oh)\s+)what(?:['’]?s|\s+is|\s+was)\s+the\s+question\b|` +
	`(?:^|[,.!?…]\s*|\b(?:can|could|will|would)\s+(?:you|u)\s+|\bplease\s+|\bpls\s+)(?:repeat|say|read)\s+(?:the|that)\s+question\b`)

// RefersBack reports whether a reply is about an earlier question, not
// the one asked: "is the answer to the last one -3?", "can we go back to
// the previous question", "for the first one I meant 7", "was my answer
// to question 1 right?" (or "question १": digits of any script).
func RefersBack(reply string) bool { return earlierQuestion.MatchString(reply) }

var earlierQuestion = regexp.MustCompile(`(?i)\b(?:answer\s+(?:to|for|of)|back\s+to|for|about|on|in)\s+(?:the\s+)?(?:last|previous|earlier|first|1st)\s+(?:one|question|q)\b|` +
	`\b(?:answer\s+(?:to|for|of)|back\s+to)\s+(?:question|q)\s*(?:no\.?\s*|number\s*|#\s*)?\p{Nd}`)

// SaysLost reports whether a reply says only that the learner is lost: "I
// don't get it", "i still dont understand", "not understood", "not clear",
// "confused", "samajh nahi aaya", "nahi samjha", "samjh nhi aaya".
func SaysLost(reply string) bool {
	// Most replies hold none of the words the expression needs: they are
	// told apart without running it.
	if len(reply) > 120 || !containsAnyFold(reply, "get", "understand", "undrstand", "understood", "follow", "confused", "lost", "clear", "samaj", "samj") {
		return false
	}
	return lost.MatchString(strings.TrimSpace(reply))
}

// containsAnyFold reports whether s contains one of the lowercase ASCII
// words, in any case.
func containsAnyFold(s string, words ...string) bool {
	var buf [128]byte
	low := buf[:0]
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		low = append(low, c)
	}
	ls := string(low)
	for _, w := range words {
		if strings.Contains(ls, w) {
			return true
		}
	}
	return false
}

var lost = regexp.MustCompile(`(?i)^(?:(?:sorry|but|um|hmm|oh|ok|okay|no)[,.!]?\s+)*(?:` +
	`(?:i\s+|me\s+)?(?:still\s+)?(?:don'?t|do\s+not|didn'?t|did\s+not|can'?t|cannot|dint|dnt)\s+(?:really\s+)?(?:get|understand|follow|undrstand)(?:\s+(?:it|this|that|the\s+question|you|anything|at\s+all))*|` +
	`(?:i'?m\s+|i\s+am\s+)?(?:so\s+|very\s+|really\s+|still\s+)?(?:confused|lost)|` +
	`(?:i'?m\s+|i\s+am\s+|im\s+|it'?s\s+|its\s+|it\s+is\s+)?(?:still\s+)?not\s+(?:understood|clear|getting)(?:\s+(?:it|this|that|you|anything|at\s+all))*|` +
	`(?:kuch\s+)?sama?jh?[aie]?\s+(?:me\s+|mein\s+)?(?:nahi|nahin|nhi)(?:\s+(?:aaya|aa\s+raha|aya|aata))?|` +
	`(?:kuch\s+)?(?:nahi|nahin|nhi)\s+sama?jh?[aie]?(?:\s+(?:aaya|aa\s+raha|aya|aata))?` +
	`)(?:[,\s]+(?:yaar|yar|bhai|sir|ma'?am|didi|bhaiya|please|pls))*\s*[.!?…]*$`)

// remark finds a remark about the tutor or the task, which is no answer:
// "this is so dumb, you are useless", "I hate this".
var remark = regexp.MustCompile(`(?i)\b(?:you(?:'?re|\s+are)|this(?:'?s|\s+is)|that(?:'?s|\s+is))\s+(?:so\s+|really\s+|very\s+|such\s+an?\s+|too\s+)?` +
	`(?:dumb|stupid|useless|boring|annoying|idiot|an\s+idiot|hard|difficult|confusing)\b|\bi\s+hate\s+(?:this|you|it)\b|\bshut\s+up\b`)

// bareAck reports whether a reply is only a yes, no or ok ("yes", "y",
// "ok", "nope", "theek hai"), give or take a word of address ("ok sir"),
// or asks to wait a minute ("ek minute"): no answer to a question that
// asks for something else.
func bareAck(toks []token) bool {
	words := 0
	for i, t := range toks {
		switch {
		case t.kind == tWord && acks[t.text]:
			words++
		case t.kind == tWord && addressWords[t.text] && i > 0:
			// "ok sir", "yes mam": the address says no more.
		case t.kind == tWord && t.text == "hai" && i > 0 && (toks[i-1].text == "theek" || toks[i-1].text == "thik" || toks[i-1].text == "tik"):
			// "theek hai": ok.
		case t.kind == tWord && t.text == "ek" && i+1 < len(toks) && minuteWords[toks[i+1].text]:
			// "ek minute": wait a minute.
		case t.kind == tWord && minuteWords[t.text] && i > 0 && toks[i-1].text == "ek":
			words++
		case t.kind == tSym:
		default:
			return false
		}
	}
	return words > 0 && words <= 2
}

// ackAnswers reports whether a bare yes, no or ok is itself the expected
// answer or one of the options: "no" among the options yes and no.
func ackAnswers(exp Expected, reply string) bool {
	r := strings.ToLower(strings.Trim(strings.TrimSpace(reply), ".!?"))
	for _, a := range append([]string{exp.Answer}, exp.Options...) {
		if strings.ToLower(strings.TrimSpace(a)) == r {
			return true
		}
	}
	return false
}

var (
	acks = wordSet("yes", "y", "yeah", "yep", "yup", "ya", "ok", "okay", "okk", "okkk", "okey", "k", "kk", "sure", "no", "nope", "nah",
		"hmm", "hm", "haan", "accha", "acha", "achha", "theek", "thik", "tik")
	// addressWords are the words a learner addresses the tutor with.
	addressWords = wordSet("sir", "maam", "ma'am", "mam", "madam", "miss", "didi", "bhaiya", "ji")
	// minuteWords follow "ek" (one) in asking to wait: "ek minute", "ek sec".
	minuteWords = wordSet("minute", "min", "mint", "second", "sec")
)

var (
	backOpeners = wordSet("wait", "sorry", "so", "um", "umm", "uh", "hmm", "hm", "oh", "ah", "erm", "er", "hey", "and", "but", "then", "ok", "okay")
	// offers follow the first word of an answer put as a question: "is it
	// 5?", "is that right?", "what's the answer?" (asks for it, gives none).
	offers = wordSet("it", "its", "that", "thats", "this", "answer")
	// persons after a verb make a question back: "should I …?", "can you …?".
	persons = wordSet("i", "we", "you", "u", "they", "there")
)

func wordSet(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}
