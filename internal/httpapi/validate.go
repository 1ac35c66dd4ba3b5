package httpapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/labstack/echo/v4"
	oapimw "github.com/oapi-codegen/echo-middleware"
)

// LoadSpec parses and validates the API contract.
func LoadSpec(spec []byte) (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(spec)
	if err != nil {
		return nil, fmt.Errorf("load API contract: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("API contract is invalid: %w", err)
	}
	return doc, nil
}

// NewValidator returns a middleware that validates requests against the
// API contract and answers violations with the reference's 422 body. Auth
// is checked by the handlers, not here; the upload of /transcribe and the
// WebSocket upgrade are checked by their handlers too.
func NewValidator(doc *openapi3.T) echo.MiddlewareFunc {
	doc.Servers = nil
	return oapimw.OapiRequestValidatorWithOptions(doc, &oapimw.Options{
		Options: openapi3filter.Options{
			AuthenticationFunc: openapi3filter.NoopAuthenticationFunc,
			ExcludeRequestBody: false,
		},
		Skipper: func(c echo.Context) bool {
			p := c.Path()
			return p == "/transcribe" || strings.HasPrefix(p, "/sessions/ws/") || c.Request().Method == http.MethodOptions
		},
		MultiErrorHandler: func(me openapi3.MultiError) *echo.HTTPError {
			return &echo.HTTPError{Code: http.StatusBadRequest, Message: me.Error(), Internal: me}
		},
		ErrorHandler: func(c echo.Context, err *echo.HTTPError) error {
			var re *openapi3filter.RequestError
			if errors.As(err.Internal, &re) {
				return validationError(requestFieldError(re))
			}
			var me openapi3.MultiError
			if errors.As(err.Internal, &me) {
				var items []fieldError
				for _, e := range me {
					var se *openapi3.SchemaError
					switch {
					case errors.As(e, &re):
						items = append(items, requestFieldError(re))
					case errors.As(e, &se):
						items = append(items, requestFieldError(&openapi3filter.RequestError{RequestBody: &openapi3.RequestBody{}, Err: se}))
					}
				}
				if len(items) > 0 {
					return validationError(items...)
				}
			}
			switch err.Code {
			case http.StatusNotFound, http.StatusMethodNotAllowed:
				return err // the router's answer is the same
			}
			return validationError(fieldError{Type: "value_error", Loc: []any{"body"}, Msg: fmt.Sprint(err.Message), Input: nil})
		},
	})
}

// requestFieldError turns a contract violation into a 422 detail item.
func requestFieldError(re *openapi3filter.RequestError) fieldError {
	fe := fieldError{Type: "value_error", Msg: firstLine(re.Error())}
	var se *openapi3.SchemaError
	hasSchema := errors.As(re.Err, &se)
	switch {
	case re.Parameter != nil:
		fe.Loc = []any{re.Parameter.In, re.Parameter.Name}
		if re.Err != nil && strings.Contains(re.Err.Error(), "must have a value") {
			fe.Type, fe.Msg = "missing", "Field required"
		}
	case re.RequestBody != nil:
		fe.Loc = []any{"body"}
		if hasSchema {
			for _, p := range se.JSONPointer() {
				fe.Loc = append(fe.Loc, p)
			}
		}
		var pe *openapi3filter.ParseError
		if errors.As(re.Err, &pe) || (re.Err != nil && strings.Contains(re.Err.Error(), "failed to decode")) {
			fe.Type, fe.Msg, fe.Loc = "json_invalid", "JSON decode error", []any{"body", 0}
		}
	default:
		fe.Loc = []any{"request"}
	}
	if hasSchema {
		fe.Input = se.Value
		reason := schemaReason(se.Reason)
		// The JSON Schema 2020-12 validator (OpenAPI 3.1) puts the location
		// in the reason: "at '/student/grade': got string, want integer".
		if strings.HasPrefix(reason, "at '") {
			if loc, rest, ok := strings.Cut(strings.TrimPrefix(reason, "at '"), "': "); ok {
				if len(se.JSONPointer()) == 0 && re.RequestBody != nil {
					for _, p := range strings.Split(strings.Trim(loc, "/"), "/") {
						if p != "" {
							fe.Loc = append(fe.Loc, p)
						}
					}
				}
				reason = rest
			}
		}
		fe.Msg = reason
		switch {
		case se.SchemaField == "required" || strings.HasPrefix(reason, "missing propert"):
			fe.Type, fe.Msg = "missing", "Field required"
			if name := between(reason, "'", "'"); name != "" {
				fe.Loc = append(fe.Loc, name)
			} else if name := between(se.Reason, `"`, `"`); name != "" {
				fe.Loc = append(fe.Loc, name)
			}
			fe.Input = nil
		case se.SchemaField == "additionalProperties" || strings.HasPrefix(reason, "additional properties"):
			fe.Type = "extra_forbidden"
			if name := between(reason, "'", "'"); name != "" {
				fe.Loc = append(fe.Loc, name)
				fe.Msg = "Extra inputs are not permitted"
			}
		case se.SchemaField == "type" || strings.HasPrefix(reason, "got "):
			fe.Type = "type_error"
		case se.SchemaField == "enum" || strings.HasPrefix(reason, "value must be one of"):
			fe.Type = "enum"
		}
	}
	return fe
}

// schemaReason returns the useful line of a schema error's reason: the
// JSON Schema 2020-12 validator leads with "jsonschema validation failed
// with '<schema>'" and lists the failures as "- at '<path>': <reason>".
func schemaReason(r string) string {
	for _, line := range strings.Split(r, "\n") {
		if i := strings.LastIndex(line, "at '"); i >= 0 {
			return strings.TrimSpace(line[i:])
		}
	}
	return firstLine(r)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func between(s, open, close string) string {
	_, rest, ok := strings.Cut(s, open)
	if !ok {
		return ""
	}
	v, _, ok := strings.Cut(rest, close)
	if !ok {
		return ""
	}
	return v
}
