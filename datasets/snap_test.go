package datasets

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/tgms-go/tgms/bitemporal"

	"github.com/tgms-go/tgms/internal/testenv"
)

// sharedData is where the pinned SNAP files live in the development setup.
const sharedData = "../../shared/data"

func gz(t testing.TB, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func pin(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

func testSpec(f Format, rel string, content []byte) Spec {
	return Spec{Name: "test", FileName: "test.txt.gz", URL: "https://example.invalid/test.txt.gz", SHA256: pin(content), RelType: rel, Format: f}
}

func writeFile(t testing.TB, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func ratingProps(t testing.TB, r int64) bitemporal.Props {
	p, err := bitemporal.NewProps(map[string]any{"rating": r})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadTable(t *testing.T) {
	ev := func(s, d, rel string, vt bitemporal.Time) bitemporal.Event {
		return bitemporal.Event{Src: s, Dst: d, RelType: rel, VtS: vt}
	}
	trust := func(s, d string, r int64, vt bitemporal.Time) bitemporal.Event {
		e := ev(s, d, "TRUST", vt)
		e.Props = ratingProps(t, r)
		return e
	}
	cases := []struct {
		name    string
		format  Format
		input   string
		want    []bitemporal.Event
		errLine int    // 0: no error
		errText string // substring of the error
	}{
		{name: "basic", format: FormatTemporal, input: "1 2 1082040961\n3 4 1082155839\n",
			want: []bitemporal.Event{ev("n1", "n2", "MSG", 1082040961000000), ev("n3", "n4", "MSG", 1082155839000000)}},
		{name: "no final newline, tabs, CRLF, extra blanks", format: FormatTemporal, input: "1\t2 \t 5\r\n  7  8  0  \r\n9 10 3",
			want: []bitemporal.Event{ev("n1", "n2", "MSG", 5000000), ev("n7", "n8", "MSG", 0), ev("n9", "n10", "MSG", 3000000)}},
		{name: "comments and blank lines", format: FormatTemporal, input: "# header\n% other\n\n   \n  # indented\n1 2 3\n\n",
			want: []bitemporal.Event{ev("n1", "n2", "MSG", 3000000)}},
		{name: "leading zeros normalize", format: FormatTemporal, input: "007 0 1\n",
			want: []bitemporal.Event{ev("n7", "n0", "MSG", 1000000)}},
		{name: "self loop kept", format: FormatTemporal, input: "5 5 1\n",
			want: []bitemporal.Event{ev("n5", "n5", "MSG", 1000000)}},
		{name: "large id", format: FormatTemporal, input: "123456789012 70000 1\n",
			want: []bitemporal.Event{ev("n123456789012", "n70000", "MSG", 1000000)}},
		{name: "fractional seconds", format: FormatTemporal, input: "1 2 1289241911.72836\n1 2 .5\n1 2 3.\n",
			want: []bitemporal.Event{ev("n1", "n2", "MSG", int64(1289241911.72836*1e6)), ev("n1", "n2", "MSG", 500000), ev("n1", "n2", "MSG", 3000000)}},
		{name: "empty input", format: FormatTemporal, input: "", want: []bitemporal.Event{}},
		{name: "only comments", format: FormatTemporal, input: "# a\n# b\n", want: []bitemporal.Event{}},
		{name: "too few fields", format: FormatTemporal, input: "1 2 3\n# c\n1 2\n", errLine: 3, errText: "want 3 fields"},
		{name: "too many fields", format: FormatTemporal, input: "1 2 3 4\n", errLine: 1, errText: "got 4"},
		{name: "non-integer src", format: FormatTemporal, input: "1 2 3\na 2 3\n", errLine: 2, errText: `source id "a"`},
		{name: "non-integer dst", format: FormatTemporal, input: "\n\n1 2.5 3\n", errLine: 3, errText: `target id "2.5"`},
		{name: "negative id", format: FormatTemporal, input: "-1 2 3\n", errLine: 1, errText: "not a non-negative integer"},
		{name: "id overflow", format: FormatTemporal, input: "99999999999999999999 2 3\n", errLine: 1, errText: "too large"},
		{name: "bad time", format: FormatTemporal, input: "1 2 3\n4 5 x7\n", errLine: 2, errText: `time "x7"`},
		{name: "time with exponent", format: FormatTemporal, input: "1 2 1e9\n", errLine: 1, errText: "not a number of seconds"},
		{name: "time two dots", format: FormatTemporal, input: "1 2 1.2.3\n", errLine: 1, errText: "not a number of seconds"},
		{name: "lone dot", format: FormatTemporal, input: "1 2 .\n", errLine: 1, errText: "not a number of seconds"},
		{name: "negative time", format: FormatTemporal, input: "1 2 3\n1 2 3\n1 2 -5\n", errLine: 3, errText: "negative"},
		{name: "time out of range", format: FormatTemporal, input: "1 2 4611686018428\n", errLine: 1, errText: "out of range"},
		{name: "fractional time out of range", format: FormatTemporal, input: "1 2 4611686018428.5\n", errLine: 1, errText: "out of range"},
		{name: "time overflow", format: FormatTemporal, input: "1 2 99999999999999999999\n", errLine: 1, errText: "out of range"},
		{name: "csv in temporal format", format: FormatTemporal, input: "1,2,3\n", errLine: 1, errText: "want 3 fields"},

		{name: "csv basic", format: FormatSignedCSV, input: "6,2,4,1289241912\n6,5,-10,1289241942\n",
			want: []bitemporal.Event{trust("n6", "n2", 4, 1289241912000000), trust("n6", "n5", -10, 1289241942000000)}},
		{name: "csv fractional time and spaces", format: FormatSignedCSV, input: "# c\n 1 , 15 , +1 , 1289243140.5 \r\n",
			want: []bitemporal.Event{trust("n1", "n15", 1, 1289243140500000)}},
		{name: "csv too few fields", format: FormatSignedCSV, input: "1,2,3\n", errLine: 1, errText: "want 4 fields"},
		{name: "csv too many fields", format: FormatSignedCSV, input: "1,2,3,4,\n", errLine: 1, errText: "got 5"},
		{name: "csv empty field", format: FormatSignedCSV, input: "1,,3,4\n", errLine: 1, errText: "target id"},
		{name: "csv bad rating", format: FormatSignedCSV, input: "1,2,3,4\n1,2,x,4\n", errLine: 2, errText: "rating"},
		{name: "csv float rating", format: FormatSignedCSV, input: "1,2,1.5,4\n", errLine: 1, errText: "rating"},
		{name: "csv header", format: FormatSignedCSV, input: "SOURCE,TARGET,RATING,TIME\n", errLine: 1, errText: "source id"},
		{name: "csv negative time", format: FormatSignedCSV, input: "1,2,3,-4\n", errLine: 1, errText: "negative"},
		{name: "csv space separated", format: FormatSignedCSV, input: "1 2 3 4\n", errLine: 1, errText: "want 4 fields"},
	}
	dir := t.TempDir()
	for _, tc := range cases {
		for _, compressed := range []bool{false, true} {
			name := tc.name + "/plain"
			if compressed {
				name = tc.name + "/gzip"
			}
			t.Run(name, func(t *testing.T) {
				rel := "MSG"
				if tc.format == FormatSignedCSV {
					rel = "TRUST"
				}
				spec := testSpec(tc.format, rel, []byte(tc.input))
				data := []byte(tc.input)
				if compressed {
					data = gz(t, data)
				}
				path := writeFile(t, dir, "in.dat", data)
				got, err := Load(spec, path)
				if tc.errLine != 0 {
					if got != nil {
						t.Errorf("got %d events with an error; want none", len(got))
					}
					var pe *ParseError
					if !errors.As(err, &pe) {
						t.Fatalf("err = %v, want a *ParseError", err)
					}
					if pe.Line != tc.errLine || pe.File != path {
						t.Errorf("error at %s:%d, want %s:%d (%v)", pe.File, pe.Line, path, tc.errLine, err)
					}
					if !strings.Contains(err.Error(), tc.errText) {
						t.Errorf("error %q does not mention %q", err, tc.errText)
					}
					if !strings.HasPrefix(err.Error(), path+":") {
						t.Errorf("error %q does not start with the file name", err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(tc.want) || (len(got) > 0 && !slices.Equal(got, tc.want)) {
					t.Errorf("got  %+v\nwant %+v", got, tc.want)
				}
			})
		}
	}
}

func unsafeData(s string) *byte { return unsafe.StringData(s) }

func TestLoadInternsUIDs(t *testing.T) {
	in := []byte("1 2 1\n2 1 2\n1 70000 3\n70000 1 4\n")
	got, err := loadData(testSpec(FormatTemporal, "MSG", in), "x", in)
	if err != nil {
		t.Fatal(err)
	}
	same := func(a, b string) bool {
		return len(a) > 0 && len(a) == len(b) && a == b && unsafeData(a) == unsafeData(b)
	}
	if !same(got[0].Src, got[1].Dst) || !same(got[0].Src, got[2].Src) || !same(got[2].Dst, got[3].Src) {
		t.Error("equal uids are not shared strings")
	}
}

func TestLoadChecksumMismatch(t *testing.T) {
	content := []byte("1 2 3\n")
	spec := testSpec(FormatTemporal, "MSG", content)
	spec.SHA256 = strings.Repeat("ab", 32)
	dir := t.TempDir()
	for _, data := range [][]byte{content, gz(t, content)} {
		path := writeFile(t, dir, "f.gz", data)
		evs, err := Load(spec, path)
		if evs != nil {
			t.Error("events returned despite a checksum mismatch")
		}
		var ce *ChecksumError
		if !errors.As(err, &ce) {
			t.Fatalf("err = %v, want *ChecksumError", err)
		}
		msg := err.Error()
		for _, want := range []string{spec.SHA256, pin(content), path, "Download", spec.URL, "delete"} {
			if !strings.Contains(msg, want) {
				t.Errorf("checksum error %q does not mention %q", msg, want)
			}
		}
	}
	// The pin is checked before parsing: a malformed file with a wrong pin
	// reports the pin.
	bad := []byte("garbage\n")
	_, err := Load(spec, writeFile(t, dir, "bad", bad))
	var ce *ChecksumError
	if !errors.As(err, &ce) {
		t.Errorf("err = %v, want *ChecksumError", err)
	}
	// Upper-case pins are accepted.
	spec.SHA256 = strings.ToUpper(pin(content))
	if _, err := Load(spec, writeFile(t, dir, "ok", content)); err != nil {
		t.Error(err)
	}
	// No pin: no verification.
	spec.SHA256 = ""
	if evs, err := Load(spec, writeFile(t, dir, "ok", content)); err != nil || len(evs) != 1 {
		t.Errorf("unpinned load: %v, %d events", err, len(evs))
	}
}

func TestLoadDetectsGzipByMagic(t *testing.T) {
	content := []byte("1 2 3\n")
	spec := testSpec(FormatTemporal, "MSG", content)
	dir := t.TempDir()
	for name, data := range map[string][]byte{"plain.gz": content, "packed.txt": gz(t, content)} {
		evs, err := Load(spec, writeFile(t, dir, name, data))
		if err != nil || len(evs) != 1 {
			t.Errorf("%s: %v, %d events", name, err, len(evs))
		}
	}
	// Gzip magic followed by garbage is a gzip error, not a parse error.
	_, err := Load(spec, writeFile(t, dir, "broken.gz", []byte{0x1f, 0x8b, 1, 2, 3}))
	if err == nil || !strings.Contains(err.Error(), "gzip") {
		t.Errorf("err = %v, want a gzip error", err)
	}
	// Truncated gzip.
	z := gz(t, bytes.Repeat(content, 1000))
	_, err = Load(spec, writeFile(t, dir, "trunc.gz", z[:len(z)/2]))
	if err == nil || !strings.Contains(err.Error(), "gzip") {
		t.Errorf("err = %v, want a gzip error", err)
	}
	// Multi-member gzip is read whole.
	two := append(gz(t, content), gz(t, content)...)
	spec2 := testSpec(FormatTemporal, "MSG", append(slices.Clone(content), content...))
	if evs, err := Load(spec2, writeFile(t, dir, "two.gz", two)); err != nil || len(evs) != 2 {
		t.Errorf("multi-member: %v, %d events", err, len(evs))
	}
	if _, err := Load(spec, filepath.Join(dir, "missing")); err == nil {
		t.Error("missing file: no error")
	}
}

func TestLoadBadSpec(t *testing.T) {
	in := []byte("1 2 3\n")
	if _, err := loadData(Spec{Name: "x", RelType: "MSG"}, "x", in); err == nil {
		t.Error("spec without format: no error")
	}
	if _, err := loadData(Spec{Name: "x", Format: FormatTemporal}, "x", in); err == nil {
		t.Error("spec without rel_type: no error")
	}
}

func TestRegistry(t *testing.T) {
	names := Names()
	if want := []string{"bitcoinotc", "collegemsg", "email-eu"}; !slices.Equal(names, want) {
		t.Fatalf("Names() = %v, want %v", names, want)
	}
	for _, n := range names {
		s, err := Lookup(n)
		if err != nil {
			t.Fatal(err)
		}
		if s.Name != n || s.FileName == "" || !strings.HasPrefix(s.URL, "https://snap.stanford.edu/data/") ||
			len(s.SHA256) != 64 || s.RelType == "" || s.Format == 0 || s.Events == 0 || s.Nodes == 0 {
			t.Errorf("incomplete spec %+v", s)
		}
		if !strings.HasSuffix(s.URL, "/"+s.FileName) {
			t.Errorf("%s: URL %s does not end in the file name", n, s.URL)
		}
	}
	_, err := Lookup("nope")
	if err == nil || !strings.Contains(err.Error(), "collegemsg, email-eu") || !strings.Contains(err.Error(), "bitcoinotc") {
		t.Errorf("Lookup(nope) error = %v, want the known names", err)
	}
	if FormatTemporal.String() == "" || FormatSignedCSV.String() == "" || Format(9).String() != "format(9)" {
		t.Error("Format.String")
	}
}

func TestLocate(t *testing.T) {
	spec, _ := Lookup("collegemsg")
	a, b := t.TempDir(), t.TempDir()
	if _, ok := Locate(spec, a, b); ok {
		t.Fatal("found a file in empty dirs")
	}
	if err := os.Mkdir(filepath.Join(a, spec.FileName), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, ok := Locate(spec, a); ok {
		t.Error("a directory was taken for the file")
	}
	plain := writeFile(t, b, "CollegeMsg.txt", []byte("1 2 3\n"))
	if p, ok := Locate(spec, a, b); !ok || p != plain {
		t.Errorf("Locate = %q, %v; want the decompressed copy %q", p, ok, plain)
	}
	packed := writeFile(t, b, spec.FileName, gz(t, []byte("1 2 3\n")))
	if p, ok := Locate(spec, a, b); !ok || p != packed {
		t.Errorf("Locate = %q, %v; want %q", p, ok, packed)
	}
	t.Chdir(b)
	if p, ok := Locate(spec); !ok || p != spec.FileName {
		t.Errorf("Locate() in cwd = %q, %v", p, ok)
	}
}

// realFile returns the path of a pinned SNAP file or skips the test.
func realFile(t testing.TB, name string) (Spec, string) {
	t.Helper()
	spec, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	p, ok := Locate(spec, sharedData)
	if !ok {
		testenv.Missing(t, "%s not found in %s: the real-data tests need the pinned SNAP files there (see shared/data/README.md)", spec.FileName, sharedData)
	}
	return spec, p
}

func distinctUIDs(evs []bitemporal.Event) int {
	seen := map[string]bool{}
	for _, e := range evs {
		seen[e.Src], seen[e.Dst] = true, true
	}
	return len(seen)
}

func TestRealCollegeMsg(t *testing.T) {
	spec, path := realFile(t, "collegemsg")
	start := time.Now()
	evs, err := Load(spec, path)
	el := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("loaded %d events in %v", len(evs), el)
	if len(evs) != 59835 {
		t.Fatalf("%d events, want 59835", len(evs))
	}
	if n := distinctUIDs(evs); n != 1899 {
		t.Errorf("%d uids, want 1899", n)
	}
	first := bitemporal.Event{Src: "n1", Dst: "n2", RelType: "MSG", VtS: 1082040961000000}
	if evs[0] != first {
		t.Errorf("first event %+v, want %+v", evs[0], first)
	}
	if last := evs[len(evs)-1].VtS; last != 1098777142000000 {
		t.Errorf("last vt_s %d, want 1098777142000000", last)
	}
	for i, e := range evs {
		if e.VtE != 0 || e.Disc != "" || e.Props != "" || e.RelType != "MSG" {
			t.Fatalf("event %d: %+v", i, e)
		}
		if i > 0 && e.VtS < evs[i-1].VtS {
			t.Fatalf("event %d out of time order", i)
		}
	}
	if op := bitemporal.Ingest(evs, "Node"); op.Validate(0) != nil {
		err := op.Validate(0)
		t.Error(err)
	}
}

func TestRealEmailEU(t *testing.T) {
	spec, path := realFile(t, "email-eu")
	start := time.Now()
	evs, err := Load(spec, path)
	el := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("loaded %d events in %v", len(evs), el)
	if len(evs) != 332334 {
		t.Fatalf("%d events, want 332334", len(evs))
	}
	if n := distinctUIDs(evs); n != 986 {
		t.Errorf("%d uids, want 986", n)
	}
	if evs[0].VtS != 0 || evs[0].Src != "n582" || evs[0].Dst != "n364" || evs[0].RelType != "EMAIL" {
		t.Errorf("first event %+v", evs[0])
	}
	if last := evs[len(evs)-1]; last.VtS != 45405138000000 {
		t.Errorf("last event %+v", last)
	}
	if op := bitemporal.Ingest(evs, "Node"); op.Validate(0) != nil {
		err := op.Validate(0)
		t.Error(err)
	}
}

func TestRealBitcoinOTC(t *testing.T) {
	spec, path := realFile(t, "bitcoinotc")
	evs, err := Load(spec, path)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 35592 {
		t.Fatalf("%d events, want 35592", len(evs))
	}
	if n := distinctUIDs(evs); n != 5881 {
		t.Errorf("%d uids, want 5881", n)
	}
	want0 := bitemporal.Event{Src: "n6", Dst: "n2", RelType: "TRUST", VtS: 1289241912000000, Props: ratingProps(t, 4)}
	if evs[0] != want0 {
		t.Errorf("first event %+v, want %+v", evs[0], want0)
	}
	seen := map[int64]int{}
	for i, e := range evs {
		r, ok := e.Props.Map()["rating"].(int64)
		if !ok || r < -10 || r > 10 || r == 0 {
			t.Fatalf("event %d: props %s", i, e.Props)
		}
		seen[r]++
	}
	if len(seen) != 20 {
		t.Errorf("%d distinct ratings, want 20 (-10..10 without 0)", len(seen))
	}
	if op := bitemporal.Ingest(evs, "Node"); op.Validate(0) != nil {
		err := op.Validate(0)
		t.Error(err)
	}
}

func TestRealFilesDigest(t *testing.T) {
	for _, n := range Names() {
		spec, path := realFile(t, n)
		d, err := Digest(path)
		if err != nil || d != spec.SHA256 {
			t.Errorf("%s: Digest = %s, %v; want %s", n, d, err, spec.SHA256)
		}
	}
}

func benchmarkLoad(b *testing.B, name string) {
	spec, path := realFile(b, name)
	var n int
	b.ReportAllocs()
	for b.Loop() {
		evs, err := Load(spec, path)
		if err != nil {
			b.Fatal(err)
		}
		n = len(evs)
	}
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(n)/sec, "events/s")
	b.ReportMetric(sec*1000, "ms/load")
}

func BenchmarkLoadEmailEU(b *testing.B)    { benchmarkLoad(b, "email-eu") }
func BenchmarkLoadCollegeMsg(b *testing.B) { benchmarkLoad(b, "collegemsg") }
func BenchmarkLoadBitcoinOTC(b *testing.B) { benchmarkLoad(b, "bitcoinotc") }

// TestLoadGzipBlocks checks the pipelined gzip path on input spanning many
// decompression blocks, against the plain path, including line numbers of
// errors far into the file and lines split across blocks.
func TestLoadGzipBlocks(t *testing.T) {
	var b bytes.Buffer
	for i := range 100_000 {
		if i%1000 == 7 {
			b.WriteString("# comment line\n")
		}
		// Vary the line length so block boundaries cut lines everywhere.
		b.WriteString(strings.Repeat(" ", i%5))
		b.WriteString(strconv.Itoa(i % 977))
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa((i * 7) % 100_003))
		b.WriteByte('\t')
		b.WriteString(strconv.Itoa(1_000_000 + i))
		b.WriteByte('\n')
	}
	b.WriteString("1 2 3") // no final newline
	content := b.Bytes()
	if len(content) < 4*gzipBlock {
		t.Fatalf("test input only %d bytes", len(content))
	}
	spec := testSpec(FormatTemporal, "MSG", content)
	plain, err := loadData(spec, "plain", content)
	if err != nil {
		t.Fatal(err)
	}
	packed, err := loadData(spec, "packed", gz(t, content))
	if err != nil {
		t.Fatal(err)
	}
	if len(plain) != 100_001 || !slices.Equal(plain, packed) {
		t.Fatalf("plain %d events, gzip %d events, equal %v", len(plain), len(packed), slices.Equal(plain, packed))
	}
	if distinctUIDs(packed) != distinctUIDs(plain) {
		t.Error("uid sets differ")
	}

	// An error deep in the file: line numbers count comment lines too.
	lines := bytes.SplitAfter(content, []byte("\n"))
	for _, at := range []int{0, 12345, 70_000, len(lines) - 1} {
		bad := slices.Clone(lines)
		bad[at] = []byte("1 2 x\n")
		in := bytes.Join(bad, nil)
		spec := testSpec(FormatTemporal, "MSG", in)
		for _, data := range [][]byte{in, gz(t, in)} {
			evs, err := loadData(spec, "f", data)
			var pe *ParseError
			if evs != nil || !errors.As(err, &pe) || pe.Line != at+1 {
				t.Errorf("bad line %d: %d events, err %v", at+1, len(evs), err)
			}
		}
		// With a wrong pin the checksum error wins, on both paths.
		spec.SHA256 = pin(content)
		for _, data := range [][]byte{in, gz(t, in)} {
			var ce *ChecksumError
			if _, err := loadData(spec, "f", data); !errors.As(err, &ce) {
				t.Errorf("bad line %d, wrong pin: err %v, want *ChecksumError", at+1, err)
			}
		}
	}
}
