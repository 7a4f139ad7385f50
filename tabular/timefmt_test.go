package tabular

import (
	"strings"
	"testing"
	"time"
)

func TestTimeFormats(t *testing.T) {
	base := time.Date(2024, 3, 1, 9, 30, 0, 0, time.UTC).UnixMicro()
	for _, c := range []struct {
		format, tz, in string
		want           int64
		err            string // substring of the error; "" means success
	}{
		{"unix_s", "", "1709285400", base, ""},
		{"unix_s", "", "1709285400.5", base + 500_000, ""},
		{"unix_s", "", "1709285400.123456", base + 123_456, ""},
		{"unix_s", "", "1709285400.1234567", 0, "finer than a microsecond"},
		{"unix_s", "", "-5", 0, "negative"},
		{"unix_s", "", "1e9", 0, "not a decimal"},
		{"unix_s", "", "", 0, "not a decimal"},
		{"unix_s", "", "99999999999999999", 0, "too large"},
		{"unix_ms", "", "1709285400123", base + 123_000, ""},
		{"unix_ms", "", "1709285400123.456", base + 123_456, ""},
		{"unix_ms", "", "1709285400123.4567", 0, "finer than a microsecond"},
		{"unix_us", "", "1709285400000001", base + 1, ""},
		{"unix_us", "", "1709285400000001.5", 0, "fraction of a microsecond"},
		{"rfc3339", "", "2024-03-01T09:30:00Z", base, ""},
		{"rfc3339", "", "2024-03-01T10:30:00+01:00", base, ""},
		{"rfc3339", "", "2024-03-01T04:30:00-05:00", base, ""},
		{"rfc3339", "", "2024-03-01T09:30:00.000250Z", base + 250, ""},
		{"rfc3339", "", "2024-03-01T09:30:00.0000001Z", 0, "finer than a microsecond"},
		{"rfc3339", "", "2024-03-01T09:30:00", 0, "no offset"},
		{"rfc3339", "", "2024-13-01T09:30:00Z", 0, "not RFC 3339"},
		{"rfc3339", "", "1969-12-31T23:59:59Z", 0, "before 1970"},
		{"", "", "2024-03-01T09:30:00Z", base, ""},
		{"2006-01-02 15:04:05", "", "2024-03-01 09:30:00", base, ""},
		{"2006-01-02 15:04:05", "Europe/Berlin", "2024-03-01 10:30:00", base, ""},
		{"2006-01-02 15:04:05", "America/New_York", "2024-03-01 04:30:00", base, ""},
		{"2006-01-02 15:04:05", "America/New_York", "2024-07-01 05:30:00", time.Date(2024, 7, 1, 9, 30, 0, 0, time.UTC).UnixMicro(), ""}, // summer time
		{"2006-01-02 15:04:05.000000", "", "2024-03-01 09:30:00.000007", base + 7, ""},
		{"2006-01-02 15:04:05.999999999", "", "2024-03-01 09:30:00.000000007", 0, "finer than a microsecond"},
		{"02/01/2006 15:04", "UTC", "01/03/2024 09:30", base, ""},
		{"2006-01-02 15:04:05", "", "2024-03-01T09:30:00", 0, "does not match"},
	} {
		f, err := ParseTimeFormat(c.format, c.tz)
		if err != nil {
			t.Fatalf("%s/%s: %v", c.format, c.tz, err)
		}
		got, err := f.Parse(c.in)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s %q: %v", c.format, c.in, err)
		case c.err == "" && got != c.want:
			t.Errorf("%s %q = %d, want %d", c.format, c.in, got, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s %q: error %v, want one containing %q", c.format, c.in, err, c.err)
		}
	}
}

func TestTimeFormatRefusals(t *testing.T) {
	for _, c := range []struct{ format, tz, err string }{
		{"unix_s", "Europe/Berlin", "applies only to a Go layout"},
		{"rfc3339", "UTC", "applies only to a Go layout"},
		{"2006-01-02", "Mars/Olympus", "IANA"},
		{"seconds", "", "use unix_s"},
		{"2006-13-45", "", "not a Go layout"},
	} {
		if _, err := ParseTimeFormat(c.format, c.tz); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s/%s: %v, want %q", c.format, c.tz, err, c.err)
		}
	}
}

func TestNumberTimes(t *testing.T) {
	f, _ := ParseTimeFormat("unix_s", "")
	for _, c := range []struct {
		in   any
		want int64
		ok   bool
	}{
		{int64(10), 10_000_000, true},
		{1.5, 1_500_000, true},
		{1.0000001, 0, false},
		{int64(-1), 0, false},
	} {
		got, err := f.fromNumber(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("%v: %d, %v", c.in, got, err)
		}
	}
	if _, err := (&TimeFormat{name: RFC3339}).fromNumber(int64(5)); err == nil {
		t.Error("rfc3339 accepted a number")
	}
	for _, c := range []struct {
		s    Stamp
		want int64
		ok   bool
	}{
		{Stamp{N: 5, Unit: 1000}, 5, true},
		{Stamp{N: 5, Unit: 1_000_000}, 5000, true},
		{Stamp{N: 5000, Unit: 1}, 5, true},
		{Stamp{N: 5001, Unit: 1}, 0, false},
		{Stamp{N: 1, Unit: 86400e9}, 86400e6, true},
		{Stamp{N: -1, Unit: 1000}, 0, false},
	} {
		got, err := c.s.Micros()
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("%+v: %d, %v", c.s, got, err)
		}
	}
}
