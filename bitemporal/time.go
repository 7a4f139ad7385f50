package bitemporal

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Time is an instant in microseconds since 1970-01-01T00:00:00Z (UTC).
// Valid time and transaction time use the same unit.
type Time = int64

// OpenEnd is the end of an interval that has not ended: valid-time "until
// further notice" and transaction-time "still believed". It is an ordinary
// integer that takes part in comparisons.
const OpenEnd Time = 1 << 62

// MaxBelief is the largest transaction time a read may be pinned at; a read
// "as of now" is evaluated at MaxBelief so that open rows (tt_e = OpenEnd)
// stay visible.
const MaxBelief Time = OpenEnd - 1

// ClampTT maps an as-of transaction time onto the range a read can use.
func ClampTT(tt Time) Time {
	if tt > MaxBelief {
		return MaxBelief
	}
	return tt
}

// Interval is the half-open interval [Start, End).
type Interval struct {
	Start Time `json:"start"`
	End   Time `json:"end"`
}

// Always is the interval covering all representable time.
var Always = Interval{0, OpenEnd}

// Valid reports whether the interval is non-empty and inside [0, OpenEnd].
func (iv Interval) Valid() bool {
	return 0 <= iv.Start && iv.Start < iv.End && iv.End <= OpenEnd
}

// Contains reports whether t lies in [Start, End).
func (iv Interval) Contains(t Time) bool { return iv.Start <= t && t < iv.End }

// Overlaps reports whether the two intervals share an instant.
func (iv Interval) Overlaps(o Interval) bool { return iv.Start < o.End && o.Start < iv.End }

// String renders the interval as [s, e) with "∞" for OpenEnd.
func (iv Interval) String() string {
	return "[" + FormatMicros(iv.Start) + ", " + FormatMicros(iv.End) + ")"
}

// Remainder returns the parts of v that cut does not cover, left part first.
// Each returned interval is non-empty.
func Remainder(v, cut Interval) []Interval {
	var out []Interval
	if v.Start < cut.Start {
		out = append(out, Interval{v.Start, min(v.End, cut.Start)})
	}
	if cut.End < v.End {
		out = append(out, Interval{max(v.Start, cut.End), v.End})
	}
	return out
}

// FormatMicros renders a time as decimal microseconds, or "∞" for OpenEnd.
func FormatMicros(t Time) string {
	if t >= OpenEnd {
		return "∞"
	}
	return strconv.FormatInt(t, 10)
}

// FormatRFC3339 renders a time as an RFC 3339 UTC timestamp with
// microsecond precision, or "open" for OpenEnd.
func FormatRFC3339(t Time) string {
	if t >= OpenEnd {
		return "open"
	}
	return time.UnixMicro(t).UTC().Format("2006-01-02T15:04:05.999999Z07:00")
}

// FormatBoth renders a time for people: microseconds and RFC 3339.
func FormatBoth(t Time) string {
	if t >= OpenEnd {
		return "∞ (open)"
	}
	return FormatMicros(t) + " (" + FormatRFC3339(t) + ")"
}

// ParseTime accepts decimal microseconds since the epoch, an RFC 3339
// timestamp, or a date YYYY-MM-DD (midnight UTC).
func ParseTime(s string) (Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, fmt.Errorf("empty time: give microseconds since the epoch or an RFC 3339 timestamp")
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
		if ts, err := time.Parse(layout, s); err == nil {
			return ts.UTC().UnixMicro(), nil
		}
	}
	return 0, fmt.Errorf("time %q: want microseconds since the epoch (e.g. 1082040961000000) or RFC 3339 (e.g. 2004-04-15T14:56:01Z)", s)
}
