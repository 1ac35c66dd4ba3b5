package httpapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/tutord/tutord/internal/llm"
	"github.com/tutord/tutord/internal/orchestrator"
	"github.com/tutord/tutord/internal/store"
	"github.com/tutord/tutord/internal/tutor"
)

// databaseRetry is the Retry-After of database_unavailable: a restart or a
// failover takes seconds.
const databaseRetry = 5 * time.Second

// Error is an error with a status code, a stable machine code and a
// message that is safe to show a client.
type Error struct {
	Status  int
	Code    string
	Message string
	Detail  any   // the reference's `detail`; the message when nil
	Err     error // the cause, logged, never sent
	// RetryAfter, when positive, is sent as the Retry-After header.
	RetryAfter time.Duration
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %v", e.Message, e.Err)
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// errorBody is the one error shape: the reference's `detail` plus a code.
type errorBody struct {
	Detail any       `json:"detail"`
	Error  errorCode `json:"error"`
}

type errorCode struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// handleError maps every error a handler returns to a status and the error
// body, in this one place. Unexpected errors are logged with the request's
// details and shown to the client only as a generic message.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	if errors.Is(err, store.ErrLearnerGone) {
		// Deleted while this process had the learner cached (through
		// another one), or since the caller signed in: the next request
		// looks again.
		if who := callerOf(c); who.learner != nil {
			s.learners.forget(who.learner.ExternalID)
		}
	}
	apiErr := s.toAPIError(err)
	if apiErr.Status >= 500 {
		s.log.Error("request failed", "method", c.Request().Method, "path", c.Path(), "status", apiErr.Status, "err", err)
	}
	if apiErr.RetryAfter > 0 {
		c.Response().Header().Set("Retry-After", strconv.Itoa(retrySeconds(apiErr.RetryAfter)))
	}
	detail := apiErr.Detail
	if detail == nil {
		detail = apiErr.Message
	}
	body := errorBody{Detail: detail, Error: errorCode{Code: apiErr.Code, Message: apiErr.Message}}
	if c.Request().Method == http.MethodHead {
		err = c.NoContent(apiErr.Status)
	} else {
		err = c.JSON(apiErr.Status, body)
	}
	if err != nil {
		s.log.Warn("write error response", "err", err)
	}
}

func (s *Server) toAPIError(err error) *Error {
	var apiErr *Error
	if errors.As(err, &apiErr) {
		return apiErr
	}
	if e := domainError(err); e != nil {
		return e
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		switch he.Code {
		case http.StatusNotFound:
			return &Error{Status: he.Code, Code: "not_found", Message: "Not Found"}
		case http.StatusMethodNotAllowed:
			return &Error{Status: he.Code, Code: "method_not_allowed", Message: "Method Not Allowed"}
		case http.StatusRequestEntityTooLarge:
			return &Error{Status: he.Code, Code: "too_large", Message: "Request body too large"}
		}
		msg := http.StatusText(he.Code)
		if m, ok := he.Message.(string); ok && he.Code < 500 {
			msg = m
		}
		return &Error{Status: he.Code, Code: codeForStatus(he.Code), Message: msg, Err: err}
	}
	return &Error{Status: http.StatusInternalServerError, Code: "internal", Message: "Internal error", Err: err}
}

// domainError maps the errors of the orchestrator, the domain and the store
// to responses, with the reference's messages where it has them.
func domainError(err error) *Error {
	var conflict *orchestrator.ConflictError
	var te *tutor.Error
	var le *llm.Error
	switch {
	case errors.Is(err, orchestrator.ErrSessionNotFound):
		return errSessionNotFound
	case errors.As(err, &conflict):
		return &Error{Status: http.StatusConflict, Code: "stale_state", Message: conflict.Error(), Err: err}
	case errors.Is(err, orchestrator.ErrTurnIDReused):
		// As the Idempotency-Key draft asks: 422 for a key reused with
		// another request.
		const msg = "This turn id (Idempotency-Key or client_turn_id) was already used for a different message; send a new message with a new id"
		return &Error{Status: http.StatusUnprocessableEntity, Code: "idempotency_key_reused", Message: msg,
			Detail: []fieldError{{Type: "value_error", Loc: []any{"header", "Idempotency-Key"}, Msg: msg, Input: nil}}}
	case errors.Is(err, orchestrator.ErrAnotherPaused):
		return &Error{Status: http.StatusConflict, Code: "another_session_paused",
			Message: "Another session of yours on this subtopic is already paused; resume or finish it first", Err: err}
	case errors.Is(err, orchestrator.ErrExamGeneration):
		return &Error{Status: http.StatusServiceUnavailable, Code: "exam_generation_unavailable",
			Message: "Exam generation is temporarily unavailable. Please try again.",
			Detail:  map[string]string{"message": "Exam generation is temporarily unavailable. Please try again.", "type": "ExamGenerationError"}}
	case errors.Is(err, orchestrator.ErrShuttingDown):
		return &Error{Status: http.StatusServiceUnavailable, Code: "unavailable", Message: "The server is shutting down; please retry"}
	case errors.Is(err, llm.ErrBudgetExceeded):
		e := &Error{Status: http.StatusTooManyRequests, Code: "budget_exceeded", Message: "Today's usage budget is spent; please come back tomorrow", Err: err}
		if errors.As(err, &le) {
			e.RetryAfter = le.RetryAfter
		}
		return e
	case errors.As(err, &le):
		return &Error{Status: http.StatusServiceUnavailable, Code: "llm_unavailable", Message: "The tutor's model provider is unavailable; please try again shortly", Err: err}
	case errors.As(err, &te):
		switch te.Code {
		case tutor.ErrInvalid.Code:
			return &Error{Status: http.StatusUnprocessableEntity, Code: "validation_error", Message: te.Message,
				Detail: []fieldError{{Type: "value_error", Loc: []any{"body"}, Msg: te.Message, Input: nil}}}
		case tutor.ErrWrongMode.Code, tutor.ErrNotPaused.Code, tutor.ErrAlreadyEnded.Code, tutor.ErrExamFinished.Code:
			return &Error{Status: http.StatusBadRequest, Code: te.Code, Message: te.Message}
		}
	case errors.Is(err, store.ErrBusy):
		// Every database connection stayed taken for TUTORD_DB_ACQUIRE_TIMEOUT:
		// the request was not run, and may be sent again.
		return &Error{Status: http.StatusServiceUnavailable, Code: "database_busy",
			Message: "The server is busy; please try again shortly", RetryAfter: time.Second, Err: err}
	case errors.Is(err, store.ErrUnavailable):
		// The database is down, restarting or failing over: not a bug of
		// this request, and worth sending again shortly.
		return &Error{Status: http.StatusServiceUnavailable, Code: "database_unavailable",
			Message: "The database is unavailable; please try again shortly", RetryAfter: databaseRetry, Err: err}
	case errors.Is(err, store.ErrLearnerGone):
		return &Error{Status: http.StatusUnauthorized, Code: "learner_deleted", Message: "This account was deleted; sign in again", Err: err}
	case errors.Is(err, store.ErrInvalid):
		return &Error{Status: http.StatusUnprocessableEntity, Code: "validation_error", Message: "A value is out of range",
			Detail: []fieldError{{Type: "value_error", Loc: []any{"body"}, Msg: "A value is out of range", Input: nil}}}
	case errors.Is(err, context.Canceled):
		// The client went away; nobody reads this.
		return &Error{Status: 499, Code: "client_closed_request", Message: "Request cancelled"}
	}
	return nil
}

func isNotFound(err error) bool { return errors.Is(err, store.ErrNotFound) }

func codeForStatus(status int) string {
	switch status {
	case http.StatusBadRequest:
		return "bad_request"
	case http.StatusUnauthorized:
		return "unauthorized"
	case http.StatusForbidden:
		return "forbidden"
	case http.StatusConflict:
		return "conflict"
	case http.StatusUnprocessableEntity:
		return "validation_error"
	case http.StatusTooManyRequests:
		return "rate_limited"
	case http.StatusServiceUnavailable:
		return "unavailable"
	}
	if status >= 500 {
		return "internal"
	}
	return "error"
}

// recoverPanics turns a handler panic into a logged 500 with the error body
// instead of a dropped connection or a stack trace.
func (s *Server) recoverPanics(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			if r := recover(); r != nil {
				if r == http.ErrAbortHandler {
					panic(r)
				}
				s.log.Error("handler panicked", "method", c.Request().Method, "path", c.Path(), "panic", r, slog.String("stack", string(debug.Stack())))
				err = &Error{Status: http.StatusInternalServerError, Code: "internal", Message: "Internal error"}
			}
		}()
		return next(c)
	}
}
