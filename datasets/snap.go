package datasets

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/tgms-go/tgms/bitemporal"
)

// ParseError reports a malformed line of an input file. Line is 1-based and
// counts every physical line, comments and blank lines included.
type ParseError struct {
	File string
	Line int
	Msg  string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// ChecksumError reports that a dataset file's decompressed content does not
// match its pinned SHA-256.
type ChecksumError struct {
	Dataset  string // registry name
	File     string // the file that was checked
	Expected string // the pin
	Actual   string // what the file holds
	URL      string // where a good copy comes from
}

func (e *ChecksumError) Error() string {
	return fmt.Sprintf("datasets: %s: SHA-256 of the decompressed content is %s but dataset %q is pinned to %s; "+
		"the file is truncated, corrupt or a different release: delete it and fetch it again "+
		"(datasets.Download, or %s)", e.File, e.Actual, e.Dataset, e.Expected, e.URL)
}

// Load reads the dataset file at path (gzip or plain text: the gzip magic
// bytes decide, not the file name), checks the SHA-256 of its decompressed
// content against spec.SHA256 (skipped only when the spec has no pin),
// and parses every line into an event. On any error it returns no events:
// a *ChecksumError for a pin mismatch, a *ParseError naming the file and
// line for a malformed line.
//
// Mapping: uids are "n" + the decimal id, rel_type is spec.RelType, vt_s is
// the time in seconds × 1,000,000 (exact for integer seconds; a fractional
// time t gives int64(t*1e6)), VtE is 0 (instantaneous), Disc is "" (the
// store assigns one). FormatSignedCSV adds props {"rating": int}. Blank
// lines and lines whose first non-blank character is '#' or '%' are skipped.
func Load(spec Spec, path string) ([]bitemporal.Event, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && spec.URL != "" {
			return nil, fmt.Errorf("datasets: load %s: %w (fetch it from %s, or let `tgms ingest --download` do it)", spec.Name, err, spec.URL)
		}
		return nil, fmt.Errorf("datasets: load %s: %w", spec.Name, err)
	}
	return loadData(spec, path, raw)
}

// loadData is Load on file content already in memory; name is used in errors.
// Errors rank: unreadable gzip data first, then a pin mismatch, then the
// first malformed line.
func loadData(spec Spec, name string, raw []byte) ([]bitemporal.Event, error) {
	if err := checkSpec(spec); err != nil {
		return nil, err
	}
	if !isGzip(raw) {
		if err := verify(spec, name, raw); err != nil {
			return nil, err
		}
		p := newSNAPParser(spec, name, bytes.Count(raw, []byte{'\n'})+1)
		if err := p.parse(raw); err != nil {
			return nil, err
		}
		return p.events, nil
	}
	return loadGzip(spec, name, raw)
}

// gzipBlock is how much decompressed data travels from the decompressing
// goroutine to the parser at a time.
const gzipBlock = 256 << 10

// loadGzip decompresses (and hashes) in one goroutine while parsing in
// this one, so the two halves of the work overlap.
func loadGzip(spec Spec, name string, raw []byte) ([]bitemporal.Event, error) {
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("datasets: %s: bad gzip data: %w", name, err)
	}
	blocks := make(chan []byte, 4)
	free := make(chan []byte, 8)
	var (
		zerr   error
		digest string
	)
	go func() {
		defer close(blocks)
		h := sha256.New()
		for {
			var buf []byte
			select {
			case buf = <-free:
				buf = buf[:cap(buf)]
			default:
				buf = make([]byte, gzipBlock)
			}
			n := 0
			var err error
			for n < len(buf) && err == nil {
				var k int
				k, err = zr.Read(buf[n:])
				n += k
			}
			if n > 0 {
				h.Write(buf[:n])
				blocks <- buf[:n]
			}
			if err == io.EOF {
				digest = hex.EncodeToString(h.Sum(nil))
				return
			}
			if err != nil {
				zerr = err
				return
			}
		}
	}()

	// The trailer's size (mod 2^32) gives a capacity estimate: lines of the
	// SNAP files average 16 to 27 bytes.
	capHint := 1024
	if len(raw) >= 18 {
		if sz := int64(binary.LittleEndian.Uint32(raw[len(raw)-4:])); sz <= 64*int64(len(raw))+(1<<20) {
			capHint = int(sz/16) + 1024
		}
	}
	p := newSNAPParser(spec, name, capHint)
	var perr error
	var carry []byte
	for blk := range blocks {
		if perr == nil {
			j := bytes.LastIndexByte(blk, '\n')
			switch {
			case j < 0:
				carry = append(carry, blk...)
			case len(carry) > 0:
				// Complete the carried partial line, then parse the rest.
				i := bytes.IndexByte(blk, '\n')
				carry = append(carry, blk[:i+1]...)
				perr = p.parse(carry)
				if perr == nil {
					perr = p.parse(blk[i+1 : j+1])
				}
				carry = append(carry[:0], blk[j+1:]...)
			default:
				perr = p.parse(blk[:j+1])
				carry = append(carry, blk[j+1:]...)
			}
		}
		select {
		case free <- blk:
		default:
		}
	}
	// The goroutine has finished (blocks is closed): zerr and digest are set.
	if zerr != nil {
		return nil, fmt.Errorf("datasets: %s: bad gzip data: %w", name, zerr)
	}
	if spec.SHA256 != "" && !strings.EqualFold(digest, spec.SHA256) {
		return nil, &ChecksumError{Dataset: spec.Name, File: name, Expected: strings.ToLower(spec.SHA256), Actual: digest, URL: spec.URL}
	}
	if perr == nil && len(carry) > 0 {
		perr = p.parse(carry)
	}
	if perr != nil {
		return nil, perr
	}
	return p.events, nil
}

// Digest returns the lowercase hex SHA-256 of the file's decompressed
// content (the value a Spec pins).
func Digest(path string) (string, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	data, err := decompress(path, raw)
	if err != nil {
		return "", err
	}
	return sha256Hex(data), nil
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func verify(spec Spec, name string, data []byte) error {
	if spec.SHA256 == "" {
		return nil
	}
	if got := sha256Hex(data); !strings.EqualFold(got, spec.SHA256) {
		return &ChecksumError{Dataset: spec.Name, File: name, Expected: strings.ToLower(spec.SHA256), Actual: got, URL: spec.URL}
	}
	return nil
}

// isGzip reports whether b starts with the gzip magic bytes.
func isGzip(b []byte) bool { return len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b }

// decompress returns raw itself when it is not gzip data, else its
// decompressed content (all members).
func decompress(name string, raw []byte) ([]byte, error) {
	if !isGzip(raw) {
		return raw, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("datasets: %s: bad gzip data: %w", name, err)
	}
	defer zr.Close()
	var buf bytes.Buffer
	// The gzip trailer holds the (last member's) size mod 2^32: a good
	// capacity hint for the usual single-member file.
	if len(raw) >= 18 {
		hint := int64(binary.LittleEndian.Uint32(raw[len(raw)-4:]))
		if hint > 0 && hint <= 64*int64(len(raw))+(1<<20) {
			buf.Grow(int(hint) + 1)
		}
	}
	if _, err := buf.ReadFrom(zr); err != nil {
		return nil, fmt.Errorf("datasets: %s: bad gzip data: %w", name, err)
	}
	return buf.Bytes(), nil
}

// snapRecord is one parsed data line.
type snapRecord struct {
	src, dst int64
	vt       bitemporal.Time
	rating   int64
}

// maxSeconds is the largest whole-second time whose microsecond value is
// below bitemporal.OpenEnd.
const maxSeconds = (bitemporal.OpenEnd - 1) / 1_000_000

func checkSpec(spec Spec) error {
	if spec.Format != FormatTemporal && spec.Format != FormatSignedCSV {
		return fmt.Errorf("datasets: dataset %q has no line format set (use FormatTemporal or FormatSignedCSV)", spec.Name)
	}
	if spec.RelType == "" {
		return fmt.Errorf("datasets: dataset %q has no rel_type", spec.Name)
	}
	return nil
}

// snapParser turns lines into events, keeping the line count across calls.
type snapParser struct {
	spec    Spec
	name    string
	line    int
	events  []bitemporal.Event
	uids    interner
	ratings map[int64]bitemporal.Props
}

func newSNAPParser(spec Spec, name string, capHint int) *snapParser {
	return &snapParser{spec: spec, name: name, events: make([]bitemporal.Event, 0, capHint)}
}

// parse parses data, which holds whole lines: every line ends in '\n' except
// possibly the last one of the input.
func (p *snapParser) parse(data []byte) error {
	f, rel := p.spec.Format, p.spec.RelType
	for len(data) > 0 {
		p.line++
		var l []byte
		if j := bytes.IndexByte(data, '\n'); j >= 0 {
			l, data = data[:j], data[j+1:]
		} else {
			l, data = data, nil
		}
		rec, ok, err := parseSNAPLine(f, l)
		if err != nil {
			return &ParseError{File: p.name, Line: p.line, Msg: err.Error()}
		}
		if !ok {
			continue
		}
		ev := bitemporal.Event{Src: p.uids.uid(rec.src), Dst: p.uids.uid(rec.dst), RelType: rel, VtS: rec.vt}
		if f == FormatSignedCSV {
			pr, ok := p.ratings[rec.rating]
			if !ok {
				pr, err = bitemporal.NewProps(map[string]any{"rating": rec.rating})
				if err != nil {
					return &ParseError{File: p.name, Line: p.line, Msg: err.Error()}
				}
				if p.ratings == nil {
					p.ratings = make(map[int64]bitemporal.Props)
				}
				p.ratings[rec.rating] = pr
			}
			ev.Props = pr
		}
		p.events = append(p.events, ev)
	}
	return nil
}

// interner hands out one "n<id>" string per distinct id.
type interner struct {
	small []string // ids below 1<<16
	big   map[int64]string
}

func (in *interner) uid(id int64) string {
	if id < 1<<16 {
		if id < int64(len(in.small)) {
			if s := in.small[id]; s != "" {
				return s
			}
		} else {
			n := max(2*len(in.small), int(id)+1, 1024)
			in.small = append(in.small, make([]string, min(n, 1<<16)-len(in.small))...)
		}
		s := "n" + strconv.FormatInt(id, 10)
		in.small[id] = s
		return s
	}
	if s, ok := in.big[id]; ok {
		return s
	}
	if in.big == nil {
		in.big = make(map[int64]string)
	}
	s := "n" + strconv.FormatInt(id, 10)
	in.big[id] = s
	return s
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

// parseSNAPLine parses one line (without its '\n'). ok is false for blank
// and comment lines.
func parseSNAPLine(f Format, l []byte) (rec snapRecord, ok bool, err error) {
	i := 0
	for i < len(l) && isBlank(l[i]) {
		i++
	}
	if i == len(l) || l[i] == '#' || l[i] == '%' {
		return rec, false, nil
	}
	var fields [4][]byte
	want := 3
	if f == FormatSignedCSV {
		want = 4
	}
	n := 0
	if f == FormatSignedCSV {
		start := i
		for j := i; ; j++ {
			if j == len(l) || l[j] == ',' {
				if n < want {
					fields[n] = trimBlank(l[start:j])
				}
				n++
				start = j + 1
				if j == len(l) {
					break
				}
			}
		}
	} else {
		for i < len(l) {
			start := i
			for i < len(l) && !isBlank(l[i]) {
				i++
			}
			if n < want {
				fields[n] = l[start:i]
			}
			n++
			for i < len(l) && isBlank(l[i]) {
				i++
			}
		}
	}
	if n != want {
		return rec, false, fmt.Errorf("want %d fields (%s), got %d", want, f, n)
	}
	if rec.src, err = parseID("source", fields[0]); err != nil {
		return rec, false, err
	}
	if rec.dst, err = parseID("target", fields[1]); err != nil {
		return rec, false, err
	}
	tf := fields[2]
	if f == FormatSignedCSV {
		if rec.rating, err = parseRating(fields[2]); err != nil {
			return rec, false, err
		}
		tf = fields[3]
	}
	if rec.vt, err = parseSeconds(tf); err != nil {
		return rec, false, err
	}
	return rec, true, nil
}

func trimBlank(b []byte) []byte {
	for len(b) > 0 && isBlank(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isBlank(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func quoteField(b []byte) string {
	if len(b) > 40 {
		return strconv.Quote(string(b[:40])) + "..."
	}
	return strconv.Quote(string(b))
}

var errOverflow = errors.New("overflow")

// parseDigits parses a non-empty run of ASCII digits into a non-negative
// int64.
func parseDigits(b []byte) (int64, error) {
	if len(b) == 0 {
		return 0, strconv.ErrSyntax
	}
	var v int64
	for _, c := range b {
		d := int64(c) - '0'
		if d < 0 || d > 9 {
			return 0, strconv.ErrSyntax
		}
		if v > (1<<63-1-d)/10 {
			return 0, errOverflow
		}
		v = v*10 + d
	}
	return v, nil
}

func parseID(what string, b []byte) (int64, error) {
	v, err := parseDigits(b)
	if err != nil {
		if err == errOverflow {
			return 0, fmt.Errorf("%s id %s is too large for int64", what, quoteField(b))
		}
		return 0, fmt.Errorf("%s id %s is not a non-negative integer", what, quoteField(b))
	}
	return v, nil
}

func parseRating(b []byte) (int64, error) {
	neg := false
	d := b
	if len(d) > 0 && (d[0] == '-' || d[0] == '+') {
		neg = d[0] == '-'
		d = d[1:]
	}
	v, err := parseDigits(d)
	if err != nil {
		return 0, fmt.Errorf("rating %s is not an integer", quoteField(b))
	}
	if neg {
		v = -v
	}
	return v, nil
}

// parseSeconds parses a non-negative time in seconds, whole ("1082040961")
// or with a decimal fraction ("1289241911.72836"), into microseconds.
func parseSeconds(b []byte) (bitemporal.Time, error) {
	if len(b) > 0 && b[0] == '-' {
		return 0, fmt.Errorf("time %s is negative: times must be seconds since the epoch (or since the start), at least 0", quoteField(b))
	}
	dot := bytes.IndexByte(b, '.')
	if dot < 0 {
		v, err := parseDigits(b)
		if err == errOverflow || (err == nil && v > maxSeconds) {
			return 0, fmt.Errorf("time %s seconds is out of range (at most %d)", quoteField(b), int64(maxSeconds))
		}
		if err != nil {
			return 0, fmt.Errorf("time %s is not a number of seconds", quoteField(b))
		}
		return v * 1_000_000, nil
	}
	// Decimal fraction: digits '.' digits, at least one digit in all.
	intPart, frac := b[:dot], b[dot+1:]
	if len(intPart)+len(frac) == 0 || !allDigits(intPart) || !allDigits(frac) {
		return 0, fmt.Errorf("time %s is not a number of seconds", quoteField(b))
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return 0, fmt.Errorf("time %s is not a number of seconds", quoteField(b))
	}
	us := f * 1e6
	if !(us < float64(bitemporal.OpenEnd)) {
		return 0, fmt.Errorf("time %s seconds is out of range (at most %d)", quoteField(b), int64(maxSeconds))
	}
	return int64(us), nil
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
