package answers

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/exec"
)

func testTrace(asOf int64, answer int64) *exec.Trace {
	tr := &exec.Trace{Version: exec.TraceVersion, PlanID: "p", PlanDigest: "d", AsOfTT: asOf, Answer: answer, OK: true,
		Plan:  map[string]any{"plan_id": "p", "steps": []any{}, "answer_spec": map[string]any{"kind": "count", "from": "s1"}},
		Steps: []exec.StepRecord{{StepID: "s1", Op: "compute", Status: "ok", DependsOn: []string{}}}}
	tr.TraceDigest, _ = tr.ComputeDigest()
	return tr
}

func saved(t *testing.T) (string, *File) {
	t.Helper()
	dir := t.TempDir()
	f, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"a", "b", "a"} {
		var err error
		if i == 2 {
			_, err = f.AddGeneration(name, testTrace(int64(10*i+10), int64(i)), int64(i))
		} else {
			_, err = f.Save(name, testTrace(int64(10*i+10), int64(i)), int64(i))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir, f
}

func TestGenerationsReadBack(t *testing.T) {
	dir, _ := saved(t)
	f, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Names(); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Fatalf("names %v", got)
	}
	g := f.Generations("a")
	if len(g) != 2 || g[0].Generation != 1 || g[1].Generation != 2 || g[0].AsOfTT != 10 || g[1].AsOfTT != 30 || g[1].Trace.Answer != int64(2) {
		t.Fatalf("generations of a: %+v", g)
	}
	if _, err := f.Save("a", testTrace(40, 3), 3); err == nil || !strings.Contains(err.Error(), "refresh") {
		t.Fatalf("saving a taken name: %v", err)
	}
	if _, err := f.AddGeneration("nope", testTrace(40, 3), 3); err == nil {
		t.Fatal("a generation of an unknown name was accepted")
	}
	for _, bad := range []string{"", "a\nb", strings.Repeat("x", 201)} {
		if _, err := f.Save(bad, testTrace(40, 3), 3); err == nil {
			t.Fatalf("name %q accepted", bad)
		}
	}
}

// Appending never changes a byte already written.
func TestAppendOnly(t *testing.T) {
	dir, f := saved(t)
	before, _ := os.ReadFile(f.Path())
	if _, err := f.AddGeneration("b", testTrace(50, 4), 4); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(dir, FileName))
	if !bytes.HasPrefix(after, before) || len(after) <= len(before) {
		t.Fatal("appending changed earlier bytes")
	}
}

func TestTornTailIsSetAside(t *testing.T) {
	for _, cut := range []int{1, 5, 12, 40} {
		dir, f := saved(t)
		data, _ := os.ReadFile(f.Path())
		// Start a fourth record and stop part way.
		if _, err := f.AddGeneration("b", testTrace(50, 4), 4); err != nil {
			t.Fatal(err)
		}
		full, _ := os.ReadFile(f.Path())
		torn := full[:len(data)+cut]
		os.WriteFile(f.Path(), torn, 0o644)
		g, err := Open(dir)
		if err != nil {
			t.Fatalf("cut %d: %v", cut, err)
		}
		if g.Torn() != int64(cut) || len(g.Generations("b")) != 1 {
			t.Fatalf("cut %d: torn %d, generations of b %d", cut, g.Torn(), len(g.Generations("b")))
		}
		if _, err := g.AddGeneration("b", testTrace(60, 5), 5); err != nil {
			t.Fatal(err)
		}
		aside, _ := os.ReadFile(g.Path() + ".torn")
		if !bytes.Equal(aside, torn[len(data):]) {
			t.Fatalf("cut %d: the torn bytes were not kept aside", cut)
		}
		h, err := Open(dir)
		if err != nil || h.Torn() != 0 || len(h.Generations("b")) != 2 || h.Generations("b")[1].AsOfTT != 60 {
			t.Fatalf("cut %d: after appending: %v", cut, err)
		}
	}
}

func TestDamageIsCorruption(t *testing.T) {
	dir, f := saved(t)
	data, _ := os.ReadFile(f.Path())
	second := bytes.IndexByte(data[len(header):], '\n') + len(header) + 1
	cases := map[string]func([]byte) []byte{
		"header": func(b []byte) []byte { b[0] = 'x'; return b },
		"checksum": func(b []byte) []byte {
			i := bytes.IndexByte(b[len(header):], ' ') + len(header) + 1
			b[i] ^= 1
			return b
		},
		"payload":        func(b []byte) []byte { b[second-5] ^= 1; return b },
		"length":         func(b []byte) []byte { b[len(header)] = '9'; return b },
		"generation gap": func(b []byte) []byte { return append(b[:len(header)], b[second:]...) },
	}
	for name, damage := range cases {
		b := damage(bytes.Clone(data))
		os.WriteFile(f.Path(), b, 0o644)
		_, err := Open(dir)
		var ce *CorruptionError
		if !errors.As(err, &ce) {
			t.Errorf("%s: got %v, want a CorruptionError", name, err)
		}
	}
}

func TestCarry(t *testing.T) {
	from, f := saved(t)
	to := t.TempDir()
	if err := Carry(from, to); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(f.Path())
	b, _ := os.ReadFile(filepath.Join(to, FileName))
	if !bytes.Equal(a, b) {
		t.Fatal("carried file differs")
	}
	if err := Carry(from, to); err == nil {
		t.Fatal("carrying over an existing answers file was allowed")
	}
	if err := Carry(t.TempDir(), t.TempDir()); err != nil {
		t.Fatalf("nothing to carry: %v", err)
	}
}

// FuzzParse: reading any bytes never panics, and what reads without error
// either has only intact records or a torn tail.
func FuzzParse(f *testing.F) {
	dir := f.TempDir()
	file, _ := Open(dir)
	file.Save("a", testTrace(10, 1), 1)
	file.AddGeneration("a", testTrace(20, 2), 2)
	data, _ := os.ReadFile(file.Path())
	f.Add(data)
	f.Add([]byte(header))
	f.Add([]byte(header + "3 00000000 {}\n"))
	erased := filepath.Join(f.TempDir(), FileName)
	if _, err := Rewrite(dir, erased, func([]byte) bool { return true }); err == nil {
		e, _ := os.ReadFile(erased)
		f.Add(e)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		g := &File{path: "fuzz", byName: map[string][]*Saved{}}
		err := g.parse(b)
		var ce *CorruptionError
		if err != nil && !errors.As(err, &ce) {
			t.Fatalf("error is not a CorruptionError: %v", err)
		}
		if err == nil && g.end+g.torn != int64(len(b)) && !(g.end == 0 && g.torn == int64(len(b))) {
			t.Fatalf("end %d + torn %d != %d bytes", g.end, g.torn, len(b))
		}
	})
}
