package httpapi_test

// What a learner's export holds.

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// idTokenWithPhone mints an ID token like Cognito's, with a phone number (which
// auth.Mint does not set).
func idTokenWithPhone(t *testing.T, sub, email, phone, name string, iat time.Time) string {
	t.Helper()
	if iat.IsZero() {
		iat = time.Now()
	}
	c := jwt.MapClaims{"sub": sub, "token_use": "id", "aud": "tutord-test", "iat": iat.Unix(), "exp": iat.Add(time.Hour).Unix()}
	if email != "" {
		c["email"] = email
	}
	if phone != "" {
		c["phone_number"] = phone
		c["phone_number_verified"] = true
	}
	if name != "" {
		c["name"] = name
	}
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString([]byte(testSecret))
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestExportHoldsTheWholeAccount: a learner with a profile, sessions in
// every mode and usage exports their data (GET /profile/export,
// "everything stored about the caller"). They get every session, message
// and usage row, nothing of another learner, and the account's record:
// the profile with when the account was made and last signed in to.
func TestExportHoldsTheWholeAccount(t *testing.T) {
	s := newServer(t)
	ctx := context.Background()
	const sub = "exporter"
	if r := s.do("POST", "/auth/sync", nil, idTokenWithPhone(t, sub, "exp@example.com", "+919800000001", "Exporter", time.Time{})); r.Status != 200 {
		t.Fatalf("sync: %d %s", r.Status, r.Body)
	}
	tok := token(t, sub, false)
	const photo = "science/nutrition-in-plants/photosynthesis"
	ids := []string{s.newSession(fractions, "", tok), s.newSession(fractions, "exam", tok), s.newSession(photo, "clarify_doubts", tok)}
	for _, id := range ids {
		s.stepOK(t, id, "mine Pelicanthrope", tok)
	}
	l, _ := s.st.LearnerByExternalID(ctx, sub)
	recordUsage(t, s, l.ID.String(), ids[0], 0.01)
	recordUsage(t, s, l.ID.String(), "", 0.01)

	otherTok := token(t, "export-other", false)
	other := s.newSession(photo, "clarify_doubts", otherTok)
	s.stepOK(t, other, "theirs Narwhalogy", otherTok)
	ol, _ := s.st.LearnerByExternalID(ctx, "export-other")
	recordUsage(t, s, ol.ID.String(), other, 0.02)

	r := s.do("GET", "/profile/export", nil, tok)
	if r.Status != 200 {
		t.Fatalf("export: %d %s", r.Status, truncate(r.Body, 300))
	}
	body := string(r.Body)
	for _, n := range []string{ol.ID.String(), other, "Narwhalogy"} {
		if strings.Contains(body, n) {
			t.Errorf("the export holds another learner's %q", n)
		}
	}
	m := r.JSON(t)
	if n := len(m["sessions"].([]any)); n != 3 {
		t.Errorf("%d sessions exported, want 3", n)
	}
	if n := len(m["llm_usage"].([]any)); n != 2 {
		t.Errorf("%d usage rows exported, want 2", n)
	}
	if !strings.Contains(body, "Pelicanthrope") {
		t.Errorf("the learner's own messages are not in the export")
	}
	p := m["profile"].(map[string]any)
	for _, k := range []string{"email", "phone", "name"} {
		if p[k] == nil {
			t.Errorf("export profile lacks %s", k)
		}
	}
	// The rest of the account's record.
	for _, k := range []string{"subject", "created_at", "updated_at", "last_login_at"} {
		if _, ok := p[k]; !ok {
			t.Errorf("the export's profile lacks %s, stored in learners.%s (export keys: %v)", k, k, keysOf(p))
		}
	}
}

func keysOf(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
