package reader

import (
	"fmt"
	"strconv"
	"strings"
)

// zoneSlot is a fixed offset from UTC written in the question: "UTC+9",
// "(GMT-05:00)", "UTC+5:30".
type zoneSlot struct {
	minutes int64
	written string
}

// zoneAt reads the fixed offsets the time forms left: "UTC" or "GMT",
// a sign and hours, optionally ":MM". Two offsets that disagree are
// refused; an offset beyond ±14 hours is not one.
func (x *extractor) zoneAt() error {
	for i, t := range x.toks {
		if t.used || t.kind != tWord || (t.low != "utc" && t.low != "gmt") {
			continue
		}
		sign := x.tok(i + 1).text
		if x.tok(i+1).used || sign != "+" && sign != "-" && sign != "−" {
			continue
		}
		n := x.tok(i + 2)
		if n.used || n.kind != tNum && n.kind != tClock {
			continue
		}
		h, m := n.low, "0"
		if n.kind == tClock {
			parts := strings.Split(n.low, ":")
			if len(parts) != 2 {
				continue
			}
			h, m = parts[0], parts[1]
		}
		hv, err1 := strconv.ParseInt(h, 10, 64)
		mv, err2 := strconv.ParseInt(m, 10, 64)
		if err1 != nil || err2 != nil || strings.Contains(h, ".") || hv > 14 || mv >= 60 {
			return &Refusal{Problem: fmt.Sprintf("%q is not an offset from UTC (write e.g. UTC+9 or UTC-05:30)", t.text+sign+n.text)}
		}
		off := hv*60 + mv
		if sign != "+" {
			off = -off
		}
		z := &zoneSlot{minutes: off, written: t.text + sign + n.text}
		if x.s.zone != nil && x.s.zone.minutes != off {
			return &Refusal{Problem: fmt.Sprintf("the question writes two offsets from UTC (%s and %s)", x.s.zone.written, z.written)}
		}
		x.s.zone = z
		x.use(i, i+3)
	}
	return nil
}

// zoneText renders an offset in minutes as "UTC", "UTC+9", "UTC-5:30".
func zoneText(min int64) string {
	if min == 0 {
		return "UTC"
	}
	sign := "+"
	if min < 0 {
		sign, min = "-", -min
	}
	if min%60 == 0 {
		return fmt.Sprintf("UTC%s%d", sign, min/60)
	}
	return fmt.Sprintf("UTC%s%d:%02d", sign, min/60, min%60)
}

// zone reads an optional zone after a time: UTC, GMT, Z, UTC+2, UTC-05:30.
func (p *timeParser) zone(j int) (int64, int, error) {
	t := p.tok(j)
	if zoneWords[t.low] {
		return 0, j, fmt.Errorf("time zone %s: write the time in UTC or with a numeric offset such as +02:00", t.text)
	}
	if t.text == "(" && (p.tok(j+1).low == "utc" || p.tok(j+1).low == "gmt") && p.tok(j+2).text == ")" {
		return 0, j + 3, nil
	}
	if t.low != "utc" && t.low != "gmt" && t.low != "z" {
		return 0, j, nil
	}
	j++
	if s := p.tok(j).text; s == "+" || s == "-" {
		n := p.tok(j + 1)
		if n.kind == tNum || n.kind == tClock {
			off, err := parseOffset(s + n.low)
			return off, j + 2, err
		}
	}
	return 0, j, nil
}

// parseOffset reads +2, -5, +02:00, +0530 as µs east of UTC.
func parseOffset(s string) (int64, error) {
	sign := int64(1)
	if s[0] == '-' {
		sign = -1
	}
	s = strings.ReplaceAll(s[1:], ":", "")
	var h, m int
	var err error
	switch len(s) {
	case 1, 2:
		h, err = strconv.Atoi(s)
	case 4:
		h, err = strconv.Atoi(s[:2])
		if err == nil {
			m, err = strconv.Atoi(s[2:])
		}
	default:
		err = fmt.Errorf("bad offset")
	}
	if err != nil || h > 14 || m > 59 {
		return 0, fmt.Errorf("cannot read the UTC offset %q", s)
	}
	return sign * (int64(h)*usHour + int64(m)*usMinute), nil
}
