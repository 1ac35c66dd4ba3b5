package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/tutord/tutord/internal/store"
	"github.com/tutord/tutord/internal/tutor"
)

// Profiles is what the profile and account routes need of the store.
type Profiles interface {
	GetLearner(ctx context.Context, id uuid.UUID) (store.Learner, error)
	SyncLearner(ctx context.Context, in store.SignIn) (store.Learner, error)
	UpdateProfile(ctx context.Context, id uuid.UUID, u store.ProfileUpdate) (store.Learner, error)
	DeleteLearner(ctx context.Context, externalID string) ([]uuid.UUID, error)
	ExportLearner(ctx context.Context, id uuid.UUID) (store.LearnerExport, error)
}

// userProfile is the reference's UserProfile plus tutord's additions.
type userProfile struct {
	ID                 string   `json:"id"`
	Email              *string  `json:"email"`
	Phone              *string  `json:"phone"`
	Name               *string  `json:"name"`
	Age                *int     `json:"age"`
	Grade              *int     `json:"grade"`
	Board              *string  `json:"board"`
	SchoolName         *string  `json:"school_name"`
	AboutMe            *string  `json:"about_me"`
	OnboardingComplete bool     `json:"onboarding_complete"`
	AuthProvider       string   `json:"auth_provider"`
	Country            *string  `json:"country"`
	TimeZone           string   `json:"time_zone"`
	LanguageLevel      *string  `json:"language_level"`
	PreferredExamples  []string `json:"preferred_examples"`
}

func toProfile(l store.Learner) userProfile {
	ex := l.PreferredExamples
	if ex == nil {
		ex = []string{}
	}
	return userProfile{
		ID: l.ID.String(), Email: l.Email, Phone: l.Phone, Name: l.Name, Age: l.Age, Grade: l.Grade, Board: l.Board,
		SchoolName: l.SchoolName, AboutMe: l.AboutMe, OnboardingComplete: l.OnboardingComplete,
		AuthProvider: l.AuthProvider, Country: l.Country, TimeZone: l.TimeZone, LanguageLevel: l.LanguageLevel,
		PreferredExamples: ex,
	}
}

// goneIfMissing reports the caller's learner, missing from the store, as
// deleted: another replica deleted them while this one still had them
// cached (see handleError).
func goneIfMissing(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("%w (%v)", store.ErrLearnerGone, err)
	}
	return err
}

func (s *Server) getProfile(c echo.Context) error {
	l, err := requireLearner(c)
	if err != nil {
		return err
	}
	fresh, err := s.deps.Profiles.GetLearner(c.Request().Context(), l.ID)
	if err != nil {
		return goneIfMissing(err)
	}
	return c.JSON(http.StatusOK, toProfile(fresh))
}

type profileUpdate struct {
	Name              *string  `json:"name"`
	Age               *int     `json:"age"`
	Grade             *int     `json:"grade"`
	Board             *string  `json:"board"`
	SchoolName        *string  `json:"school_name"`
	AboutMe           *string  `json:"about_me"`
	Country           *string  `json:"country"`
	TimeZone          *string  `json:"time_zone"`
	LanguageLevel     *string  `json:"language_level"`
	PreferredExamples []string `json:"preferred_examples"`
}

// maxProfileText is the most characters a profile's text field holds.
const maxProfileText = 2000

// maxExamples and maxExampleText bound a profile's preferred examples.
const (
	maxExamples    = 10
	maxExampleText = 100
)

// putProfile writes the fields given (a field cannot be cleared, as in the
// reference); onboarding completes once name, age, grade and board are set.
func (s *Server) putProfile(c echo.Context) error {
	l, err := requireLearner(c)
	if err != nil {
		return err
	}
	var u profileUpdate
	if err := bindJSON(c, &u); err != nil {
		return err
	}
	var bad []fieldError
	check := func(ok bool, field, msg string, input any) {
		if !ok {
			bad = append(bad, fieldError{Type: "value_error", Loc: []any{"body", field}, Msg: msg, Input: input})
		}
	}
	if u.Age != nil {
		check(*u.Age >= 1 && *u.Age <= 120, "age", "Age must be between 1 and 120", *u.Age)
	}
	if u.Grade != nil {
		check(*u.Grade >= 1 && *u.Grade <= 12, "grade", "Grade must be between 1 and 12", *u.Grade)
	}
	if u.LanguageLevel != nil {
		v := *u.LanguageLevel
		check(v == "simple" || v == "standard" || v == "advanced", "language_level", "Language level must be simple, standard or advanced", v)
	}
	if u.TimeZone != nil {
		_, tzErr := time.LoadLocation(*u.TimeZone)
		check(tzErr == nil && *u.TimeZone != "" && *u.TimeZone != "Local", "time_zone", "Unknown time zone; use an IANA name such as Asia/Kolkata", *u.TimeZone)
	}
	// Every session copies the examples into its state and every prompt
	// names them: a short list of short words.
	if n := len(u.PreferredExamples); n > maxExamples {
		bad = append(bad, fieldError{Type: "too_long", Loc: []any{"body", "preferred_examples"},
			Msg: fmt.Sprintf("List should have at most %d items after validation, not %d", maxExamples, n), Input: nil})
	}
	for i, ex := range u.PreferredExamples {
		if utf8.RuneCountInString(ex) > maxExampleText {
			bad = append(bad, fieldError{Type: "string_too_long", Loc: []any{"body", "preferred_examples", i},
				Msg: fmt.Sprintf("String should have at most %d characters", maxExampleText), Input: nil})
		}
	}
	for _, f := range []struct {
		name  string
		value *string
	}{{"name", u.Name}, {"board", u.Board}, {"school_name", u.SchoolName}, {"about_me", u.AboutMe}, {"country", u.Country}} {
		if f.value != nil && utf8.RuneCountInString(*f.value) > maxProfileText {
			bad = append(bad, fieldError{Type: "string_too_long", Loc: []any{"body", f.name}, Msg: fmt.Sprintf("String should have at most %d characters", maxProfileText), Input: nil})
		}
	}
	if len(bad) > 0 {
		return validationError(bad...)
	}
	updated, err := s.deps.Profiles.UpdateProfile(c.Request().Context(), l.ID, store.ProfileUpdate{
		Name: u.Name, Age: u.Age, Grade: u.Grade, Board: u.Board, SchoolName: u.SchoolName, AboutMe: u.AboutMe,
		Country: u.Country, TimeZone: u.TimeZone, LanguageLevel: u.LanguageLevel, PreferredExamples: u.PreferredExamples,
	})
	if err != nil {
		return goneIfMissing(err)
	}
	s.learners.forget(updated.ExternalID)
	return c.JSON(http.StatusOK, toProfile(updated))
}

type exportedSession struct {
	SessionID   string          `json:"session_id"`
	Mode        string          `json:"mode"`
	GuidelineID *string         `json:"guideline_id"`
	CreatedAt   tutor.Time      `json:"created_at"`
	UpdatedAt   tutor.Time      `json:"updated_at"`
	State       json.RawMessage `json:"state"`
	Messages    []exportMessage `json:"messages"`
	Turns       []exportTurn    `json:"turns"`
	AgentLogs   []any           `json:"agent_logs"` // agentLogEntry for admins, learnerLogEntry for others
}

type exportMessage struct {
	Role      string     `json:"role"`
	Content   string     `json:"content"`
	Timestamp tutor.Time `json:"timestamp"`
	MessageID *string    `json:"message_id"`
}

// exportTurn is a turn record: the response the learner was sent, kept so
// that a retry gets it again. It holds nothing the learner was not shown.
type exportTurn struct {
	ClientTurnID *string         `json:"client_turn_id"`
	Response     json.RawMessage `json:"response"`
	CreatedAt    tutor.Time      `json:"created_at"`
}

// learnerLogEntry is an agent log as a learner exports it: what ran, when,
// on which model, at what cost, and the log's input summary (the learner's
// own message, or a reply after its answer leaks were repaired). Left out,
// because they hold what the learner must not see yet: the prompt (expected
// answers, rubrics, hints, the exam's questions and answers), the output
// (the tutor's expected_answer and reasoning; a generated exam with every
// answer), the reasoning, and the error (a provider's error text may echo
// the prompt). Admins export the full entry of the agent-logs route.
type learnerLogEntry struct {
	Timestamp    tutor.Time `json:"timestamp"`
	TurnID       string     `json:"turn_id"`
	AgentName    string     `json:"agent_name"`
	EventType    string     `json:"event_type"`
	InputSummary *string    `json:"input_summary"`
	DurationMS   *int       `json:"duration_ms"`
	Model        *string    `json:"model"`
	// tutord's additions.
	Provider     *string `json:"provider"`
	InputTokens  int     `json:"input_tokens"`
	OutputTokens int     `json:"output_tokens"`
	CachedTokens int     `json:"cached_tokens"`
	CostUSD      float64 `json:"cost_usd"`
}

// exportUsage is one model call made for the learner. The prompt hash is
// for admins only: with the public prompt templates and the learner's own
// conversation, a hash could be matched against guessed answers.
type exportUsage struct {
	Timestamp    tutor.Time `json:"timestamp"`
	SessionID    *string    `json:"session_id"`
	Component    string     `json:"component"`
	Provider     string     `json:"provider"`
	Model        string     `json:"model"`
	Attempts     int        `json:"attempts"`
	LatencyMS    int64      `json:"latency_ms"`
	InputTokens  int64      `json:"input_tokens"`
	OutputTokens int64      `json:"output_tokens"`
	CachedTokens int64      `json:"cached_tokens"`
	CostUSD      float64    `json:"cost_usd"`
	Priced       bool       `json:"priced"`
	Estimated    bool       `json:"estimated"`
	ErrorKind    *string    `json:"error_kind"`
	PromptHash   *string    `json:"prompt_hash,omitempty"`
}

// exportProfile serves GET /profile/export: everything stored about the
// caller, as one JSON document. For anyone but an admin, the session
// states are redacted as GET /sessions/{id} redacts them, and agent logs
// and usage records leave out what could give an answer away. An export
// is heavy (a transaction on a pooled connection, the whole document in
// memory): a learner has one at a time, at a slow rate (beginExport).
func (s *Server) exportProfile(c echo.Context) error {
	l, err := requireLearner(c)
	if err != nil {
		return err
	}
	done, err := s.beginExport(c)
	if err != nil {
		return err
	}
	defer done()
	ex, err := s.deps.Profiles.ExportLearner(c.Request().Context(), l.ID)
	if err != nil {
		return goneIfMissing(err)
	}
	admin := callerOf(c).admin()
	sessions := make([]exportedSession, len(ex.Sessions))
	for i, se := range ex.Sessions {
		if sessions[i], err = exportSession(se, ex, admin); err != nil {
			return err
		}
	}
	usage := make([]exportUsage, len(ex.Usage))
	for i, u := range ex.Usage {
		usage[i] = exportUsage{Timestamp: tutor.NewTime(u.Time), SessionID: nonEmpty(u.SessionID), Component: string(u.Component),
			Provider: string(u.Provider), Model: u.Model, Attempts: u.Attempts, LatencyMS: u.Latency.Milliseconds(),
			InputTokens: u.Usage.InputTokens, OutputTokens: u.Usage.OutputTokens, CachedTokens: u.Usage.CachedInputTokens,
			CostUSD: u.CostUSD, Priced: u.Priced, Estimated: u.Usage.Estimated, ErrorKind: nonEmpty(string(u.ErrorKind))}
		if admin {
			usage[i].PromptHash = nonEmpty(u.PromptHash)
		}
	}
	c.Response().Header().Set("Content-Disposition", `attachment; filename="tutord-export.json"`)
	return c.JSON(http.StatusOK, map[string]any{
		"exported_at": tutor.NewTime(time.Now()), "profile": toExportedProfile(ex.Learner), "sessions": sessions, "llm_usage": usage,
	})
}

// exportedProfile is the profile of an export: the UserProfile, and what
// else the account row holds about the learner.
type exportedProfile struct {
	userProfile
	Subject     string      `json:"subject"` // the identity provider's
	CreatedAt   tutor.Time  `json:"created_at"`
	UpdatedAt   tutor.Time  `json:"updated_at"`
	LastLoginAt *tutor.Time `json:"last_login_at"`
}

func toExportedProfile(l store.Learner) exportedProfile {
	p := exportedProfile{userProfile: toProfile(l), Subject: l.ExternalID, CreatedAt: tutor.NewTime(l.CreatedAt), UpdatedAt: tutor.NewTime(l.UpdatedAt)}
	if l.LastLoginAt != nil {
		t := tutor.NewTime(*l.LastLoginAt)
		p.LastLoginAt = &t
	}
	return p
}

// exportSession is one session of an export with its messages, turn
// records and agent logs.
func exportSession(se store.Session, ex store.LearnerExport, admin bool) (exportedSession, error) {
	out := exportedSession{SessionID: se.ID.String(), Mode: se.Mode, CreatedAt: tutor.NewTime(se.CreatedAt),
		UpdatedAt: tutor.NewTime(se.UpdatedAt), State: se.State, Messages: []exportMessage{}, Turns: []exportTurn{}, AgentLogs: []any{}}
	if se.GuidelineID != nil {
		g := se.GuidelineID.String()
		out.GuidelineID = &g
	}
	if !admin {
		var err error
		if out.State, err = redactedState(se.State); err != nil {
			return exportedSession{}, fmt.Errorf("export session %s: %w", se.ID, err)
		}
	}
	for _, m := range ex.Messages[se.ID] {
		out.Messages = append(out.Messages, exportMessage{Role: m.Role, Content: m.Content, Timestamp: tutor.NewTime(m.CreatedAt)})
	}
	for _, t := range ex.Turns[se.ID] {
		out.Turns = append(out.Turns, exportTurn{ClientTurnID: nonEmpty(t.ClientTurnID), Response: t.Response, CreatedAt: tutor.NewTime(t.CreatedAt)})
	}
	for _, l := range ex.Logs[se.ID] {
		e := toAgentLogEntry(l)
		if admin {
			out.AgentLogs = append(out.AgentLogs, e)
			continue
		}
		out.AgentLogs = append(out.AgentLogs, e.learnerLogEntry)
	}
	return out, nil
}

// authSync serves POST /auth/sync: a sign-in with an ID token (verified
// by withCaller) creates or updates the learner and returns their profile.
func (s *Server) authSync(c echo.Context) error {
	id, ok := c.Get(signInKey).(Identity)
	if !ok {
		return errUnauthorized("Not authenticated")
	}
	l, err := s.deps.Profiles.SyncLearner(c.Request().Context(), store.SignIn{
		ExternalID: id.Subject, Email: id.Email, Phone: id.Phone, Name: id.Name, AuthProvider: id.AuthProvider, Now: time.Now(),
		SignedInAt: signedInSince(id),
	})
	if err != nil {
		return err
	}
	s.learners.forget(id.Subject)
	return c.JSON(http.StatusOK, toProfile(l))
}

// phoneProvision serves POST /auth/phone/provision. Phone sign-up lives
// with the identity provider; tutord answers as the reference did, without
// side effects.
func (s *Server) phoneProvision(c echo.Context) error {
	var body struct {
		Phone string `json:"phone"`
	}
	if err := bindJSON(c, &body); err != nil {
		return err
	}
	if strings.TrimSpace(body.Phone) == "" {
		return validationError(missing("body", "phone"))
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

// deleteUser serves DELETE /auth/admin/user?cognito_sub= (admins only):
// the learner and every row of theirs.
func (s *Server) deleteUser(c echo.Context) error {
	if err := requireAdmin(c); err != nil {
		return err
	}
	q := queryParams{c: c}
	sub := q.requiredString("cognito_sub")
	if err := q.err(); err != nil {
		return err
	}
	sessions, err := s.deps.Profiles.DeleteLearner(c.Request().Context(), sub)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return &Error{Status: http.StatusNotFound, Code: "user_not_found", Message: "User not found"}
		}
		return err
	}
	s.learners.forget(sub)
	s.deps.Sessions.Forget() // no turn runs on a copy of a deleted session
	for _, id := range sessions {
		s.SessionChanged(id, store.SessionDeleted) // closes the connections here on them
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "deleted", "cognito_sub": sub})
}
