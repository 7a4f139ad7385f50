package reader

import "testing"

// A year right after a verb directing attention to it ("taking 2005 day
// by day") is that year; a number followed by a unit is a duration,
// and a year after any other verb is no period.
func TestYearAfterAttentionVerb(t *testing.T) {
	cases := []struct {
		text string
		at   int // the token of the year
		year int // 0: no period is read there
	}{
		{"taking 2005 day by day", 1, 2005},
		{"considering 2005 week by week", 1, 2005},
		{"taking 2000 ms to arrive", 1, 0},
		{"taking 2000 seconds", 1, 0},
		{"sending 2005 messages", 1, 0},
		{"carve 2005 into weeks", 1, 2005},
		{"carve 2005 weeks", 1, 0},
	}
	for _, c := range cases {
		p := &timeParser{toks: tokenize(c.text), lo: utc(2004, 1, 1), hi: utc(2007, 1, 1)}
		w, ok, err := p.at(c.at)
		switch {
		case c.year == 0 && ok:
			t.Errorf("%q: read %q as a period", c.text, w.text)
		case c.year != 0 && (!ok || err != nil):
			t.Errorf("%q: no period read (%v)", c.text, err)
		case c.year != 0 && (w.start != utc(c.year, 1, 1) || w.end != utc(c.year+1, 1, 1) || w.prec != PrecYear):
			t.Errorf("%q: read [%s, %s) %s, want the year %d", c.text, FormatTime(w.start), FormatTime(w.end), w.prec, c.year)
		}
	}
}

// "Taking 2004 day by day": the year is the window and the buckets are
// days, not a duration of 2004 days.
func TestTakingYearDayByDay(t *testing.T) {
	env := Env{VtMin: utc(2004, 4, 15), VtMax: utc(2004, 10, 27)}
	r, err := Read("Taking 2004 day by day, how many bursts were there?", env)
	if err != nil {
		t.Fatal(err)
	}
	if r.Window == nil || r.Window.Start != utc(2004, 1, 1) || r.Window.End != utc(2005, 1, 1) || r.Bucket == nil || r.Bucket.Micros != usDay {
		t.Fatalf("read as %s, want 2004 in daily buckets", r.Line())
	}
}
