package tutor

import (
	"encoding/json"
	"testing"
	"time"
)

func TestTimeMarshal(t *testing.T) {
	tests := []struct {
		name string
		in   time.Time
		want string
	}{
		{"whole seconds have no fraction", time.Date(2026, 2, 27, 10, 11, 12, 0, time.UTC), `"2026-02-27T10:11:12"`},
		{"microseconds, six digits", time.Date(2026, 2, 27, 10, 11, 12, 123456000, time.UTC), `"2026-02-27T10:11:12.123456"`},
		{"leading zeros kept", time.Date(2026, 2, 27, 10, 11, 12, 5000, time.UTC), `"2026-02-27T10:11:12.000005"`},
		{"nanoseconds truncated", time.Date(2026, 2, 27, 10, 11, 12, 999, time.UTC), `"2026-02-27T10:11:12"`},
		{"converted to UTC, no offset", time.Date(2026, 2, 27, 15, 41, 12, 0, time.FixedZone("IST", 5*3600+1800)), `"2026-02-27T10:11:12"`},
		{"zero time", time.Time{}, `"0001-01-01T00:00:00"`},
		{"single-digit fields padded", time.Date(7, 1, 2, 3, 4, 5, 60000000, time.UTC), `"0007-01-02T03:04:05.060000"`},
		{"last second of year 9999", time.Date(9999, 12, 31, 23, 59, 59, 999999000, time.UTC), `"9999-12-31T23:59:59.999999"`},
		{"a five-digit year as the layout writes it", time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), `"10000-01-01T00:00:00"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(NewTime(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestParseTime(t *testing.T) {
	want := time.Date(2026, 2, 27, 10, 11, 12, 123456000, time.UTC)
	tests := []struct {
		in      string
		want    time.Time
		wantErr bool
	}{
		{in: "2026-02-27T10:11:12.123456", want: want},
		{in: "2026-02-27 10:11:12.123456", want: want},
		{in: "2026-02-27T10:11:12.123456Z", want: want},
		{in: "2026-02-27T15:41:12.123456+05:30", want: want},
		{in: "2026-02-27T10:11:12.1234569", want: want},
		{in: "2026-02-27T10:11:12", want: want.Truncate(time.Second)},
		{in: "2026-02-27", wantErr: true},
		{in: "yesterday", wantErr: true},
		{in: "", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseTime(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if !tt.wantErr && !got.Time().Equal(tt.want) {
				t.Errorf("got %v, want %v", got.Time(), tt.want)
			}
		})
	}
}

func TestTimeJSONRoundTrip(t *testing.T) {
	for _, in := range []time.Time{t0, t0.Add(123456789), {}} {
		b, err := json.Marshal(NewTime(in))
		if err != nil {
			t.Fatal(err)
		}
		var got Time
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if !got.Equal(NewTime(in)) {
			t.Errorf("%s round-tripped to %v", b, got)
		}
	}
}

func TestTimeUnmarshalRejectsNonStrings(t *testing.T) {
	for _, in := range []string{`12`, `{}`, `"noon"`} {
		var got Time
		if err := json.Unmarshal([]byte(in), &got); err == nil {
			t.Errorf("%s: no error", in)
		}
	}
	got := NewTime(t0)
	if err := json.Unmarshal([]byte(`null`), &got); err != nil || !got.Equal(NewTime(t0)) {
		t.Errorf("null changed the time or failed: %v, %v", got, err)
	}
}

// A Time as a map key goes through MarshalText and UnmarshalText.
func TestTimeAsMapKey(t *testing.T) {
	in := map[Time]int{NewTime(time.Date(2026, 2, 27, 10, 11, 12, 5000, time.UTC)): 1}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out map[Time]int
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	if len(out) != 1 || out[NewTime(time.Date(2026, 2, 27, 10, 11, 12, 5000, time.UTC))] != 1 {
		t.Fatalf("round trip of %s gave %v", b, out)
	}
	if err := json.Unmarshal([]byte(`{"yesterday": 1}`), &out); err == nil {
		t.Fatal("a key that is no time was accepted")
	}
}
