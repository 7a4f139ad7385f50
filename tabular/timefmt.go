package tabular

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// TimeFormat parses one time cell into microseconds since the epoch (UTC).
// Build one with ParseTimeFormat.
type TimeFormat struct {
	name   string // unix_s, unix_ms, unix_us, rfc3339 or layout
	layout string
	loc    *time.Location
	mult   int64 // unix_*: microseconds per unit
	digits int   // unix_*: fraction digits allowed (6 for s, 3 for ms, 0 for us)
}

// Time format names accepted by ParseTimeFormat besides Go layouts.
const (
	UnixS   = "unix_s"
	UnixMS  = "unix_ms"
	UnixUS  = "unix_us"
	RFC3339 = "rfc3339"
)

// ParseTimeFormat builds a time format: "unix_s", "unix_ms", "unix_us",
// "rfc3339" (an offset or Z is required and honoured), or a Go reference
// layout such as "2006-01-02 15:04:05". tz is an IANA zone name ("" means
// UTC) used for layouts without an offset; it is refused with the unix and
// rfc3339 formats, whose values carry their own zone.
func ParseTimeFormat(name, tz string) (*TimeFormat, error) {
	f := &TimeFormat{name: name, loc: time.UTC}
	switch name {
	case "", RFC3339:
		f.name = RFC3339
	case UnixS:
		f.mult, f.digits = 1_000_000, 6
	case UnixMS:
		f.mult, f.digits = 1_000, 3
	case UnixUS:
		f.mult, f.digits = 1, 0
	default:
		if !strings.ContainsAny(name, "0123456789") {
			return nil, fmt.Errorf("time format %q: use unix_s, unix_ms, unix_us, rfc3339, or a Go layout such as \"2006-01-02 15:04:05\"", name)
		}
		probe := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC).Format(name)
		if _, err := time.Parse(name, probe); err != nil || probe == name {
			return nil, fmt.Errorf("time format %q is not a Go layout that reads back what it writes (write the reference time Mon Jan 2 15:04:05 MST 2006 in your format, e.g. \"2006-01-02 15:04:05\")", name)
		}
		f.name, f.layout = "layout", name
	}
	if tz != "" {
		if f.layout == "" {
			return nil, fmt.Errorf("--tz %q applies only to a Go layout without an offset; %s values carry their own zone", tz, f.name)
		}
		loc, err := time.LoadLocation(tz)
		if err != nil {
			return nil, fmt.Errorf("time zone %q: not an IANA zone name (e.g. Europe/Berlin, America/New_York, UTC): %v", tz, err)
		}
		f.loc = loc
	}
	return f, nil
}

// String names the format as the user gave it.
func (f *TimeFormat) String() string {
	if f.layout != "" {
		return strconv.Quote(f.layout)
	}
	return f.name
}

// Expected describes a valid value, for error messages.
func (f *TimeFormat) Expected() string {
	switch f.name {
	case UnixS:
		return "seconds since the epoch (e.g. 1700000000 or 1700000000.123456), at most 6 decimals"
	case UnixMS:
		return "milliseconds since the epoch (e.g. 1700000000123), at most 3 decimals"
	case UnixUS:
		return "whole microseconds since the epoch (e.g. 1700000000123456)"
	case RFC3339:
		return "an RFC 3339 time with an offset (e.g. 2024-03-01T09:30:00Z or 2024-03-01T10:30:00.5+01:00), at most 6 fractional digits"
	}
	z := "UTC"
	if f.loc != time.UTC {
		z = f.loc.String()
	}
	return fmt.Sprintf("a time in layout %q (zone %s), at most 6 fractional digits", f.layout, z)
}

// Parse reads one cell.
func (f *TimeFormat) Parse(s string) (bt.Time, error) {
	if f.mult != 0 {
		return parseUnix(s, f.mult, f.digits)
	}
	if n := fracDigits(s); n > 6 {
		return 0, fmt.Errorf("%d fractional digits: finer than a microsecond is refused, not rounded", n)
	}
	var t time.Time
	var err error
	if f.layout == "" {
		t, err = time.Parse(time.RFC3339Nano, s)
		if err != nil {
			if _, e2 := time.Parse("2006-01-02T15:04:05.999999999", s); e2 == nil {
				return 0, fmt.Errorf("no offset: write Z or ±hh:mm, or use --time-format with a layout and --tz")
			}
			return 0, fmt.Errorf("not RFC 3339")
		}
	} else {
		t, err = time.ParseInLocation(f.layout, s, f.loc)
		if err != nil {
			return 0, fmt.Errorf("does not match the layout")
		}
	}
	return fromTime(t)
}

// fromTime converts a time to microseconds, refusing sub-microsecond
// parts and times outside [1970, 2^62 µs).
func fromTime(t time.Time) (bt.Time, error) {
	if t.Nanosecond()%1000 != 0 {
		return 0, fmt.Errorf("nanoseconds %d: finer than a microsecond is refused, not rounded", t.Nanosecond())
	}
	if t.Before(time.Unix(0, 0)) {
		return 0, fmt.Errorf("before 1970-01-01T00:00:00Z: times are microseconds since the epoch and cannot be negative")
	}
	us := t.UnixMicro()
	if us >= bt.OpenEnd || t.Year() > 100000 {
		return 0, fmt.Errorf("too far in the future")
	}
	return us, nil
}

// fracDigits counts the digits after the first '.' or ',' that follows a
// digit and is followed by digits (the fractional-second part of a time).
func fracDigits(s string) int {
	for i := 1; i < len(s); i++ {
		if (s[i] == '.' || s[i] == ',') && s[i-1] >= '0' && s[i-1] <= '9' {
			n := 0
			for j := i + 1; j < len(s) && s[j] >= '0' && s[j] <= '9'; j++ {
				n++
			}
			if n > 0 {
				return n
			}
		}
	}
	return 0
}

// parseUnix reads a decimal number of units (mult µs each) exactly: digits,
// optionally a '.' and at most digits fraction digits; no sign, no
// exponent.
func parseUnix(s string, mult int64, digits int) (bt.Time, error) {
	whole, frac, hasDot := strings.Cut(s, ".")
	if whole == "" || (hasDot && frac == "") {
		return 0, fmt.Errorf("not a decimal number")
	}
	for _, c := range []byte(whole + frac) {
		if c < '0' || c > '9' {
			if c == '-' {
				return 0, fmt.Errorf("negative: times are microseconds since the epoch and cannot be negative")
			}
			return 0, fmt.Errorf("not a decimal number")
		}
	}
	if len(frac) > digits {
		if digits == 0 {
			return 0, fmt.Errorf("a fraction of a microsecond is refused, not rounded")
		}
		return 0, fmt.Errorf("%d decimals: finer than a microsecond is refused, not rounded", len(frac))
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || w > (bt.OpenEnd-1)/mult {
		return 0, fmt.Errorf("too large")
	}
	us := w * mult
	if frac != "" {
		f, _ := strconv.ParseInt(frac, 10, 64)
		for range digits - len(frac) {
			f *= 10
		}
		us += f
	}
	if us >= bt.OpenEnd {
		return 0, fmt.Errorf("too large")
	}
	return us, nil
}

// fromNumber converts a typed number (JSONL, Parquet) in the unix formats.
// Integers are exact; a float must be an exact whole number of µs.
func (f *TimeFormat) fromNumber(v any) (bt.Time, error) {
	if f.mult == 0 {
		return 0, fmt.Errorf("a number, but the time format %s wants text", f)
	}
	switch x := v.(type) {
	case int64:
		if x < 0 {
			return 0, fmt.Errorf("negative: times are microseconds since the epoch and cannot be negative")
		}
		if x > (bt.OpenEnd-1)/f.mult {
			return 0, fmt.Errorf("too large")
		}
		return x * f.mult, nil
	case float64:
		us := x * float64(f.mult)
		if math.IsNaN(us) || us < 0 || us >= float64(bt.OpenEnd) {
			return 0, fmt.Errorf("out of range")
		}
		// The text form is exact where the float is; parse that.
		return parseUnix(strconv.FormatFloat(x, 'f', -1, 64), f.mult, f.digits)
	}
	return 0, fmt.Errorf("not a number")
}
