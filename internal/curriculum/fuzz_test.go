package curriculum

import (
	"io/fs"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tutord/tutord/curricula"
)

// FuzzParse checks that Parse never panics and that every file it accepts
// survives Marshal and Parse unchanged.
func FuzzParse(f *testing.F) {
	f.Add([]byte(validDoc))
	f.Add([]byte("country: [India"))
	f.Add([]byte("a: &x 1\nb: *x\n"))
	f.Add([]byte("- 1\n- 2\n"))
	err := fs.WalkDir(curricula.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(curricula.FS(), name)
		f.Add(data)
		return err
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse("fuzz.yaml", data)
		if err != nil {
			return
		}
		file.Guidelines()
		out, err := Marshal(file)
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		back, err := Parse("fuzz.yaml", out)
		if err != nil {
			t.Fatalf("Parse(Marshal(f)): %v\n%s", err, out)
		}
		if diff := cmp.Diff(file, back); diff != "" {
			t.Fatalf("Parse(Marshal(f)) mismatch (-want +got):\n%s\n%s", diff, out)
		}
	})
}
