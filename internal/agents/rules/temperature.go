package rules

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tutord/tutord/internal/tutor"
)

// A doubt that puts a temperature forward ("water boils at 90 degrees
// right?", "ice melts at 0 °C na") hears Yes or No before the answer: the
// answer's sentences say the right temperature, but a learner should not
// have to compare the numbers to learn whether they were right.

// numberAt finds the numbers of a message, with the unit written after
// each: a temperature unit in the second group, any other word or sign in
// the third.
var numberAt = regexp.MustCompile(`(?i)(-?\d+(?:\.\d+)?)(?:\s*(°\s*c\b|°|degrees?(?:\s+(?:celsius|centigrade|c)\b)?|deg\b)|\s*([%/]|[a-z]+))?`)

// notTemperature are the words after a number that make it something other
// than a temperature: "2 kg", "3 times".
var notTemperature = wordSet(`percent per kg g gm gram grams km m metre metres meter meters cm mm ml l litre litres liter
	liters minute minutes min mins hour hours hr hrs second seconds sec secs day days times x rupees rs year years
	and or to by plus minus into out of f fahrenheit k kelvin`)

// notExactly are the words of a claim that put a temperature as a bound or
// a possibility, not as the one at which something happens: "more than 90
// degrees", "can boil at 90 degrees" (it can, up a mountain).
var notExactly = wordSet(`more less above below over under higher lower than least most can could may might sometimes
	usually around about approximately nearly almost`)

// unitless are the terms of a temperature claim that name the measure, not
// what has it: "the boiling point of water is 100 degrees" is about water
// boiling. Hedges go too: "about 100 degrees" claims 100.
var unitless = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`temperature temp point degree degrees celsius centigrade deg c
		about around approximately nearly roughly exactly exact only`) {
		m[stem(w)] = true
	}
	return m
}()

// checkTemperature returns the temperature a doubt claims and the one the
// answer's sentences state for it, with the sentence that states it moved
// first. The doubt must be a claim put as a question with one number, a
// temperature or a bare number, and no "not"; the sentence must have
// every other term of the claim and one temperature, written with its
// unit. ok is false when either is missing: a science lesson's sentences
// are the only ones read.
func checkTemperature(t *tutor.Topic, msg string, sents []string) (claimed, stated string, answer []string, ok bool) {
	if !strings.EqualFold(t.Subject, "science") || !isQuestion(msg) || denies(msg) {
		return "", "", sents, false
	}
	if slices.ContainsFunc(words(msg), func(w string) bool { return notExactly[w] }) {
		return "", "", sents, false
	}
	w := words(msg)
	for len(w) > 1 && openers[w[0]] {
		w = w[1:]
	}
	if len(w) > 0 && slices.Contains([]string{"what", "whats", "why", "how", "which", "when", "where", "who"}, w[0]) {
		return "", "", sents, false // asks, claims nothing
	}
	nums := numberAt.FindAllStringSubmatchIndex(msg, -1)
	if len(nums) != 1 {
		return "", "", sents, false
	}
	m := nums[0]
	if m[6] >= 0 && notTemperature[strings.ToLower(msg[m[6]:m[7]])] || m[6] >= 0 && !isLetters(msg[m[6]:m[7]]) {
		return "", "", sents, false
	}
	if rest := strings.TrimLeft(msg[m[1]:], " "); m[4] >= 0 && rest != "" && strings.IndexAny(rest[:1], "fFkK") == 0 {
		return "", "", sents, false // "100°F": "°" alone, then another scale
	}
	claimed = msg[m[2]:m[3]]
	claim := namedPoint.ReplaceAllString(msg[:m[0]]+" "+msg[m[1]:], "$1")
	want := slices.DeleteFunc(claimTerms(claim, t.Subject), func(w string) bool { return unitless[w] || tagQuestion[w] || openers[w] })
	if len(want) == 0 {
		return "", "", sents, false
	}
	for i, s := range sents {
		have := claimTerms(s, t.Subject)
		if slices.ContainsFunc(want, func(w string) bool { return !slices.Contains(have, w) }) {
			continue
		}
		var temps []string
		for _, n := range numberAt.FindAllStringSubmatch(s, -1) {
			if n[2] != "" && !slices.Contains(temps, n[1]) {
				temps = append(temps, n[1])
			}
		}
		if len(temps) != 1 {
			continue
		}
		answer = append([]string{s}, slices.Delete(slices.Clone(sents), i, i+1)...)
		return claimed + " °C", temps[0] + " °C", answer, true
	}
	return "", "", sents, false
}

func isLetters(s string) bool {
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') {
			return false
		}
	}
	return s != ""
}

// temperatureVerdict returns Yes or No on the temperature a doubt puts
// forward, with the answer reordered (see checkTemperature).
func temperatureVerdict(v *voice, t *tutor.Topic, msg string, sents []string) (string, []string, bool) {
	claimed, stated, answer, ok := checkTemperature(t, msg, sents)
	switch {
	case !ok:
		return "", sents, false
	case sameNumber(strings.TrimSuffix(claimed, " °C"), strings.TrimSuffix(stated, " °C")):
		return v.say(mValueRight, "{value}", stated), answer, true
	}
	return v.say(mValueWrong, "{value}", claimed), answer, true
}

// sameNumber reports whether two numbers written in digits are equal:
// "100.0" is "100".
func sameNumber(a, b string) bool {
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	return err1 == nil && err2 == nil && x == y
}
