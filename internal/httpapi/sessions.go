package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/store"
	"github.com/tutord/tutord/internal/tutor"
)

// Sessions is the orchestrator, as the handlers use it.
type Sessions interface {
	CreateSession(ctx context.Context, r orchestrator.CreateRequest) (orchestrator.Created, error)
	ProcessTurn(ctx context.Context, id uuid.UUID, message, clientTurnID string) (orchestrator.TurnResult, error)
	// Committed returns the stored result of a turn already committed with
	// the client turn id (see orchestrator.Orchestrator.Committed).
	Committed(ctx context.Context, id uuid.UUID, message, clientTurnID string) (orchestrator.TurnResult, bool, error)
	// Running reports whether a turn with the client turn id is running
	// on the session (see orchestrator.Orchestrator.Running).
	Running(id uuid.UUID, clientTurnID string) bool
	Load(ctx context.Context, id uuid.UUID) (orchestrator.Session, error)
	Pause(ctx context.Context, id uuid.UUID) (tutor.PauseSummary, error)
	Resume(ctx context.Context, id uuid.UUID) (orchestrator.Resumed, error)
	EndClarify(ctx context.Context, id uuid.UUID) ([]string, error)
	EndExam(ctx context.Context, id uuid.UUID) (tutor.ExamScore, error)
	Messages(ctx context.Context, id uuid.UUID) ([]store.Message, error)
	Welcome(ctx context.Context, id uuid.UUID) (string, error)
	// Forget drops the sessions kept in memory, after sessions were deleted.
	Forget()
	// Owner returns the learner a session belongs to, nil when anonymous.
	Owner(ctx context.Context, id uuid.UUID) (*uuid.UUID, error)
}

var _ Sessions = (*orchestrator.Orchestrator)(nil)

var errSessionNotFound = &Error{Status: http.StatusNotFound, Code: "session_not_found", Message: "Session not found"}

// session loads a session the caller may use: its learner, an admin, or
// anyone for an anonymous session. Another learner's session is "not
// found" (404, not 403), so that ids cannot be probed.
func (s *Server) session(c echo.Context) (orchestrator.Session, error) {
	id, err := s.sessionID(c)
	if err != nil {
		return orchestrator.Session{}, err
	}
	se, err := s.deps.Sessions.Load(c.Request().Context(), id)
	if err != nil {
		return orchestrator.Session{}, err
	}
	if !callerOf(c).mayUse(se.Row.LearnerID) {
		return orchestrator.Session{}, errSessionNotFound
	}
	return se, nil
}

// ownedSession returns the id of a session the caller may use, as session
// does, without reading the whole session: a turn reads it anyway.
func (s *Server) ownedSession(c echo.Context) (uuid.UUID, error) {
	id, err := s.sessionID(c)
	if err != nil {
		return uuid.Nil, err
	}
	owner, err := s.deps.Sessions.Owner(c.Request().Context(), id)
	if err != nil {
		return uuid.Nil, err
	}
	if !callerOf(c).mayUse(owner) {
		return uuid.Nil, errSessionNotFound
	}
	return id, nil
}

// sessionID reads the session id of a request. An anonymous caller where
// anonymous sessions are off was refused before (see withCaller), whatever
// the id.
func (s *Server) sessionID(c echo.Context) (uuid.UUID, error) {
	id, err := uuid.Parse(c.Param("id"))
	if err != nil {
		return uuid.Nil, errSessionNotFound
	}
	return id, nil
}

// createSessionRequest is the body of POST /sessions (the reference's).
type createSessionRequest struct {
	Student struct {
		ID    string `json:"id"`
		Grade int    `json:"grade"`
		Prefs *struct {
			Style *string `json:"style"`
			Lang  *string `json:"lang"`
		} `json:"prefs"`
	} `json:"student"`
	Goal struct {
		Topic              string   `json:"topic"`
		Syllabus           string   `json:"syllabus"`
		LearningObjectives []string `json:"learning_objectives"`
		GuidelineID        *string  `json:"guideline_id"`
	} `json:"goal"`
	Mode *string `json:"mode"`
}

type createSessionResponse struct {
	SessionID       string                 `json:"session_id"`
	FirstTurn       orchestrator.FirstTurn `json:"first_turn"`
	Mode            tutor.Mode             `json:"mode"`
	PastDiscussions []pastDiscussion       `json:"past_discussions"`
}

type pastDiscussion struct {
	SessionDate       *tutor.Time `json:"session_date"`
	ConceptsDiscussed []string    `json:"concepts_discussed"`
}

func (s *Server) createSession(c echo.Context) error {
	var req createSessionRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	who := callerOf(c)
	if err := s.allow(c, "create"); err != nil {
		return err
	}
	mode := tutor.ModeTeachMe
	if req.Mode != nil {
		mode = tutor.Mode(*req.Mode)
	}
	gid := "None"
	if req.Goal.GuidelineID != nil {
		gid = *req.Goal.GuidelineID
	}
	guideline, err := uuid.Parse(gid)
	if err != nil {
		return guidelineNotFound(gid)
	}
	student := s.studentContext(c.Request().Context(), who, req)
	if student.Grade < 1 || student.Grade > 12 {
		return validationError(fieldError{Type: "less_than_equal", Loc: []any{"body", "student", "grade"},
			Msg: "Grade must be between 1 and 12", Input: req.Student.Grade})
	}
	created, err := s.deps.Sessions.CreateSession(c.Request().Context(), orchestrator.CreateRequest{
		LearnerID: who.learnerID(), GuidelineID: guideline, Mode: mode, Student: student,
	})
	if errors.Is(err, orchestrator.ErrGuidelineNotFound) {
		return guidelineNotFound(gid)
	}
	if err != nil {
		return err
	}
	resp := createSessionResponse{
		SessionID: created.Session.Row.ID.String(),
		FirstTurn: orchestrator.NewFirstTurn(created.Session.State, created.Session.Topic, created.Welcome),
		Mode:      created.Session.State.Mode,
	}
	if len(created.PastDiscussions) > 0 {
		for _, p := range created.PastDiscussions {
			d := tutor.NewTime(p.SessionDate)
			resp.PastDiscussions = append(resp.PastDiscussions, pastDiscussion{SessionDate: &d, ConceptsDiscussed: p.Concepts})
		}
	}
	if s.metrics != nil {
		s.metrics.sessionCreated(string(mode))
	}
	return c.JSON(http.StatusOK, resp)
}

func guidelineNotFound(id string) *Error {
	return &Error{Status: http.StatusNotFound, Code: "guideline_not_found", Message: fmt.Sprintf("Teaching guideline %s not found", id)}
}

// studentContext is the learner's context at session creation (CONTRACT
// §2.3.1 step 3): from the profile when it has a grade and a board, else
// from the request.
func (s *Server) studentContext(ctx context.Context, who caller, req createSessionRequest) tutor.StudentContext {
	sc := tutor.StudentContext{PreferredExamples: tutor.DefaultPreferredExamples()}
	if p := req.Student.Prefs; p != nil {
		if p.Lang != nil {
			sc.Language = *p.Lang
		}
		if p.Style != nil {
			sc.Style = *p.Style
		}
	}
	if !who.anonymous() && s.deps.Profiles != nil {
		if l, err := s.deps.Profiles.GetLearner(ctx, who.learner.ID); err == nil && l.Grade != nil && *l.Grade > 0 && l.Board != nil && *l.Board != "" {
			sc.Grade, sc.Board = *l.Grade, *l.Board
			sc.LanguageLevel = "standard"
			if l.Age != nil && *l.Age <= 10 {
				sc.LanguageLevel = "simple"
			}
			if l.LanguageLevel != nil && *l.LanguageLevel != "" {
				sc.LanguageLevel = *l.LanguageLevel
			}
			if len(l.PreferredExamples) > 0 {
				// A profile saved before they were bounded may hold more.
				sc.PreferredExamples = l.PreferredExamples[:min(len(l.PreferredExamples), maxExamples)]
				for i, ex := range sc.PreferredExamples {
					if r := []rune(ex); len(r) > maxExampleText {
						sc.PreferredExamples[i] = string(r[:maxExampleText])
					}
				}
			}
			sc.StudentName, sc.StudentAge, sc.AboutMe = l.Name, l.Age, l.AboutMe
			return sc
		}
	}
	sc.Grade = req.Student.Grade
	sc.Board = "CBSE"
	if f := strings.Fields(req.Goal.Syllabus); len(f) > 0 {
		sc.Board = f[0]
	}
	sc.LanguageLevel = "standard"
	if sc.Grade <= 5 {
		sc.LanguageLevel = "simple"
	}
	return sc
}

type stepRequest struct {
	StudentReply string `json:"student_reply"`
}

func (s *Server) step(c echo.Context) error {
	var req stepRequest
	if err := bindJSON(c, &req, "student_reply"); err != nil {
		return err
	}
	if n := utf8.RuneCountInString(req.StudentReply); n > s.opts.MaxReplyChars {
		return &Error{Status: http.StatusRequestEntityTooLarge, Code: "too_large",
			Message: fmt.Sprintf("student_reply is %d characters; at most %d are accepted", n, s.opts.MaxReplyChars)}
	}
	id, err := s.ownedSession(c)
	if err != nil {
		return err
	}
	key := c.Request().Header.Get("Idempotency-Key")
	if fe, bad := turnKeyIssue([]any{"header", "Idempotency-Key"}, key); bad {
		return validationError(fe)
	}
	refund, replay, err := s.allowTurn(c.Request().Context(), rateKey(c), id, req.StudentReply, key)
	if err != nil {
		return err
	}
	if replay != nil {
		return c.JSONBlob(http.StatusOK, replay.Response)
	}
	res, err := s.deps.Sessions.ProcessTurn(c.Request().Context(), id, req.StudentReply, key)
	if err != nil {
		return err
	}
	if res.Replayed {
		refund() // a retry answered with its first attempt's result ran nothing
	}
	if res.Committed && !res.Replayed {
		s.broadcast(id, res.Session)
	}
	return c.JSONBlob(http.StatusOK, res.Response)
}

func (s *Server) pause(c echo.Context) error {
	se, err := s.session(c)
	if err != nil {
		return err
	}
	ps, err := s.deps.Sessions.Pause(c.Request().Context(), se.Row.ID)
	if err != nil {
		return err
	}
	s.broadcastLatest(c.Request().Context(), se.Row.ID)
	return c.JSON(http.StatusOK, ps)
}

type resumeResponse struct {
	SessionID           string        `json:"session_id"`
	Message             string        `json:"message"`
	CurrentStep         int           `json:"current_step"`
	ConversationHistory []roleContent `json:"conversation_history"`
}

type roleContent struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

func (s *Server) resume(c echo.Context) error {
	se, err := s.session(c)
	if err != nil {
		return err
	}
	r, err := s.deps.Sessions.Resume(c.Request().Context(), se.Row.ID)
	if err != nil {
		return err
	}
	resp := resumeResponse{SessionID: se.Row.ID.String(), Message: "Session resumed", CurrentStep: r.Session.State.CurrentStep,
		ConversationHistory: make([]roleContent, len(r.Messages))}
	for i, m := range r.Messages {
		resp.ConversationHistory[i] = roleContent{Role: m.Role, Content: m.Content}
	}
	s.broadcastLatest(c.Request().Context(), se.Row.ID)
	return c.JSON(http.StatusOK, resp)
}

func (s *Server) endClarify(c echo.Context) error {
	se, err := s.session(c)
	if err != nil {
		return err
	}
	concepts, err := s.deps.Sessions.EndClarify(c.Request().Context(), se.Row.ID)
	if err != nil {
		return err
	}
	s.broadcastLatest(c.Request().Context(), se.Row.ID)
	return c.JSON(http.StatusOK, map[string]any{"concepts_discussed": concepts, "message": tutor.ClarifyEndedReply})
}

func (s *Server) endExam(c echo.Context) error {
	se, err := s.session(c)
	if err != nil {
		return err
	}
	score, err := s.deps.Sessions.EndExam(c.Request().Context(), se.Row.ID)
	if err != nil {
		return err
	}
	s.broadcastLatest(c.Request().Context(), se.Row.ID)
	return c.JSON(http.StatusOK, score)
}

func (s *Server) summary(c echo.Context) error {
	se, err := s.session(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, se.State.Summary(se.Topic))
}

// getSession serves the stored session document (GET /sessions/{id} and
// /replay), with answer-bearing values hidden from everyone but admins.
func (s *Server) getSession(c echo.Context) error {
	se, err := s.session(c)
	if err != nil {
		return err
	}
	msgs, err := s.deps.Sessions.Messages(c.Request().Context(), se.Row.ID)
	if err != nil {
		return err
	}
	doc, err := sessionDocument(se, msgs, !callerOf(c).admin())
	if err != nil {
		return err
	}
	return c.JSONBlob(http.StatusOK, doc)
}

// AgentLogs reads a session's agent logs.
type AgentLogs interface {
	ListAgentLogs(ctx context.Context, sessionID uuid.UUID, f store.LogFilter) ([]store.AgentLog, error)
}

// agentLogEntry is an agent log as admins read it: a learner's view of
// it plus what holds answers and prompts.
type agentLogEntry struct {
	learnerLogEntry
	Output    json.RawMessage `json:"output"`
	Reasoning *string         `json:"reasoning"`
	Prompt    *string         `json:"prompt"`
	Error     *string         `json:"error"` // tutord's addition
}

// agentLogs serves a session's agent logs (admins only: they hold full
// prompts), from its newest store.AgentLogWindow entries: the reference
// keeps no more, so its clients expect no more, and a filter (which
// makes limit ignored) then cannot answer a long session's whole history.
func (s *Server) agentLogs(c echo.Context) error {
	if err := requireAdmin(c); err != nil {
		return err
	}
	se, err := s.session(c)
	if err != nil {
		return err
	}
	q := queryParams{c: c}
	f := store.LogFilter{TurnID: q.optionalString("turn_id"), Agent: q.optionalString("agent_name"), Limit: q.intParam("limit", false, 100)}
	q.min("limit", f.Limit, 1)
	if err := q.err(); err != nil {
		return err
	}
	logs, err := s.deps.AgentLogs.ListAgentLogs(c.Request().Context(), se.Row.ID, f)
	if err != nil {
		return err
	}
	entries := make([]agentLogEntry, len(logs))
	for i, l := range logs {
		entries[i] = toAgentLogEntry(l)
	}
	var turnID *string
	if f.TurnID != "" {
		turnID = &f.TurnID
	}
	return c.JSON(http.StatusOK, map[string]any{"session_id": se.Row.ID.String(), "turn_id": turnID, "logs": entries, "total_count": len(entries)})
}

// toAgentLogEntry is an agent log as admins read it: everything, prompts
// and reasoning included.
func toAgentLogEntry(l store.AgentLog) agentLogEntry {
	e := agentLogEntry{
		learnerLogEntry: learnerLogEntry{
			Timestamp: tutor.NewTime(l.CreatedAt), TurnID: l.TurnID, AgentName: l.Agent, EventType: l.Event,
			InputSummary: nonEmpty(l.InputSummary), DurationMS: l.LatencyMS, Model: nonEmpty(l.Model), Provider: nonEmpty(l.Provider),
			InputTokens: l.InputTokens, OutputTokens: l.OutputTokens, CachedTokens: l.CachedTokens, CostUSD: l.CostUSD,
		},
		Output: l.Output, Reasoning: nonEmpty(l.Reasoning), Prompt: nonEmpty(l.Prompt), Error: nonEmpty(l.Error),
	}
	if len(e.Output) == 0 {
		e.Output = json.RawMessage("null")
	}
	return e
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// bodyTooLarge reports whether err is a read of the request body that
// passed its limit (see bodyLimits).
func bodyTooLarge(err error) bool {
	var mbe *http.MaxBytesError
	return errors.Is(err, echo.ErrStatusRequestEntityTooLarge) || errors.As(err, &mbe)
}

// bindJSON decodes a JSON body, turning malformed JSON into the
// reference's 422 json_invalid error, and strings that cannot be stored
// (NUL characters, invalid UTF-8) into a 422 naming them, except in the
// top-level fields named in cleaned, which the orchestrator cleans.
func bindJSON(c echo.Context, v any, cleaned ...string) error {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		if bodyTooLarge(err) {
			return &Error{Status: http.StatusRequestEntityTooLarge, Code: "too_large", Message: "Request body too large"}
		}
		return errJSONInvalid // a body cut short is malformed JSON
	}
	if err := decodeJSON(body, v); err != nil {
		return err
	}
	if issues := bodyTextIssues(body, cleaned...); len(issues) > 0 {
		return validationError(issues...)
	}
	return nil
}

// decodeJSON decodes a body, with the reference's 422 for malformed JSON
// (text after the value included, as json.loads has it) and values of the
// wrong type. Field names match exactly, as pydantic matches them: a key
// in another case ("Student_Reply") is an unknown key, ignored like any
// other (the request validator refuses both, extra_forbidden). An int
// field takes what pydantic's lax mode takes for one (see laxInt): a
// number without a fraction, 7.0 or 7e0, and a string holding an integer,
// "7" or " 7 "; a fraction is int_from_float, another string ("seven",
// "7.5") int_parsing.
func decodeJSON(body []byte, v any) error {
	body = exactKeys(body, reflect.TypeOf(v)) // field names match exactly
	err := json.Unmarshal(body, v)
	var ute *json.UnmarshalTypeError
	if errors.As(err, &ute) {
		if lax, ok := laxBody(body, reflect.TypeOf(v)); ok {
			reflect.ValueOf(v).Elem().SetZero()
			err = json.Unmarshal(lax, v)
		}
	}
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ute):
		return validationError(unmarshalTypeError(ute))
	}
	return errJSONInvalid
}

// laxBody returns body with what t's int fields take read as integers (see
// laxGoInts), and false if that changes nothing.
func laxBody(body []byte, t reflect.Type) ([]byte, bool) {
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var doc any
	if d.Decode(&doc) != nil {
		return nil, false
	}
	doc, changed := laxGoInts(doc, t)
	if !changed {
		return nil, false
	}
	out, err := json.Marshal(doc)
	return out, err == nil
}

// unmarshalTypeError is the 422 item of a value the handler's Go type
// cannot hold, with pydantic's type and message.
func unmarshalTypeError(ute *json.UnmarshalTypeError) fieldError {
	loc := []any{"body"}
	for _, p := range strings.Split(ute.Field, ".") {
		if p != "" {
			loc = append(loc, p)
		}
	}
	// The error gives a number's text ("number 7.5"), not a string's: to
	// typeError the input only needs to be one.
	fe := fieldError{Loc: loc, Input: nil}
	var input any
	switch kind, literal, _ := strings.Cut(ute.Value, " "); {
	case kind == "string":
		input = ""
	case literal != "":
		fe.Input = json.Number(literal)
		input = fe.Input
	}
	t := ute.Type
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	want := openapi3.TypeObject
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		want = openapi3.TypeInteger
	case reflect.Float32, reflect.Float64:
		want = openapi3.TypeNumber
	case reflect.String:
		want = openapi3.TypeString
	case reflect.Bool:
		want = openapi3.TypeBoolean
	case reflect.Slice, reflect.Array:
		want = openapi3.TypeArray
	}
	fe.Type, fe.Msg = typeError(want, input)
	return fe
}

var errJSONInvalid = validationError(fieldError{Type: "json_invalid", Loc: []any{"body", 0}, Msg: "JSON decode error", Input: map[string]any{}})
