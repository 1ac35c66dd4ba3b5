package stt

import "strings"

// ParseLanguage reads the language of a recording as an ISO-639-1 code:
// two ASCII letters, in any case. It returns the code in lower case, as
// OpenAI's API and the Whisper servers expect it, and whether s is one.
// Whether Whisper knows the language is the server's to say.
func ParseLanguage(s string) (string, bool) {
	if !validLanguage(s) {
		return "", false
	}
	return strings.ToLower(s), true
}

// validLanguage reports whether s is two ASCII letters.
func validLanguage(s string) bool {
	if len(s) != 2 {
		return false
	}
	for i := range len(s) {
		if c := s[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}
