package httpapi

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"
)

type exactInner struct {
	Name  string `json:"name"`
	Count *int   `json:"count"`
}

type exactEmbedded struct {
	Promoted string `json:"promoted"`
}

type exactTagged struct {
	Hidden string `json:"hidden"`
}

type exactOuter struct {
	exactEmbedded
	Tagged   exactTagged           `json:"tagged"`
	Message  *string               `json:"message"`
	Inner    *exactInner           `json:"inner"`
	List     []exactInner          `json:"list"`
	ByKey    map[string]exactInner `json:"by_key"`
	Raw      json.RawMessage       `json:"raw"`
	Free     any                   `json:"free"`
	When     time.Time             `json:"when"`
	ID       uuid.UUID             `json:"id"`
	Untagged string
	Skipped  string `json:"-"`
}

// TestExactKeys: exactKeys renames exactly the keys that name no field of
// the struct they are decoded into, at any depth, and leaves every other
// byte as it was; free-form values (raw, any, map keys) are not touched.
func TestExactKeys(t *testing.T) {
	typ := reflect.TypeFor[*exactOuter]()
	for _, tt := range []struct{ name, in, want string }{
		{"exact", `{"message":"hi", "inner":{"name":"a","count":1}}`, `{"message":"hi", "inner":{"name":"a","count":1}}`},
		{"miscased", `{"Message":"hi"}`, `{"":"hi"}`},
		{"both, order kept", `{ "MESSAGE" : "x" ,"message":"hi",  "Message":1}`, `{ "" : "x" ,"message":"hi",  "":1}`},
		{"escaped exact name", `{"\u006dessage":"hi","\u004dessage":"x"}`, `{"\u006dessage":"hi","":"x"}`},
		{"kelvin sign folds to k in encoding/json", `{"by_\u212aey":{}}`, `{"":{}}`},
		{"nested", `{"inner":{"Name":"x","name":"a"}}`, `{"inner":{"":"x","name":"a"}}`},
		{"slice and map values", `{"list":[{"NAME":"x"},{"name":"a"}],"by_key":{"Any Key":{"Count":2}}}`,
			`{"list":[{"":"x"},{"name":"a"}],"by_key":{"Any Key":{"":2}}}`},
		{"free-form values untouched", `{"raw":{"Message":1},"free":{"Message":[{"X":1}]}}`, `{"raw":{"Message":1},"free":{"Message":[{"X":1}]}}`},
		{"go name and promoted field", `{"Untagged":"a","untagged":"b","promoted":"c","Promoted":"d"}`, `{"Untagged":"a","":"b","promoted":"c","":"d"}`},
		{"tagged struct not promoted, dash skipped", `{"hidden":"a","tagged":{"hidden":"b"},"Skipped":"c","-":1}`, `{"":"a","tagged":{"hidden":"b"},"":"c","":1}`},
		{"unknown key", `{"extra":{"Message":1}}`, `{"":{"Message":1}}`},
		{"not an object", `[{"Message":1}]`, `[{"Message":1}]`},
		{"invalid JSON", `{"Message":"hi"`, `{"Message":"hi"`},
		{"trailing data", `{"Message":"hi"} {}`, `{"Message":"hi"} {}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(exactKeys([]byte(tt.in), typ)); got != tt.want {
				t.Errorf("exactKeys(%s) = %s; want %s", tt.in, got, tt.want)
			}
		})
	}
}

// TestUnmarshalExact: a miscased key is ignored, wherever it is and
// whichever comes last.
func TestUnmarshalExact(t *testing.T) {
	str := func(s string) *string { return &s }
	one := 1
	for _, tt := range []struct {
		in   string
		want exactOuter
	}{
		{`{"message":"real","MESSAGE":"fake"}`, exactOuter{Message: str("real")}},
		{`{"MESSAGE":"fake","message":"real"}`, exactOuter{Message: str("real")}},
		{`{"Message":"fake"}`, exactOuter{}},
		{`{"inner":{"Count":"not a number","count":1}}`, exactOuter{Inner: &exactInner{Count: &one}}},
		{`{"list":[{"NAME":"fake"}]}`, exactOuter{List: []exactInner{{}}}},
	} {
		var got exactOuter
		if err := unmarshalExact([]byte(tt.in), &got); err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(exactOuter{})); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.in, diff)
		}
	}
	// A value of the wrong type under an exact name is still an error.
	var v exactOuter
	var ute *json.UnmarshalTypeError
	if err := unmarshalExact([]byte(`{"Message":5,"inner":{"count":"x"}}`), &v); !errors.As(err, &ute) || ute.Field != "inner.count" {
		t.Errorf("wrong type under an exact name: %v; want an UnmarshalTypeError at inner.count", err)
	}
}
