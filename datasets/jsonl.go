package datasets

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
)

// MaxJSONLLine is the longest line ReadEventsJSONL accepts, in bytes.
const MaxJSONLLine = 16 << 20

// The fields of an events-file line.

// ReadEventsJSONL reads an events file: one JSON object per line,
//
//	{"src": uid, "dst": uid, "rel_type": string, "vt_s": time,
//	 ["vt_e": time], ["disc": string], ["props": object]}
//
// where a time is an integer number of microseconds since the epoch or a
// string bitemporal.ParseTime accepts (RFC 3339, e.g.
// "2004-04-15T14:56:01Z"). vt_e, when given, must be after vt_s; absent, the
// event is instantaneous. Blank lines are skipped. Unknown or duplicate
// fields, missing required fields, values of the wrong type, times out of
// range and malformed or truncated JSON are *ParseError values naming name
// and the line; on error no events are returned.
func ReadEventsJSONL(r io.Reader, name string) ([]bitemporal.Event, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxJSONLLine)
	in := make(map[string]string)
	var events []bitemporal.Event
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		ev, err := parseEventLine(b, in)
		if err != nil {
			return nil, &ParseError{File: name, Line: line, Msg: err.Error()}
		}
		events = append(events, ev)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &ParseError{File: name, Line: line + 1, Msg: fmt.Sprintf("line longer than %d bytes", MaxJSONLLine)}
		}
		return nil, fmt.Errorf("datasets: read %s: %w", name, err)
	}
	return events, nil
}

func intern(in map[string]string, s string) string {
	if t, ok := in[s]; ok {
		return t
	}
	if len(in) < 1<<20 {
		in[s] = s
	}
	return s
}

func parseEventLine(b []byte, in map[string]string) (bitemporal.Event, error) {
	v, err := canon.Parse(b)
	if err != nil {
		msg := err.Error()
		var se *canon.SyntaxError
		if errors.As(err, &se) {
			msg = fmt.Sprintf("column %d: %s", se.Offset+1, se.Msg)
		}
		return bitemporal.Event{}, fmt.Errorf("invalid JSON: %s", msg)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return bitemporal.Event{}, fmt.Errorf("want a JSON object per line, got %s", canon.Kind(v))
	}
	ev, err := bitemporal.DecodeEvent(m)
	if err == nil {
		err = ev.Validate()
	}
	if err != nil {
		return bitemporal.Event{}, err
	}
	ev.Src, ev.Dst, ev.RelType = intern(in, ev.Src), intern(in, ev.Dst), intern(in, ev.RelType)
	return ev, nil
}

// WriteEventsJSONL writes events in the format ReadEventsJSONL reads: one
// canonical JSON object per line (keys sorted, no spaces), times as integer
// microseconds, with vt_e, disc and props left out when empty. It refuses
// events ReadEventsJSONL would refuse, before writing anything for them.
func WriteEventsJSONL(w io.Writer, events []bitemporal.Event) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	buf := make([]byte, 0, 256)
	for i := range events {
		var err error
		buf, err = appendEventJSON(buf[:0], &events[i])
		if err != nil {
			return fmt.Errorf("datasets: event %d: %w", i, err)
		}
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// appendEventJSON appends the canonical JSON line of e, newline included.
func appendEventJSON(dst []byte, e *bitemporal.Event) ([]byte, error) {
	switch {
	case e.Src == "" || e.Dst == "" || e.RelType == "":
		return dst, errors.New("src, dst and rel_type must be non-empty")
	case !utf8.ValidString(e.Src) || !utf8.ValidString(e.Dst) || !utf8.ValidString(e.RelType) || !utf8.ValidString(e.Disc):
		return dst, errors.New("src, dst, rel_type and disc must be valid UTF-8")
	case e.VtS < 0 || e.VtS >= bitemporal.OpenEnd:
		return dst, fmt.Errorf("vt_s %d is outside [0, 2^62)", e.VtS)
	case e.VtE != 0 && (e.VtE <= e.VtS || e.VtE > bitemporal.OpenEnd):
		return dst, fmt.Errorf("vt_e %d must be after vt_s %d and at most 2^62", e.VtE, e.VtS)
	}
	if e.Props != "" {
		c, err := canon.Canonicalize([]byte(e.Props))
		if err != nil || string(c) != string(e.Props) || c[0] != '{' || string(c) == "{}" {
			return dst, errors.New("props are not a canonical non-empty JSON object (build them with bitemporal.NewProps)")
		}
	}
	return appendEventJSONUnchecked(dst, e), nil
}

// appendEventJSONUnchecked is appendEventJSON for events known to be valid.
func appendEventJSONUnchecked(dst []byte, e *bitemporal.Event) []byte {
	dst = append(dst, '{')
	if e.Disc != "" {
		dst = append(dst, `"disc":`...)
		dst = canon.AppendString(dst, e.Disc)
		dst = append(dst, ',')
	}
	dst = append(dst, `"dst":`...)
	dst = canon.AppendString(dst, e.Dst)
	if e.Props != "" {
		dst = append(dst, `,"props":`...)
		dst = append(dst, e.Props...)
	}
	dst = append(dst, `,"rel_type":`...)
	dst = canon.AppendString(dst, e.RelType)
	dst = append(dst, `,"src":`...)
	dst = canon.AppendString(dst, e.Src)
	if e.VtE != 0 {
		dst = append(dst, `,"vt_e":`...)
		dst = canon.AppendInt(dst, e.VtE)
	}
	dst = append(dst, `,"vt_s":`...)
	dst = canon.AppendInt(dst, e.VtS)
	return append(dst, '}', '\n')
}
