package reader

import (
	"fmt"
	"strings"
	"time"
	_ "time/tzdata" // zone names are read the same on every machine
)

// Named zones after a period: "March 2014, Tokyo time", "5 January 1970
// in Brussels time (UTC+1)". A city is read through the IANA time zone
// database when it names exactly one zone there; the period is read at
// that zone's offset, which must be one offset for the whole period. An
// offset written beside the city must be the zone's own on those days,
// and so must a remark on summer time ("no daylight saving in March");
// either disagreeing is refused, naming both.

// zoneRegions are the IANA areas a city's zone is looked up in.
var zoneRegions = []string{"Africa", "America", "Antarctica", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific"}

// cityZone finds the one IANA zone named Area/City; "" when none, an
// error when several areas have the city.
func cityZone(city string) (*time.Location, string, error) {
	var found []*time.Location
	var names []string
	for _, r := range zoneRegions {
		name := r + "/" + city
		if loc, err := time.LoadLocation(name); err == nil {
			found, names = append(found, loc), append(names, name)
		}
	}
	switch len(found) {
	case 0:
		return nil, "", nil
	case 1:
		return found[0], names[0], nil
	}
	return nil, "", fmt.Errorf("%s names %d time zones (%s); write the offset, e.g. UTC+1", strings.ReplaceAll(city, "_", " "), len(found), strings.Join(names, ", "))
}

// offsetAt is the zone's offset from UTC (µs) at the UTC instant t.
func offsetAt(loc *time.Location, t int64) int64 {
	_, s := time.UnixMicro(t).In(loc).Zone()
	return int64(s) * usSecond
}

// namedZone reads ", Tokyo time", "in Brussels time", with an optional
// "(UTC+8)" or "(that is UTC+2, no daylight saving in March)" after it, at
// j, right after a period [s, e) written in that zone's wall time. It
// returns the offset (µs east of UTC) and the index after the words.
func (p *timeParser) namedZone(j int, s, e int64) (int64, int, bool, error) {
	k := j
	if p.tok(k).text == "," || p.tok(k).low == "in" {
		k++
	}
	c := p.tok(k)
	if c.kind != tWord || c.text == "" || c.text[0] < 'A' || c.text[0] > 'Z' {
		return 0, j, false, nil
	}
	city, n := c.text, k+1
	if d := p.tok(n); d.kind == tWord && d.text != "" && d.text[0] >= 'A' && d.text[0] <= 'Z' && p.tok(n+1).low == "time" {
		city, n = city+"_"+d.text, n+1 // "New York time"
	}
	if p.tok(n).low != "time" {
		return 0, j, false, nil
	}
	loc, name, err := cityZone(city)
	if loc == nil && err == nil {
		return 0, j, false, nil
	}
	end := n + 1
	if err != nil {
		return 0, end, true, err
	}
	// The zone's offset through the period, in its own wall time: a day
	// apart, no zone changes its offset twice.
	o1 := offsetAt(loc, s-offsetAt(loc, s))
	for t := s; ; t += usDay {
		if t >= e {
			t = e - 1
		}
		if o2 := offsetAt(loc, t-o1); o2 != o1 {
			return 0, end, true, fmt.Errorf("%s changes its offset from UTC within the period (%s, then %s); write one offset, e.g. UTC+1", name, zoneText(o1/usMinute), zoneText(o2/usMinute))
		}
		if t == e-1 {
			break
		}
	}
	written, summer, m, ok := p.zoneRemark(end)
	if !ok {
		return o1, end, true, nil
	}
	if written != nil && *written != o1 {
		return 0, m, true, fmt.Errorf("%s is %s on those days, but the question writes %s", name, zoneText(o1/usMinute), zoneText(*written/usMinute))
	}
	if summer != "" {
		at := time.UnixMicro(s - o1).In(loc)
		if at.IsDST() || time.UnixMicro(e-1-o1).In(loc).IsDST() {
			return 0, m, true, fmt.Errorf("%s keeps summer time on those days, but the question writes %q", name, summer)
		}
		if mo := monthOfRemark(summer); mo != 0 && time.Month(mo) != at.Month() {
			return 0, m, true, fmt.Errorf("%q names another month than the period's", summer)
		}
	}
	return o1, m, true, nil
}

// zoneRemark reads "(UTC+8)", "(that is UTC+2)", "(UTC+2, no daylight saving
// in March)" at j: the offset written (nil if none), the summer-time
// remark ("" if none) and the index after the parenthesis.
func (p *timeParser) zoneRemark(j int) (off *int64, summer string, end int, ok bool) {
	if p.tok(j).text != "(" {
		return nil, "", j, false
	}
	k := j + 1
	for _, w := range []string{"this", "that", "which", "i.e", "is", "was"} {
		if p.tok(k).low == w {
			k++
		}
	}
	if l := p.tok(k).low; (l == "utc" || l == "gmt") && (p.tok(k+1).text == "+" || p.tok(k+1).text == "-") {
		o, err := parseOffset(p.tok(k+1).text + p.tok(k+2).low)
		if err != nil {
			return nil, "", j, false
		}
		off, k = &o, k+3
	}
	if p.tok(k).text == "," || p.tok(k).text == ";" {
		k++
	}
	// "no summer time", "no daylight saving time", optionally "in January".
	if p.tok(k).low == "no" {
		m := k + 1
		switch {
		case p.tok(m).low == "summer" && p.tok(m+1).low == "time":
			m += 2
		case p.tok(m).low == "daylight" && p.tok(m+1).low == "saving" && p.tok(m+2).low == "time":
			m += 3
		case p.tok(m).low == "daylight" && p.tok(m+1).low == "saving":
			m += 2
		case p.tok(m).low == "dst":
			m++
		default:
			return nil, "", j, false
		}
		if p.tok(m).low == "in" && monthNames[p.tok(m+1).low] > 0 {
			m += 2
		}
		summer, k = p.span(k, m), m
	}
	if p.tok(k).text != ")" || off == nil && summer == "" {
		return nil, "", j, false
	}
	return off, summer, k + 1, true
}

// monthOfRemark is the month a summer-time remark names, 0 if none.
func monthOfRemark(s string) int {
	f := strings.Fields(strings.ToLower(s))
	if len(f) >= 2 && f[len(f)-2] == "in" {
		return monthNames[f[len(f)-1]]
	}
	return 0
}
