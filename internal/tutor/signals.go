package tutor

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Pace is the label of a pacing directive.
type Pace string

// The paces, in the order they are tested.
const (
	PaceFirstTurn   Pace = "FIRST TURN"
	PaceExtend      Pace = "EXTEND"
	PaceAccelerate  Pace = "ACCELERATE"
	PaceSimplify    Pace = "SIMPLIFY"
	PaceConsolidate Pace = "CONSOLIDATE"
	PaceSteady      Pace = "STEADY"
)

// PacingDirective is the pacing signal of a turn: its label and the line
// the tutor prompt shows.
type PacingDirective struct {
	Pace Pace
	Text string
}

// The directive lines of the reference prompts.
const (
	pacingFirstTurn   = "PACING: FIRST TURN — Keep opening to 2-3 sentences MAX. Ask ONE simple question to gauge level. Don't explain the topic yet. No tables, no multi-step walkthroughs. Just a brief hook and one question."
	pacingExtend      = "PACING: EXTEND — Student has aced the plan. Push to harder territory — bigger numbers, trickier problems, edge cases. Do NOT wrap up or defer to 'next session'. Challenge them. Keep responses concise."
	pacingAccelerate  = "PACING: ACCELERATE — Student is acing this. Skip steps aggressively — jump ahead in the plan, skip explanations entirely, go straight to hard problems. Minimal scaffolding: 1-2 sentences max before the challenge. No analogies or walkthroughs unless they ask. If they request harder material, go BEYOND the study plan — larger numbers, edge cases, puzzles. Cut praise to brief acknowledgments."
	pacingSimplify    = "PACING: SIMPLIFY — Student is struggling. Shorter sentences, 1-2 ideas per response. Yes/no or simple-choice questions. ONE analogy max. No tables or multi-step breakdowns. After a correct answer, give them another similar problem to consolidate BEFORE introducing new concepts."
	pacingConsolidate = "PACING: CONSOLIDATE — Student is getting it but still shaky. Give them a similar problem at the SAME level to build confidence. Don't introduce new concepts yet. Keep it short and encouraging."
	pacingSteady      = "PACING: STEADY — Progressing normally. One idea at a time."
)

// Pacing returns the pacing directive for the turn about to be tutored. s
// is the state before the turn, so the turn's number is s.TurnCount+1 (the
// reference counted the turn before prompting). The first matching rule
// wins: the first turn; EXTEND or ACCELERATE when mean mastery ≥ 0.8 and the
// trend is improving (fast track: when at least 60% of the concepts are at
// ≥ 0.7 and the mean is ≥ 0.65 with an improving trend, the mean counts as
// 0.8), EXTEND once the session is complete; SIMPLIFY when some mastery is
// above 0 and the mean is below 0.4, or the trend is struggling;
// CONSOLIDATE when the mean is in [0.4, 0.65), the trend steady and the
// pending question has 2+ wrong attempts; else STEADY.
func Pacing(s State, t *Topic) PacingDirective {
	if s.TurnCount+1 == 1 {
		return PacingDirective{PaceFirstTurn, pacingFirstTurn}
	}
	m := s.MasteryEstimates
	avg := m.Mean()
	trend := s.SessionSummary.ProgressTrend
	var strong int
	hasRealData := false
	for _, cs := range m {
		if cs.Score >= 0.7 {
			strong++
		}
		if cs.Score > 0 {
			hasRealData = true
		}
	}
	if len(m) > 0 && float64(strong) >= float64(len(m))*0.6 && avg >= 0.65 && trend == TrendImproving {
		avg = 0.8
	}
	switch {
	case avg >= 0.8 && trend == TrendImproving && s.IsComplete(t):
		return PacingDirective{PaceExtend, pacingExtend}
	case avg >= 0.8 && trend == TrendImproving:
		return PacingDirective{PaceAccelerate, pacingAccelerate}
	case (hasRealData && avg < 0.4) || trend == TrendStruggling:
		return PacingDirective{PaceSimplify, pacingSimplify}
	case hasRealData && avg >= 0.4 && avg < 0.65 && trend == TrendSteady &&
		s.LastQuestion != nil && s.LastQuestion.WrongAttempts >= 2:
		return PacingDirective{PaceConsolidate, pacingConsolidate}
	}
	return PacingDirective{PaceSteady, pacingSteady}
}

// StyleLevel is how much a learner writes.
type StyleLevel string

// The style levels.
const (
	StyleUnknown    StyleLevel = "Unknown"    // no student message yet
	StyleQuiet      StyleLevel = "QUIET"      // ≤ 5 words per message on average
	StyleModerate   StyleLevel = "Moderate"   // ≤ 15
	StyleExpressive StyleLevel = "Expressive" // more
)

// StudentStyle is the communication style of a learner, read from their
// messages in the history window.
type StudentStyle struct {
	Level         StyleLevel
	Messages      int     // student messages considered
	AvgWords      float64 // mean whitespace-separated words per message
	AsksQuestions bool    // some message contains "?"
	UsesEmoji     bool    // some character is above U+1F600
	// Disengaging: over the last four messages (of four or more), the last
	// has fewer than 40% of the first one's words and at most five words.
	Disengaging bool
}

// Style reads the learner's style from the history window before the turn
// and the turn's message (blank for none), over the last HistoryWindow
// messages of both, as the reference prompt saw them. It does not allocate.
func Style(history []Message, current string) StudentStyle {
	start := max(0, len(history)+1-HistoryWindow)
	var st StudentStyle
	var words int
	var last4 [4]int // ring of the latest word counts
	add := func(content string) {
		w := countWords(content)
		words += w
		last4[st.Messages%4] = w
		st.Messages++
		if strings.IndexByte(content, '?') >= 0 {
			st.AsksQuestions = true
		}
		if !st.UsesEmoji && hasEmoji(content) {
			st.UsesEmoji = true
		}
	}
	for _, m := range history[start:] {
		if m.Role == RoleStudent {
			add(m.Content)
		}
	}
	if !isBlank(current) {
		add(current)
	}
	if st.Messages == 0 {
		return StudentStyle{Level: StyleUnknown}
	}
	st.AvgWords = float64(words) / float64(st.Messages)
	switch {
	case st.AvgWords <= 5:
		st.Level = StyleQuiet
	case st.AvgWords <= 15:
		st.Level = StyleModerate
	default:
		st.Level = StyleExpressive
	}
	if st.Messages >= 4 {
		first, last := last4[st.Messages%4], last4[(st.Messages-1)%4]
		st.Disengaging = float64(last) < float64(first)*0.4 && last <= 5
	}
	return st
}

// Directive returns the style line the tutor prompt shows.
func (st StudentStyle) Directive() string {
	if st.Messages == 0 || st.Level == StyleUnknown {
		return "STYLE: Unknown (first turn). Start short."
	}
	avg := strconv.FormatFloat(st.AvgWords, 'f', 0, 64)
	var b strings.Builder
	switch st.Level {
	case StyleQuiet:
		b.WriteString("STYLE: QUIET (" + avg + " words/msg avg) — respond in 2-3 sentences MAX.")
	case StyleModerate:
		b.WriteString("STYLE: Moderate (" + avg + " words/msg) — 3-5 sentences.")
	default:
		b.WriteString("STYLE: Expressive (" + avg + " words/msg) — can elaborate more.")
	}
	if st.AsksQuestions {
		b.WriteString(" Student asks questions — encourage this, answer them.")
	}
	if st.UsesEmoji {
		b.WriteString(" Student uses emojis — you can mirror lightly.")
	}
	if st.Disengaging {
		b.WriteString(" ⚠️ Responses getting shorter — possible disengagement. Re-engage: try a different angle or ask what they think.")
	}
	return b.String()
}

// countWords counts whitespace-separated words, as Python's str.split().
func countWords(s string) int {
	n, in := 0, false
	for _, r := range s {
		if unicode.IsSpace(r) {
			in = false
		} else if !in {
			in = true
			n++
		}
	}
	return n
}

func hasEmoji(s string) bool {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r > 0x1F600 {
			return true
		}
		i += size
	}
	return false
}
