package httpapi

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"
)

// fieldError is one item of a 422 response's detail list, in the shape the
// reference (FastAPI/pydantic) uses: {"type", "loc", "msg", "input"}.
type fieldError struct {
	Type  string `json:"type"`
	Loc   []any  `json:"loc"`
	Msg   string `json:"msg"`
	Input any    `json:"input"`
}

// validationError is the 422 error for request validation failures.
func validationError(items ...fieldError) *Error {
	msg := "Request validation failed"
	if len(items) > 0 {
		msg = items[0].Msg
	}
	return &Error{Status: http.StatusUnprocessableEntity, Code: "validation_error", Message: msg, Detail: items}
}

func missing(where, name string) fieldError {
	return fieldError{Type: "missing", Loc: []any{where, name}, Msg: "Field required", Input: nil}
}

// queryParams reads query parameters and collects every problem, so that a
// request hears about all of them at once. Text that cannot be stored (NUL
// characters, invalid UTF-8) is one.
type queryParams struct {
	c    echo.Context
	errs []fieldError
}

func (q *queryParams) requiredString(name string) string {
	v, ok := q.c.QueryParams()[name]
	if !ok || len(v) == 0 {
		q.errs = append(q.errs, missing("query", name))
		return ""
	}
	return q.text(name, v[0])
}

func (q *queryParams) optionalString(name string) string {
	return q.text(name, q.c.QueryParam(name))
}

// text checks a string parameter; a bad one reads as empty.
func (q *queryParams) text(name, v string) string {
	if fe, bad := textIssue([]any{"query", name}, v); bad {
		q.errs = append(q.errs, fe)
		return ""
	}
	return v
}

// intParam reads an integer parameter, as the reference does ("7", " 7 ",
// "7.0"); def is used when it is absent and required is false.
func (q *queryParams) intParam(name string, required bool, def int) int {
	v, ok := q.c.QueryParams()[name]
	if !ok || len(v) == 0 {
		if required {
			q.errs = append(q.errs, missing("query", name))
		}
		return def
	}
	n, err := strconv.Atoi(v[0])
	if err != nil {
		// " 7 " and "7.0" too, as pydantic's lax mode reads them.
		if lax, ok := laxIntString(v[0]); ok {
			if n, err := lax.Int64(); err == nil {
				return int(n)
			}
		}
		q.errs = append(q.errs, fieldError{Type: "int_parsing", Loc: []any{"query", name},
			Msg: "Input should be a valid integer, unable to parse string as an integer", Input: v[0]})
		return def
	}
	return n
}

// min checks a lower bound on an integer parameter.
func (q *queryParams) min(name string, v, lo int) {
	if v < lo {
		q.errs = append(q.errs, fieldError{Type: "greater_than_equal", Loc: []any{"query", name},
			Msg: "Input should be greater than or equal to " + strconv.Itoa(lo), Input: v})
	}
}

// max checks an upper bound on an integer parameter.
func (q *queryParams) max(name string, v, hi int) {
	if v > hi {
		q.errs = append(q.errs, fieldError{Type: "less_than_equal", Loc: []any{"query", name},
			Msg: "Input should be less than or equal to " + strconv.Itoa(hi), Input: v})
	}
}

func (q *queryParams) err() error {
	if len(q.errs) == 0 {
		return nil
	}
	return validationError(q.errs...)
}
