package rules

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/tutord/tutord/internal/tutor"
)

// voice picks the words of one reply. Every move has several phrasings
// (phrases.go); which one a reply uses depends on a hash of the session id
// and the move, shifted by the turn number, so that the same move on
// consecutive turns is phrased differently, two sessions differ, and a
// rerun of a session is identical.
type voice struct {
	session string
	turn    int
	name    string // the learner's first name; "" when unknown
	named   bool   // the name has been used in this reply
}

func newVoice(s tutor.State) *voice {
	return &voice{session: s.SessionID, turn: s.TurnCount, name: firstName(s.StudentContext.StudentName)}
}

// say returns a phrasing of move m with its slots filled. The slot {name}
// becomes ", <name>" on about one reply in three, once per reply (and ""
// otherwise); {hi} is a greeting with the name when known. Other slots
// come in pairs: "{q}", "What is 2/9 + 5/9?".
func (v *voice) say(m move, slots ...string) string {
	options := phrasebook[m]
	if len(options) == 0 {
		return ""
	}
	i := (hash(v.session, strconv.Itoa(int(m))) + uint64(v.turn)) % uint64(len(options))
	name := ""
	if v.name != "" && !v.named && strings.Contains(options[i], "{name}") && (hash(v.session, "name")+uint64(v.turn))%3 == 0 {
		name = ", " + v.name
		v.named = true
	}
	hi := "Hi!"
	if v.name != "" {
		hi = "Hi " + v.name + "!"
	}
	return fill(options[i], append([]string{"{name}", name, "{hi}", hi}, slots[:len(slots)&^1]...))
}

// fill replaces the slots of a phrasing ("{q}") by their values, given in
// pairs; a slot without a value stays as it is. It does what a
// strings.Replacer would, without building one per reply.
func fill(phrasing string, pairs []string) string {
	var b strings.Builder
	b.Grow(len(phrasing) + 64)
	for {
		i := strings.IndexByte(phrasing, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(phrasing[i:], '}')
		if j < 0 {
			break
		}
		slot := phrasing[i : i+j+1]
		b.WriteString(phrasing[:i])
		k := 0
		for k+1 < len(pairs) && pairs[k] != slot {
			k += 2
		}
		if k+1 >= len(pairs) { // not a slot: keep the brace, look on
			b.WriteByte('{')
			phrasing = phrasing[i+1:]
			continue
		}
		b.WriteString(pairs[k+1])
		phrasing = phrasing[i+j+1:]
	}
	b.WriteString(phrasing)
	return b.String()
}

// firstName returns the first word of a learner's name, cut to a sane
// length; "" when unknown.
func firstName(p *string) string {
	if p == nil {
		return ""
	}
	// The first word with a letter, without the punctuation around it:
	// "Asha," and "Rao, Asha" are greeted "Hi Asha!" and "Hi Rao!".
	for _, f := range strings.Fields(*p) {
		if w := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsMark(r) }); w != "" {
			return cut(w, 24)
		}
	}
	return ""
}

// compose joins the non-empty parts of a reply with single spaces.
func compose(parts ...string) string {
	var b strings.Builder
	for _, p := range parts {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(p)
	}
	return b.String()
}
