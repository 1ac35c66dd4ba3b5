package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

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
// is checked before it (see withCaller), not here; the upload of
// /transcribe and the WebSocket upgrade are checked by their handlers.
func NewValidator(doc *openapi3.T) echo.MiddlewareFunc {
	doc.Servers = nil
	strictJSONOnce.Do(func() { openapi3filter.RegisterBodyDecoder(echo.MIMEApplicationJSON, strictJSON) })
	validate := oapimw.OapiRequestValidatorWithOptions(doc, &oapimw.Options{
		Options: openapi3filter.Options{
			AuthenticationFunc: openapi3filter.NoopAuthenticationFunc,
			ExcludeRequestBody: false,
			// Every issue, each in the RequestError that names its parameter
			// or the body. Without it the middleware digs a schema failure
			// out of its RequestError, and a bad query parameter or header
			// reached the error handler looking like a body error.
			MultiError: true,
		},
		Skipper: func(c echo.Context) bool {
			p := c.Path()
			return p == "/transcribe" || strings.HasPrefix(p, "/sessions/ws/") || c.Request().Method == http.MethodOptions
		},
		MultiErrorHandler: func(me openapi3.MultiError) *echo.HTTPError {
			return &echo.HTTPError{Code: http.StatusBadRequest, Message: me.Error(), Internal: me}
		},
		ErrorHandler: func(c echo.Context, err *echo.HTTPError) error {
			if errors.Is(err.Internal, echo.ErrStatusRequestEntityTooLarge) {
				return echo.ErrStatusRequestEntityTooLarge // reading the body passed its limit
			}
			if items := fieldErrors(err.Internal); len(items) > 0 {
				sentInputs(c.Request(), items)
				if sent, ok := c.Get(sentQueryKey).(url.Values); ok {
					for i, fe := range items {
						if len(fe.Loc) == 2 && fe.Loc[0] == "query" && len(sent[fmt.Sprint(fe.Loc[1])]) > 0 {
							items[i].Input = sent[fmt.Sprint(fe.Loc[1])][0]
						}
					}
				}
				return validationError(items...)
			}
			switch err.Code {
			case http.StatusNotFound, http.StatusMethodNotAllowed:
				return err // the router's answer is the same
			}
			return validationError(fieldError{Type: "value_error", Loc: []any{"body"}, Msg: fmt.Sprint(err.Message), Input: nil})
		},
	})
	ints := queryInts(doc)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		next = validate(next)
		return func(c echo.Context) error {
			laxQueryInts(c, ints)
			return next(c)
		}
	}
}

// queryInts returns the names of the contract's integer query parameters
// (a name that is something else on some route is left out).
func queryInts(doc *openapi3.T) map[string]bool {
	ints := map[string]bool{}
	for _, item := range doc.Paths.Map() {
		params := slices.Clone(item.Parameters)
		for _, op := range item.Operations() {
			params = append(params, op.Parameters...)
		}
		for _, ref := range params {
			p := ref.Value
			if p == nil || p.In != openapi3.ParameterInQuery {
				continue
			}
			isInt := p.Schema != nil && p.Schema.Value != nil && p.Schema.Value.Type.Is(openapi3.TypeInteger)
			if was, seen := ints[p.Name]; !seen || was {
				ints[p.Name] = isInt
			}
		}
	}
	return ints
}

// laxQueryInts rewrites each integer query parameter that pydantic's lax
// mode reads as an integer and the validator does not (" 7 ", "7.0") as
// that integer, for the validator and the handler. The query as sent is
// kept under sentQueryKey, for the inputs of 422 items (page=0.0 is
// refused as "0.0").
func laxQueryInts(c echo.Context, ints map[string]bool) {
	if c.Request().URL.RawQuery == "" {
		return
	}
	q := c.QueryParams() // the handler's copy, which it may have read already
	sent := c.Request().URL.Query()
	changed := false
	for name, vs := range q {
		if !ints[name] {
			continue
		}
		for i, v := range vs {
			if _, err := strconv.Atoi(v); err == nil {
				continue
			}
			if n, ok := laxIntString(v); ok {
				vs[i], changed = n.String(), true
			}
		}
	}
	if changed {
		c.Request().URL.RawQuery = q.Encode()
		c.Set(sentQueryKey, sent)
	}
}

// sentQueryKey holds the query as the client sent it, when laxQueryInts
// rewrote it.
const sentQueryKey = "httpapi.sentQuery"

var strictJSONOnce sync.Once

// strictJSON decodes a JSON body for the request validator, which then
// answers malformed JSON with json_invalid. It refuses what json.loads
// refuses and kin-openapi's decoder, which reads one value, lets through:
// text after the value ({"a":1} {"b":2}). The handler cannot catch that
// itself: once the validator has set a default in a body, it hands on the
// value it decoded, re-encoded. Registered for application/json, the type
// every JSON body has by then (see jsonBody), in place of the library's
// decoder: the registry is the process's, not the validator's. An integer
// is read from a string as pydantic's lax mode reads one ("7"; see
// laxSchemaInts), so that the validator checks its range.
func strictJSON(body io.Reader, h http.Header, schema *openapi3.SchemaRef, enc openapi3filter.EncodingFn) (any, error) {
	data, err := io.ReadAll(body)
	if err != nil {
		return nil, &openapi3filter.ParseError{Kind: openapi3filter.KindInvalidFormat, Cause: err}
	}
	if !json.Valid(data) {
		return nil, &openapi3filter.ParseError{Kind: openapi3filter.KindInvalidFormat, Reason: "not one JSON value"}
	}
	v, err := openapi3filter.JSONBodyDecoder(bytes.NewReader(data), h, schema, enc)
	if err != nil {
		return nil, err
	}
	return laxSchemaInts(v, schema), nil
}

// sentInputs gives each body item whose value was read from a string (an
// integer sent as "13"; see laxSchemaInts) the string as its input, as
// pydantic reports the input as sent. The validator leaves the body as it
// was sent for the handler, and so for this.
func sentInputs(r *http.Request, items []fieldError) {
	if r.Body == nil {
		return
	}
	data, err := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(data))
	if err != nil {
		return
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var doc any
	if d.Decode(&doc) != nil {
		return
	}
	for i, fe := range items {
		if len(fe.Loc) < 2 || fe.Loc[0] != "body" {
			continue
		}
		if _, isString := fe.Input.(string); isString {
			continue
		}
		v := doc
		for _, k := range fe.Loc[1:] {
			switch x := v.(type) {
			case map[string]any:
				v = x[fmt.Sprint(k)] // locKey made a name such as "0" an int
			case []any:
				if j, ok := k.(int); ok && j < len(x) {
					v = x[j]
				} else {
					v = nil
				}
			default:
				v = nil
			}
		}
		if sent, ok := v.(string); ok {
			if _, lax := laxIntString(sent); lax {
				items[i].Input = sent
			}
		}
	}
}

// fieldErrors turns what the request validator reports into the 422
// detail items, one per issue, each located as pydantic locates it:
// ["query"|"header"|"path", name] for a parameter, ["body", field, ...]
// inside the body.
func fieldErrors(err error) []fieldError {
	var re *openapi3filter.RequestError
	var se *openapi3.SchemaError
	switch e := err.(type) {
	case openapi3.MultiError:
		var out []fieldError
		for _, x := range e {
			out = append(out, fieldErrors(x)...)
		}
		return out
	case *openapi3filter.RequestError:
		return requestFieldErrors(e)
	case *openapi3.SchemaError:
		// Without its RequestError a schema failure can only be the body's.
		return schemaFieldErrors([]any{"body"}, e, nil, false)
	}
	switch {
	case errors.As(err, &re):
		return requestFieldErrors(re)
	case errors.As(err, &se):
		return schemaFieldErrors([]any{"body"}, se, nil, false)
	}
	return nil
}

// requestFieldErrors returns the detail items of one parameter's or the
// body's failure.
func requestFieldErrors(re *openapi3filter.RequestError) []fieldError {
	loc, isParam := []any{"body"}, re.Parameter != nil
	if isParam {
		loc = []any{re.Parameter.In, re.Parameter.Name}
	}
	var pe *openapi3filter.ParseError
	switch {
	case errors.Is(re.Err, openapi3filter.ErrInvalidRequired), errors.Is(re.Err, openapi3filter.ErrInvalidEmptyValue):
		return []fieldError{{Type: "missing", Loc: loc, Msg: "Field required", Input: nil}}
	case !isParam && (errors.As(re.Err, &pe) || (re.Err != nil && strings.Contains(re.Err.Error(), "failed to decode"))):
		return []fieldError{{Type: "json_invalid", Loc: []any{"body", 0}, Msg: "JSON decode error", Input: map[string]any{}}}
	case isParam && errors.As(re.Err, &pe):
		return []fieldError{paramParseError(loc, re)}
	}
	var input any
	if isParam {
		input = rawParam(re)
	}
	var out []fieldError
	for _, se := range schemaLeaves(re.Err) {
		out = append(out, schemaFieldErrors(loc, se, input, isParam)...)
	}
	if len(out) == 0 {
		out = append(out, fieldError{Type: "value_error", Loc: loc, Msg: firstLine(re.Error()), Input: input})
	}
	return out
}

// paramParseError is the item of a parameter whose text is not of its
// schema's type (page=abc).
func paramParseError(loc []any, re *openapi3filter.RequestError) fieldError {
	fe := fieldError{Type: "value_error", Loc: loc, Msg: firstLine(re.Error()), Input: rawParam(re)}
	if s := re.Parameter.Schema; s != nil && s.Value != nil && s.Value.Type != nil {
		switch {
		case s.Value.Type.Is(openapi3.TypeInteger):
			fe.Type, fe.Msg = "int_parsing", "Input should be a valid integer, unable to parse string as an integer"
		case s.Value.Type.Is(openapi3.TypeNumber):
			fe.Type, fe.Msg = "float_parsing", "Input should be a valid number, unable to parse string as a number"
		case s.Value.Type.Is(openapi3.TypeBoolean):
			fe.Type, fe.Msg = "bool_parsing", "Input should be a valid boolean, unable to interpret input"
		}
	}
	return fe
}

// rawParam returns a parameter's text as the client sent it: pydantic
// reports the input of a query or header parameter as a string.
func rawParam(re *openapi3filter.RequestError) any {
	if re.Input == nil || re.Input.Request == nil {
		return nil
	}
	name := re.Parameter.Name
	switch re.Parameter.In {
	case openapi3.ParameterInQuery:
		if v := re.Input.Request.URL.Query()[name]; len(v) > 0 {
			return v[0]
		}
	case openapi3.ParameterInHeader:
		if v := re.Input.Request.Header.Values(name); len(v) > 0 {
			return v[0]
		}
	case openapi3.ParameterInPath:
		if v, ok := re.Input.PathParams[name]; ok {
			return v
		}
	}
	return nil
}

// schemaLeaves returns the failures a schema error is made of: the JSON
// Schema 2020-12 validator (OpenAPI 3.1) wraps them in one error whose
// origin lists them, the 3.0 validator reports them one by one.
func schemaLeaves(err error) []*openapi3.SchemaError {
	switch e := err.(type) {
	case nil:
		return nil
	case openapi3.MultiError:
		var out []*openapi3.SchemaError
		for _, x := range e {
			out = append(out, schemaLeaves(x)...)
		}
		return out
	case *openapi3.SchemaError:
		var me openapi3.MultiError
		if e.Origin != nil && errors.As(e.Origin, &me) {
			if leaves := schemaLeaves(me); len(leaves) > 0 {
				return leaves
			}
		}
		return []*openapi3.SchemaError{e}
	}
	var se *openapi3.SchemaError
	if errors.As(err, &se) {
		return schemaLeaves(se)
	}
	return nil
}

// schemaFieldErrors returns the items of one schema failure found under
// loc. input, when not nil, is the raw text of a parameter; a body item's
// input is the failing value. A missing or extra property may name several
// fields: one item each.
func schemaFieldErrors(loc []any, se *openapi3.SchemaError, input any, isParam bool) []fieldError {
	reason, at := schemaReason(se.Reason)
	loc = slices.Clone(loc)
	if ptr := se.JSONPointer(); len(ptr) > 0 {
		for _, p := range ptr {
			loc = append(loc, locKey(p))
		}
	} else if !isParam {
		for _, p := range strings.Split(strings.Trim(at, "/"), "/") {
			if p != "" {
				loc = append(loc, locKey(p))
			}
		}
	}
	if !isParam {
		input = se.Value
	}
	fe := fieldError{Type: "value_error", Loc: loc, Msg: reason, Input: input}
	field := se.SchemaField
	switch {
	case field == "required" || strings.HasPrefix(reason, "missing propert") || strings.HasSuffix(reason, " is missing"):
		// The 3.0 validator puts the missing name at the end of the
		// pointer already (`property "id" is missing`); the 2020-12 one
		// points at the object (`missing properties 'a', 'b'`).
		if name, ok := strings.CutSuffix(strings.TrimPrefix(reason, "property "), " is missing"); ok {
			name = strings.Trim(name, `"`)
			if len(loc) == 0 || loc[len(loc)-1] != any(name) {
				loc = append(loc, name)
			}
			return []fieldError{{Type: "missing", Loc: loc, Msg: "Field required", Input: input}}
		}
		var out []fieldError
		for _, name := range quoted(reason, '\'') {
			out = append(out, fieldError{Type: "missing", Loc: append(slices.Clone(loc), name), Msg: "Field required", Input: input})
		}
		if len(out) == 0 {
			out = append(out, fieldError{Type: "missing", Loc: loc, Msg: "Field required", Input: input})
		}
		return out
	case field == "additionalProperties" || strings.HasPrefix(reason, "additional propert") || strings.HasSuffix(reason, " is unsupported"):
		names := quoted(reason, '\'')
		if len(names) == 0 {
			names = quoted(reason, '"')
		}
		var out []fieldError
		for _, name := range names {
			var v any
			if m, ok := se.Value.(map[string]any); ok {
				v = m[name]
			}
			out = append(out, fieldError{Type: "extra_forbidden", Loc: append(slices.Clone(loc), name), Msg: "Extra inputs are not permitted", Input: v})
		}
		if len(out) == 0 {
			fe.Type = "extra_forbidden"
			out = append(out, fe)
		}
		return out
	case field == "type" || strings.HasPrefix(reason, "got ") || strings.HasPrefix(reason, "value must be a"):
		fe.Type, fe.Msg = typeError(wantedType(se, reason), input)
	case field == "minimum":
		fe.Type, fe.Msg = "greater_than_equal", "Input should be greater than or equal to "+limit(reason)
	case field == "maximum":
		fe.Type, fe.Msg = "less_than_equal", "Input should be less than or equal to "+limit(reason)
	case field == "exclusiveMinimum":
		fe.Type, fe.Msg = "greater_than", "Input should be greater than "+limit(reason)
	case field == "exclusiveMaximum":
		fe.Type, fe.Msg = "less_than", "Input should be less than "+limit(reason)
	case field == "minLength":
		fe.Type, fe.Msg = "string_too_short", "String should have at least "+plural(limit(reason), "character")
	case field == "maxLength":
		fe.Type, fe.Msg = "string_too_long", "String should have at most "+plural(limit(reason), "character")
	case field == "minItems", field == "maxItems":
		fe.Type, fe.Msg = "too_short", "List should have at least "+plural(limit(reason), "item")+" after validation"
		if field == "maxItems" {
			fe.Type, fe.Msg = "too_long", "List should have at most "+plural(limit(reason), "item")+" after validation"
		}
		if l, ok := input.([]any); ok {
			fe.Msg += ", not " + strconv.Itoa(len(l))
		}
	case field == "enum" || strings.HasPrefix(reason, "value must be one of") || strings.HasPrefix(reason, "value is not one of"):
		fe.Type = "enum"
		if values := enumValues(se, reason); len(values) > 0 {
			fe.Msg = "Input should be " + orList(values)
		}
	case field == "pattern":
		fe.Type = "string_pattern_mismatch"
		if se.Schema != nil && se.Schema.Pattern != "" {
			fe.Msg = "String should match pattern '" + se.Schema.Pattern + "'"
		}
	}
	return []fieldError{fe}
}

// typeError returns pydantic's type and message for a value that is not
// of the wanted JSON type.
func typeError(want string, input any) (typ, msg string) {
	_, isString := input.(string)
	switch want {
	case openapi3.TypeInteger:
		if isString {
			return "int_parsing", "Input should be a valid integer, unable to parse string as an integer"
		}
		if hasFraction(input) {
			return "int_from_float", "Input should be a valid integer, got a number with a fractional part"
		}
		return "int_type", "Input should be a valid integer"
	case openapi3.TypeNumber:
		if isString {
			return "float_parsing", "Input should be a valid number, unable to parse string as a number"
		}
		return "float_type", "Input should be a valid number"
	case openapi3.TypeString:
		return "string_type", "Input should be a valid string"
	case openapi3.TypeBoolean:
		if isString {
			return "bool_parsing", "Input should be a valid boolean, unable to interpret input"
		}
		return "bool_type", "Input should be a valid boolean"
	case openapi3.TypeArray:
		return "list_type", "Input should be a valid list"
	case openapi3.TypeObject:
		return "dict_type", "Input should be a valid dictionary"
	}
	return "type_error", "Input should be a valid " + want
}

// hasFraction reports whether a JSON number, as decoded with or without
// UseNumber, has a fractional part.
func hasFraction(v any) bool {
	var f float64
	switch v := v.(type) {
	case float64:
		f = v
	case json.Number:
		var err error
		if f, err = v.Float64(); err != nil {
			return false
		}
	default:
		return false
	}
	return f != math.Trunc(f)
}

// wantedType returns the non-null JSON type a value should have had:
// "got string, want null or integer" (2020-12) or "value must be an
// integer" (3.0).
func wantedType(se *openapi3.SchemaError, reason string) string {
	if _, want, ok := strings.Cut(reason, "want "); ok {
		for _, t := range strings.Split(want, " or ") {
			if t = strings.TrimSpace(t); t != openapi3.TypeNull {
				return t
			}
		}
	}
	if se.Schema != nil && se.Schema.Type != nil {
		for _, t := range se.Schema.Type.Slice() {
			if t != openapi3.TypeNull {
				return t
			}
		}
	}
	if rest, ok := strings.CutPrefix(reason, "value must be "); ok {
		return strings.TrimPrefix(strings.TrimPrefix(rest, "an "), "a ")
	}
	return ""
}

// limit returns the bound a value broke: "minimum: got 0, want 1"
// (2020-12) or "number must be at least 1" (3.0) both give "1".
func limit(reason string) string {
	if i := strings.LastIndex(reason, "want "); i >= 0 {
		reason = strings.TrimSpace(reason[i+len("want "):])
	} else if i := strings.LastIndexByte(reason, ' '); i >= 0 {
		reason = reason[i+1:]
	}
	return strings.ReplaceAll(reason, ",", "") // "2,000" as pydantic writes it: 2000
}

func plural(n, noun string) string {
	if n == "1" {
		return n + " " + noun
	}
	return n + " " + noun + "s"
}

// enumValues returns the allowed values of an enum, null left out.
func enumValues(se *openapi3.SchemaError, reason string) []string {
	var out []string
	if se.Schema != nil && len(se.Schema.Enum) > 0 {
		for _, v := range se.Schema.Enum {
			if v != nil {
				out = append(out, fmt.Sprint(v))
			}
		}
		return out
	}
	_, list, _ := strings.Cut(reason, "one of ")
	return quoted(list, '\'')
}

// orList formats values as pydantic does: 'a', 'b' or 'c'.
func orList(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = "'" + v + "'"
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// quoted returns the substrings of s between pairs of quote.
func quoted(s string, quote byte) []string {
	var out []string
	for {
		i := strings.IndexByte(s, quote)
		if i < 0 {
			return out
		}
		j := strings.IndexByte(s[i+1:], quote)
		if j < 0 {
			return out
		}
		out = append(out, s[i+1:i+1+j])
		s = s[i+j+2:]
	}
}

// locKey returns a JSON pointer token as a loc element: an array index is
// a number, as in pydantic.
func locKey(token string) any {
	if n, err := strconv.Atoi(token); err == nil && n >= 0 && strconv.Itoa(n) == token {
		return n
	}
	return token
}

// schemaReason returns the useful part of a schema error's reason and the
// location the 2020-12 validator writes into it: it leads a wrapper with
// "jsonschema validation failed with '<schema>'", lists the failures as
// "- at '<path>': <reason>", and prefixes a single failure with
// `error at "<path>": at '<path>': `.
func schemaReason(r string) (reason, at string) {
	reason = firstLine(r)
	for _, line := range strings.Split(r, "\n") {
		if i := strings.LastIndex(line, "at '"); i >= 0 {
			reason = strings.TrimSpace(line[i:])
			break
		}
	}
	if rest, ok := strings.CutPrefix(reason, "at '"); ok {
		if loc, msg, ok := strings.Cut(rest, "': "); ok {
			return msg, loc
		}
	}
	return reason, ""
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
