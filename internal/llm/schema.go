package llm

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/google/jsonschema-go/jsonschema"
)

// Enum is implemented by string types whose values form a closed set. A
// field of such a type gets an "enum" in the schema, so the provider
// constrains the model to those values and validation rejects any other.
//
//	type Intent string
//	func (Intent) EnumValues() []string { return []string{"answer", "question"} }
type Enum interface {
	EnumValues() []string
}

// Schema is a strict JSON Schema for a model's output or a tool's
// arguments, with what validation needs. It is immutable and safe for
// concurrent use.
type Schema struct {
	name string
	// strict is the schema as OpenAI's strict mode accepts it.
	strict json.RawMessage
	// gemini is the same schema in the JSON Schema subset Gemini's
	// responseJsonSchema and parametersJsonSchema accept: enum values must be
	// strings or numbers, so a nullable enum becomes anyOf with null.
	gemini json.RawMessage
	// anthropic is the same schema in the subset Anthropic's strict tools and
	// output format accept: nullable values as anyOf, no numeric or length
	// bounds (moved into the description; validation still enforces them).
	anthropic json.RawMessage
	resolved  *jsonschema.Resolved

	// The top-level members of strict and anthropic, split once because
	// the SDKs take schemas as maps. The values are json.RawMessage, so the
	// order of nested properties survives. They are shared read-only.
	strictMembers    map[string]any
	anthropicMembers map[string]any
	required         []string
}

// Name returns the schema's name, which providers show the model.
func (s *Schema) Name() string { return s.name }

// JSON returns the strict schema document.
func (s *Schema) JSON() json.RawMessage { return slices.Clone(s.strict) }

// Validate reports whether data is a JSON document valid against s.
func (s *Schema) Validate(data []byte) error {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("not valid JSON: %w", err)
	}
	return s.validateValue(v)
}

func (s *Schema) validateValue(v any) error {
	err := s.resolved.Validate(v)
	if err == nil {
		return nil
	}
	// jsonschema-go prefixes the message with "validating <path>: " for
	// every level down to the failing value; the deepest path and the
	// message are what a model needs to fix its reply.
	msg, path := err.Error(), "root"
	for strings.HasPrefix(msg, "validating ") {
		p, rest, ok := strings.Cut(strings.TrimPrefix(msg, "validating "), ": ")
		if !ok {
			break
		}
		path, msg = p, rest
	}
	return fmt.Errorf("does not match the schema at %s: %s", path, msg)
}

// schemaCache memoises SchemaFor. Like encoding/json's type cache it only
// holds values derived from Go types, which never change while the program
// runs, so sharing it is safe.
var schemaCache sync.Map // reflect.Type → schemaEntry

type schemaEntry struct {
	schema *Schema
	err    error
}

// SchemaFor returns the strict schema of T, which must be a struct. Every
// property is required and no other is allowed; pointer fields and fields
// tagged omitempty or omitzero become nullable; slices are arrays that may
// not be null (a model sends [] for "none"); fields of a type implementing
// Enum list its values. The jsonschema struct tag sets a property's
// description. Maps and interface fields cannot be described strictly and
// are an error. The result is computed once per type.
func SchemaFor[T any]() (*Schema, error) {
	t := reflect.TypeFor[T]()
	if e, ok := schemaCache.Load(t); ok {
		e := e.(schemaEntry)
		return e.schema, e.err
	}
	s, err := schemaForType(t)
	e, _ := schemaCache.LoadOrStore(t, schemaEntry{s, err})
	return e.(schemaEntry).schema, e.(schemaEntry).err
}

func schemaForType(t reflect.Type) (*Schema, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("llm: schema for %v: structured output must be a struct, not %v", t, t.Kind())
	}
	enums := map[reflect.Type]*jsonschema.Schema{}
	if err := collectEnums(t, enums, map[reflect.Type]bool{}); err != nil {
		return nil, fmt.Errorf("llm: schema for %v: %w", t, err)
	}
	js, err := jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: enums})
	if err != nil {
		return nil, fmt.Errorf("llm: schema for %v: %w", t, err)
	}
	return NewSchema(schemaName(t), js)
}

// NewSchema makes js strict (see SchemaFor) and prepares it for validation.
// It is for schemas that do not come from a Go type; js is modified. The name
// must match ^[a-zA-Z0-9_-]{1,64}$.
func NewSchema(name string, js *jsonschema.Schema) (*Schema, error) {
	if !validName(name) {
		return nil, fmt.Errorf("llm: schema name %q must match ^[a-zA-Z0-9_-]{1,64}$", name)
	}
	if js == nil || js.Type != "object" {
		return nil, fmt.Errorf("llm: schema %s: the root must be an object", name)
	}
	if err := strictify(js, "$"); err != nil {
		return nil, fmt.Errorf("llm: schema %s: %w", name, err)
	}
	anth, gem := js.CloneSchemas(), js.CloneSchemas()
	strict, err := json.Marshal(js)
	if err != nil {
		return nil, fmt.Errorf("llm: schema %s: %w", name, err)
	}
	resolved, err := js.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("llm: schema %s: %w", name, err)
	}
	anthropicize(anth)
	anthJSON, err := json.Marshal(anth)
	if err != nil {
		return nil, fmt.Errorf("llm: schema %s: %w", name, err)
	}
	geminize(gem)
	gemJSON, err := json.Marshal(gem)
	if err != nil {
		return nil, fmt.Errorf("llm: schema %s: %w", name, err)
	}
	return &Schema{
		name:             name,
		strict:           strict,
		gemini:           gemJSON,
		anthropic:        anthJSON,
		resolved:         resolved,
		strictMembers:    rawObject(strict),
		anthropicMembers: rawObject(anthJSON),
		required:         js.Required,
	}, nil
}

// rawObject splits a JSON object into its members, kept as raw JSON. The
// argument comes from json.Marshal of an object schema, so it cannot fail.
func rawObject(doc json.RawMessage) map[string]any {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(doc, &members); err != nil {
		return nil
	}
	out := make(map[string]any, len(members))
	for k, v := range members {
		out[k] = v
	}
	return out
}

// collectEnums finds the Enum types reachable from t and records their
// schemas, for jsonschema.ForOptions.TypeSchemas.
func collectEnums(t reflect.Type, out map[reflect.Type]*jsonschema.Schema, seen map[reflect.Type]bool) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if seen[t] {
		return nil
	}
	seen[t] = true
	if values, ok := enumValues(t); ok {
		if t.Kind() != reflect.String {
			return fmt.Errorf("enum type %v must be a string type", t)
		}
		if len(values) == 0 {
			return fmt.Errorf("enum type %v has no values", t)
		}
		e := make([]any, len(values))
		for i, v := range values {
			e[i] = v
		}
		out[t] = &jsonschema.Schema{Type: "string", Enum: e}
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		for _, f := range reflect.VisibleFields(t) {
			if f.IsExported() && !f.Anonymous {
				if err := collectEnums(f.Type, out, seen); err != nil {
					return err
				}
			}
		}
	case reflect.Slice, reflect.Array, reflect.Map:
		return collectEnums(t.Elem(), out, seen)
	}
	return nil
}

func enumValues(t reflect.Type) ([]string, bool) {
	enum := reflect.TypeFor[Enum]()
	switch {
	case t.Implements(enum):
		return reflect.Zero(t).Interface().(Enum).EnumValues(), true
	case reflect.PointerTo(t).Implements(enum):
		return reflect.New(t).Interface().(Enum).EnumValues(), true
	}
	return nil, false
}

// strictify rewrites s in place into the form strict structured output needs:
// every object closed and listing all its properties as required, optional
// properties nullable instead, arrays not nullable.
func strictify(s *jsonschema.Schema, path string) error {
	if s.Ref != "" || len(s.AnyOf) > 0 || len(s.OneOf) > 0 || len(s.AllOf) > 0 || s.Not != nil {
		return fmt.Errorf("%s: references and combinators are not supported in strict schemas", path)
	}
	types := schemaTypes(s)
	if len(types) == 0 {
		return fmt.Errorf("%s: a value of any type (an interface field?) cannot be described in a strict schema", path)
	}
	if slices.Contains(types, "array") {
		// jsonschema-go makes every slice nullable because Go marshals a nil
		// slice as null. Models should send [] instead, and decoding [] or
		// null gives the same Go value.
		setTypes(s, slices.DeleteFunc(types, func(t string) bool { return t == "null" }))
		if s.Items == nil {
			return fmt.Errorf("%s: array without items", path)
		}
		if err := strictify(s.Items, path+"[]"); err != nil {
			return err
		}
	}
	if slices.Contains(types, "object") {
		if s.AdditionalProperties != nil && !isFalseSchema(s.AdditionalProperties) {
			return fmt.Errorf("%s: maps cannot be described in a strict schema; use a slice of key-value structs", path)
		}
		if len(s.PatternProperties) > 0 {
			return fmt.Errorf("%s: patternProperties are not supported in strict schemas", path)
		}
		required := make(map[string]bool, len(s.Required))
		for _, r := range s.Required {
			required[r] = true
		}
		order := propertyOrder(s)
		for _, name := range order {
			p := s.Properties[name]
			if err := strictify(p, path+"."+name); err != nil {
				return err
			}
			if !required[name] {
				makeNullable(p)
			}
		}
		if s.Properties == nil {
			s.Properties = map[string]*jsonschema.Schema{}
		}
		s.Required = order
		s.PropertyOrder = order
		s.AdditionalProperties = &jsonschema.Schema{Not: &jsonschema.Schema{}}
	}
	if slices.Contains(schemaTypes(s), "null") && len(s.Enum) > 0 && !slices.Contains(s.Enum, nil) {
		s.Enum = append(s.Enum, nil)
	}
	return nil
}

// propertyOrder returns the properties in declaration order, then any the
// order does not list, sorted, so the output is deterministic.
func propertyOrder(s *jsonschema.Schema) []string {
	order := make([]string, 0, len(s.Properties))
	listed := make(map[string]bool, len(s.PropertyOrder))
	for _, name := range s.PropertyOrder {
		if _, ok := s.Properties[name]; ok && !listed[name] {
			order = append(order, name)
			listed[name] = true
		}
	}
	var rest []string
	for name := range s.Properties {
		if !listed[name] {
			rest = append(rest, name)
		}
	}
	sort.Strings(rest)
	return append(order, rest...)
}

func schemaTypes(s *jsonschema.Schema) []string {
	if s.Type != "" {
		return []string{s.Type}
	}
	return slices.Clone(s.Types)
}

func setTypes(s *jsonschema.Schema, types []string) {
	if len(types) == 1 {
		s.Type, s.Types = types[0], nil
		return
	}
	s.Type, s.Types = "", types
}

func makeNullable(s *jsonschema.Schema) {
	types := schemaTypes(s)
	if slices.Contains(types, "null") {
		return
	}
	// jsonschema-go puts "null" first; do the same so all nullable values
	// look alike.
	setTypes(s, append([]string{"null"}, types...))
	if len(s.Enum) > 0 {
		s.Enum = append(s.Enum, nil)
	}
}

func isFalseSchema(s *jsonschema.Schema) bool {
	b, err := json.Marshal(s)
	return err == nil && string(b) == "false"
}

// anthropicize rewrites a strict schema into what Anthropic's strict tools
// and JSON output format accept (the keyword list of the Anthropic SDK's
// schema transformer): nullable types become anyOf with null, and numeric
// and length bounds move into the description.
func anthropicize(s *jsonschema.Schema) {
	var bounds []string
	note := func(name string, v any) { bounds = append(bounds, fmt.Sprintf("%s: %v", name, v)) }
	if s.Minimum != nil {
		note("minimum", *s.Minimum)
	}
	if s.Maximum != nil {
		note("maximum", *s.Maximum)
	}
	if s.ExclusiveMinimum != nil {
		note("exclusiveMinimum", *s.ExclusiveMinimum)
	}
	if s.ExclusiveMaximum != nil {
		note("exclusiveMaximum", *s.ExclusiveMaximum)
	}
	if s.MultipleOf != nil {
		note("multipleOf", *s.MultipleOf)
	}
	if s.MinLength != nil {
		note("minLength", *s.MinLength)
	}
	if s.MaxLength != nil {
		note("maxLength", *s.MaxLength)
	}
	if s.MaxItems != nil {
		note("maxItems", *s.MaxItems)
	}
	if s.MinItems != nil && *s.MinItems > 1 {
		note("minItems", *s.MinItems)
		s.MinItems = nil
	}
	s.Minimum, s.Maximum, s.ExclusiveMinimum, s.ExclusiveMaximum, s.MultipleOf = nil, nil, nil, nil, nil
	s.MinLength, s.MaxLength, s.MaxItems = nil, nil, nil
	if len(bounds) > 0 {
		s.Description = strings.TrimSpace(s.Description + " {" + strings.Join(bounds, ", ") + "}")
	}

	for _, p := range s.Properties {
		anthropicize(p)
	}
	if s.Items != nil {
		anthropicize(s.Items)
	}

	nullAsAnyOf(s)
}

// geminize rewrites a strict schema into what Gemini's responseJsonSchema
// and parametersJsonSchema accept. Their documented subset takes "enum" for
// strings and numbers only, and Gemini answers a null member with 400
// "enum[n]: cannot be empty", so a nullable enum becomes anyOf of the enum
// and null, the shape Pydantic gives Optional[Literal[...]]. Other nullable
// values keep their type arrays, which responseJsonSchema accepts (unlike
// the OpenAPI subset of responseSchema, which the adapter does not use).
func geminize(s *jsonschema.Schema) {
	for _, p := range s.Properties {
		geminize(p)
	}
	if s.Items != nil {
		geminize(s.Items)
	}
	if len(s.Enum) > 0 {
		nullAsAnyOf(s)
	}
}

// nullAsAnyOf rewrites a nullable schema, {"type": ["null", T], ...}, as
// {"anyOf": [{"type": T, ...}, {"type": "null"}]} with null dropped from its
// enum; the description stays outside. Other schemas are left alone.
func nullAsAnyOf(s *jsonschema.Schema) {
	types := schemaTypes(s)
	if len(types) < 2 || !slices.Contains(types, "null") {
		return
	}
	inner := *s
	inner.Description = ""
	setTypes(&inner, slices.DeleteFunc(slices.Clone(types), func(t string) bool { return t == "null" }))
	if len(inner.Enum) > 0 {
		inner.Enum = slices.DeleteFunc(slices.Clone(inner.Enum), func(v any) bool { return v == nil })
	}
	*s = jsonschema.Schema{
		Description: s.Description,
		AnyOf:       []*jsonschema.Schema{&inner, {Type: "null"}},
	}
}

// schemaName derives a provider-safe name from a Go type name:
// TutorTurnOutput → tutor_turn_output, HTTPStatus → http_status.
func schemaName(t reflect.Type) string {
	name, _, _ := strings.Cut(t.Name(), "[") // drop a generic instantiation
	rs := []rune(name)
	var b strings.Builder
	for i, r := range rs {
		if r >= unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_') {
			continue
		}
		if unicode.IsUpper(r) {
			// A word starts at an upper-case letter after a lower-case one,
			// or at the last capital of an acronym followed by lower case.
			prevLower := i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]))
			nextLower := i > 0 && i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if b.Len() > 0 && (prevLower || nextLower) {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	s := b.String()
	if s == "" {
		return "output"
	}
	if len(s) > 64 {
		s = s[:64]
	}
	return s
}
