package reader

import (
	"errors"
	"testing"
)

// The time parser, started at every token of any text, never panics;
// what it reads is a non-empty period of known precision made of tokens
// it consumed, and what it cannot read is a date error naming the text.
func FuzzTimeParser(f *testing.F) {
	for _, s := range []string{
		"the week beginning Monday the third of May 2004 (seven days, Monday to Sunday)",
		"from 08:00 UTC on Monday 3 May 2004 (that instant included) up to, but not including, 08:00 on the Tuesday",
		"between nine in the morning and five in the afternoon (UTC) on 3 May 2004",
		"a quarter past eight on the evening of 1 December 2026",
		"starting on 3 May 2004, before the end of Friday the 7th",
		"the first two weeks of June 2004 (6/1 - 6/14), the last 10 days of June",
		"Mon 5/3/04 through Fri 5/7/04, over May to July 2004",
		"midnight at the end of the Friday (midnight both) Tuesday week",
		"the first 400 days of 2004 end of end of the the Friday the 31st 99/99/99 /1/ 1/",
		"June 2004, Seoul time (that is UTC+9, no summer time in June) in New York time (UTC",
		"Tuesday week, counting from Thursday 6 May 2004 (so the Tuesday after next, the 18th)",
		"the week of 07/06/2004 (Monday to Friday) before June 2004 is over, ten past eight",
		"between seven o'clock and 11:30 on 9 June 2004, as of transaction time 03/11/2026",
	} {
		f.Add(s)
	}
	lo, hi := utc(2004, 4, 15), utc(2004, 10, 27)
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 600 {
			return
		}
		toks := holidays(joinHyphenated(tokenize(text)))
		p := &timeParser{toks: toks, lo: lo, hi: hi, firstTT: utc(2026, 6, 1), asBelief: len(text)%2 == 0}
		for i := range toks {
			w, ok, err := p.at(i)
			if err != nil {
				var de *dateErr
				if !errors.As(err, &de) || de.Error() == "" {
					t.Fatalf("%q at token %d: error %T %v is not a date error", text, i, err, err)
				}
				continue
			}
			if !ok {
				continue
			}
			switch w.prec {
			case PrecInstant, PrecDay, PrecWeek, PrecMonth, PrecQuarter, PrecYear:
			default:
				t.Fatalf("%q at token %d: precision %q", text, i, w.prec)
			}
			if w.end <= w.start || w.j <= w.i || w.j > len(toks) || w.i < 0 || w.text == "" {
				t.Fatalf("%q at token %d: read %+v", text, i, w)
			}
			if w.boundary && w.end != w.start+1 {
				t.Fatalf("%q at token %d: a boundary %+v is not an instant", text, i, w)
			}
		}
		// The whole reader turns whatever it cannot read into a refusal.
		if _, err := Read(text, Env{VtMin: lo, VtMax: hi, FirstTT: utc(2026, 6, 1), IsNode: func(u string) bool { return uidLikeRE.MatchString(u) }}); err != nil {
			var rf *Refusal
			if !errors.As(err, &rf) {
				t.Fatalf("%q: error %T %v is not a refusal", text, err, err)
			}
		}
	})
}
