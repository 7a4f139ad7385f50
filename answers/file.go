package answers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/eventlog"
	"github.com/tgms-go/tgms/exec"
)

// FileName is the saved-answers file inside a store directory.
const FileName = "answers.log"

const header = "tgms-answers 1\n"

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// CorruptionError reports a damaged answers file.
type CorruptionError struct {
	Path   string
	Offset int64
	Reason string
}

func (e *CorruptionError) Error() string {
	return fmt.Sprintf("answers file %s is damaged at byte %d: %s; restore it from a backup (records before that offset are intact)", e.Path, e.Offset, e.Reason)
}

// Saved is one generation of a saved answer.
type Saved struct {
	Name        string
	Generation  int
	SavedAt     bt.Time // wall clock, µs
	AsOfTT      bt.Time // the belief time the answer was computed at
	TraceDigest string
	Trace       *exec.Trace // nil when Erased
	Offset      int64       // where the record starts in the file
	Erased      string      // an erased record: hex SHA-256 of the record it replaced (see erase.go)
}

// File is the saved answers of one store, as read from disk.
type File struct {
	path   string
	recs   []*Saved
	byName map[string][]*Saved
	end    int64 // end of the last intact record
	torn   int64 // bytes of a torn final record after end (0: none)
}

// Open reads the saved answers of the store in dir (none when the file does
// not exist yet).
func Open(dir string) (*File, error) {
	f := &File{path: filepath.Join(dir, FileName), byName: map[string][]*Saved{}}
	data, err := readNoFollow(f.path)
	if errors.Is(err, os.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return nil, err
	}
	if err := f.parse(data); err != nil {
		return nil, err
	}
	return f, nil
}

// readNoFollow reads a whole file, refusing a symbolic link (a planted
// link must not make the store read or write outside its directory).
func readNoFollow(path string) ([]byte, error) {
	fh, err := os.OpenFile(path, os.O_RDONLY|eventlog.NoFollow, 0)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		return nil, linkError(path, err)
	}
	defer fh.Close()
	return io.ReadAll(fh)
}

// linkError names a symbolic link as such.
func linkError(path string, err error) error {
	if st, lerr := os.Lstat(path); lerr == nil && st.Mode()&os.ModeSymlink != 0 {
		return fmt.Errorf("answers: %s is a symbolic link; a store's files must be regular files, and links are never followed (replace it with the file itself)", path)
	}
	return fmt.Errorf("answers: %w", err)
}

// Path is the file's path.
func (f *File) Path() string { return f.path }

// Torn reports the bytes of a torn final record that reading ignored.
func (f *File) Torn() int64 { return f.torn }

func (f *File) parse(data []byte) error {
	if len(data) < len(header) {
		if bytes.HasPrefix([]byte(header), data) {
			f.torn = int64(len(data)) // a crash while creating the file
			return nil
		}
		return &CorruptionError{f.path, 0, "not an answers file (bad header)"}
	}
	if string(data[:len(header)]) != header {
		return &CorruptionError{f.path, 0, "not an answers file (bad header)"}
	}
	off := int64(len(header))
	f.end = off
	for off < int64(len(data)) {
		rest := data[off:]
		nl := bytes.IndexByte(rest, '\n')
		rec, err := f.record(rest, nl, off)
		if errors.Is(err, errTorn) {
			f.torn = int64(len(rest))
			return nil
		}
		if err != nil {
			return err
		}
		if err := f.add(rec); err != nil {
			return &CorruptionError{f.path, off, err.Error()}
		}
		off += int64(nl) + 1
		f.end = off
	}
	return nil
}

var errTorn = errors.New("torn record")

// record decodes the record at the start of rest (nl: index of its
// newline, -1 if none).
func (f *File) record(rest []byte, nl int, off int64) (*Saved, error) {
	bad := func(format string, args ...any) error {
		return &CorruptionError{f.path, off, fmt.Sprintf(format, args...)}
	}
	line := rest
	if nl >= 0 {
		line = rest[:nl]
	}
	sp1 := bytes.IndexByte(line, ' ')
	if sp1 <= 0 {
		if nl < 0 {
			return nil, errTorn
		}
		return nil, bad("record has no length")
	}
	n, err := strconv.Atoi(string(line[:sp1]))
	if err != nil || n <= 0 || strconv.Itoa(n) != string(line[:sp1]) {
		return nil, bad("record length %q is not a positive decimal", line[:sp1])
	}
	if len(line) < sp1+1+8+1 || line[sp1+9] != ' ' {
		if nl < 0 {
			return nil, errTorn
		}
		return nil, bad("record has no checksum")
	}
	payload := line[sp1+10:]
	if len(payload) < n && nl < 0 {
		return nil, errTorn
	}
	if len(payload) != n {
		return nil, bad("record length says %d bytes, the line holds %d", n, len(payload))
	}
	if nl < 0 {
		return nil, errTorn // complete payload, newline not written yet
	}
	want := fmt.Sprintf("%08x", crc32.Checksum(payload, castagnoli))
	if string(line[sp1+1:sp1+9]) != want {
		return nil, bad("checksum %s, the payload's is %s", line[sp1+1:sp1+9], want)
	}
	s, err := decode(payload)
	if err != nil {
		return nil, bad("%v", err)
	}
	s.Offset = off
	return s, nil
}

type wire struct {
	Name        string          `json:"name"`
	Generation  int             `json:"generation"`
	SavedAt     bt.Time         `json:"saved_at"`
	AsOfTT      bt.Time         `json:"as_of_tt"`
	TraceDigest string          `json:"trace_digest"`
	Trace       json.RawMessage `json:"trace"`
	Erased      string          `json:"erased"`
}

func decode(payload []byte) (*Saved, error) {
	var w wire
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return nil, fmt.Errorf("record is not a saved answer: %v", err)
	}
	if w.Erased != "" {
		return decodeErased(&w)
	}
	tr, err := exec.ReadTrace(w.Trace)
	if err != nil {
		return nil, err
	}
	if w.Name == "" {
		return nil, fmt.Errorf("record has no name")
	}
	if tr.TraceDigest != w.TraceDigest || tr.AsOfTT != w.AsOfTT {
		return nil, fmt.Errorf("record's trace_digest or as_of_tt does not match its trace")
	}
	return &Saved{Name: w.Name, Generation: w.Generation, SavedAt: w.SavedAt, AsOfTT: w.AsOfTT, TraceDigest: w.TraceDigest, Trace: tr}, nil
}

func (f *File) add(s *Saved) error {
	if want := len(f.byName[s.Name]) + 1; s.Generation != want {
		return fmt.Errorf("answer %q generation %d follows generation %d", s.Name, s.Generation, want-1)
	}
	f.recs = append(f.recs, s)
	f.byName[s.Name] = append(f.byName[s.Name], s)
	return nil
}

// Names lists the saved names, sorted.
func (f *File) Names() []string {
	out := make([]string, 0, len(f.byName))
	for n := range f.byName {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// Generations lists a name's generations, oldest first.
func (f *File) Generations(name string) []*Saved { return f.byName[name] }

// Latest is a name's newest generation.
func (f *File) Latest(name string) (*Saved, bool) {
	g := f.byName[name]
	if len(g) == 0 {
		return nil, false
	}
	return g[len(g)-1], true
}

// Save appends generation 1 of a new name. A name already saved is refused:
// refresh it instead. Save stores the trace as given: verify it against the
// store first (evidence.VerifyTrace), as 'tgms answers save' and the
// answers_save tool do, so an edited trace is never saved.
func (f *File) Save(name string, tr *exec.Trace, now bt.Time) (*Saved, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	if _, taken := f.byName[name]; taken {
		return nil, fmt.Errorf("an answer named %q is already saved (%d generations): refresh it with 'tgms answers refresh %s', or pick another name", name, len(f.byName[name]), name)
	}
	return f.append(name, tr, now)
}

// AddGeneration appends the next generation of a saved name.
func (f *File) AddGeneration(name string, tr *exec.Trace, now bt.Time) (*Saved, error) {
	if _, ok := f.byName[name]; !ok {
		return nil, fmt.Errorf("no answer named %q is saved (saved: %v)", name, f.Names())
	}
	return f.append(name, tr, now)
}

func checkName(name string) error {
	if name == "" || len(name) > 200 {
		return fmt.Errorf("answer name must be 1 to 200 characters")
	}
	for _, r := range name {
		if r < ' ' || r == 0x7f {
			return fmt.Errorf("answer name %q has a control character", name)
		}
	}
	return nil
}

func (f *File) append(name string, tr *exec.Trace, now bt.Time) (*Saved, error) {
	traceJSON, err := json.Marshal(tr)
	if err != nil {
		return nil, fmt.Errorf("answers: encoding the trace: %w", err)
	}
	traceVal, err := canon.Parse(traceJSON)
	if err != nil {
		return nil, fmt.Errorf("answers: the trace is not canonical JSON: %w", err)
	}
	gen := len(f.byName[name]) + 1
	payload, err := canon.Marshal(map[string]any{
		"name": name, "generation": int64(gen), "saved_at": now, "as_of_tt": tr.AsOfTT,
		"trace_digest": tr.TraceDigest, "trace": traceVal,
	})
	if err != nil {
		return nil, fmt.Errorf("answers: %w", err)
	}
	s, err := decode(payload) // what a reader will see
	if err != nil {
		return nil, fmt.Errorf("answers: the record would not read back: %w", err)
	}
	line := fmt.Appendf(nil, "%d %08x ", len(payload), crc32.Checksum(payload, castagnoli))
	line = append(append(line, payload...), '\n')
	if err := f.write(line); err != nil {
		return nil, err
	}
	s.Offset = f.end
	f.end += int64(len(line))
	if err := f.add(s); err != nil {
		return nil, err
	}
	return s, nil
}

// write appends one line durably, first setting a torn tail aside and
// creating the file (with its header) if needed.
func (f *File) write(line []byte) error {
	fh, err := os.OpenFile(f.path, os.O_RDWR|os.O_CREATE|eventlog.NoFollow, 0o644)
	if err != nil {
		return linkError(f.path, err)
	}
	defer fh.Close()
	if f.torn > 0 {
		if err := f.setAside(fh); err != nil {
			return err
		}
	}
	if f.end == 0 {
		if err := fh.Truncate(0); err != nil {
			return fmt.Errorf("answers: %w", err)
		}
		if _, err := fh.WriteAt([]byte(header), 0); err != nil {
			return fmt.Errorf("answers: %w", err)
		}
		f.end = int64(len(header))
	}
	if _, err := fh.WriteAt(line, f.end); err != nil {
		return fmt.Errorf("answers: writing %s: %w", f.path, err)
	}
	if err := fh.Sync(); err != nil {
		return fmt.Errorf("answers: syncing %s: %w", f.path, err)
	}
	return syncDir(filepath.Dir(f.path))
}

// setAside appends the torn tail to answers.log.torn and cuts it off.
func (f *File) setAside(fh *os.File) error {
	tail := make([]byte, f.torn)
	if _, err := fh.ReadAt(tail, f.end); err != nil && err != io.EOF {
		return fmt.Errorf("answers: reading the torn tail of %s: %w", f.path, err)
	}
	aside, err := os.OpenFile(f.path+".torn", os.O_WRONLY|os.O_CREATE|os.O_APPEND|eventlog.NoFollow, 0o644)
	if err != nil {
		return linkError(f.path+".torn", err)
	}
	_, err = aside.Write(tail)
	if err == nil {
		err = aside.Sync()
	}
	if cerr := aside.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("answers: keeping the torn tail of %s aside: %w", f.path, err)
	}
	if err := fh.Truncate(f.end); err != nil {
		return fmt.Errorf("answers: %w", err)
	}
	f.torn = 0
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("answers: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("answers: syncing %s: %w", dir, err)
	}
	return nil
}

// Carry copies the saved answers of the store in from into the store in
// to (rebuilding a store from its log must not lose them). Nothing to copy
// is not an error; an answers file already in to is refused.
func Carry(from, to string) error {
	src := filepath.Join(from, FileName)
	data, err := os.ReadFile(src)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("answers: %w", err)
	}
	check := &File{path: src, byName: map[string][]*Saved{}}
	if err := check.parse(data); err != nil {
		return err
	}
	dst := filepath.Join(to, FileName)
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("answers: %w (the new store already has saved answers?)", err)
	}
	_, err = out.Write(data[:check.end])
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("answers: copying %s to %s: %w", src, dst, err)
	}
	return syncDir(to)
}
