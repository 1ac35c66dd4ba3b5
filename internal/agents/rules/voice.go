package rules

import (
	"strconv"
	"strings"

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
	pairs := append([]string{"{name}", name, "{hi}", hi}, slots[:len(slots)&^1]...)
	return strings.NewReplacer(pairs...).Replace(options[i])
}

// firstName returns the first word of a learner's name, cut to a sane
// length; "" when unknown.
func firstName(p *string) string {
	if p == nil {
		return ""
	}
	f := strings.Fields(*p)
	if len(f) == 0 {
		return ""
	}
	return cut(f[0], 24)
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
