package httpapi

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"

	"github.com/labstack/echo/v4"
)

// Error is an error with a status code, a stable machine code and a
// message that is safe to show a client.
type Error struct {
	Status  int
	Code    string
	Message string
	Detail  any   // the reference's `detail`; the message when nil
	Err     error // the cause, logged, never sent
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
	apiErr := s.toAPIError(err)
	if apiErr.Status >= 500 {
		s.log.Error("request failed", "method", c.Request().Method, "path", c.Path(), "status", apiErr.Status, "err", err)
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
