package reader

import (
	"fmt"
)

// Belief-time slots: "as of transaction time T", "as the store believed
// on D", "now".

// validPreps introduce a valid time, never a belief time.
var validPreps = map[string]bool{"during": true, "between": true, "from": true, "since": true, "until": true, "till": true,
	"through": true, "throughout": true, "over": true, "within": true}

var beliefWords = map[string]bool{"transaction": true, "tt": true, "belief": true, "believed": true, "believing": true,
	"recorded": true, "record": true, "records": true, "knew": true, "known": true, "knowledge": true, "on-record": true}

// beliefAt reads a belief-time phrase starting at i: "as of transaction
// time T", "as the store believed on D", "believing what we believed at
// T", "as of belief time T", "before the correction at T", "under current
// belief", "now", "currently". It returns the index after the phrase (i
// when there is none).
func (x *extractor) beliefAt(i int) (int, error) {
	t := x.tok(i)
	switch t.low {
	case "now", "currently", "presently":
		if err := x.beliefNow(t.text); err != nil {
			return i, err
		}
		t.used = true
		return i + 1, nil
	case "at":
		// "at present": the store's latest belief.
		if x.tok(i+1).low == "present" && !x.tok(i+1).used {
			if err := x.beliefNow(x.span(i, i+2)); err != nil {
				return i, err
			}
			x.use(i, i+2)
			return i + 2, nil
		}
	case "current", "latest":
		if n := x.tok(i + 1).low; n == "belief" || n == "beliefs" || n == "knowledge" || n == "records" || n == "state" {
			if err := x.beliefNow(x.span(i, i+2)); err != nil {
				return i, err
			}
			x.use(i, i+2)
			return i + 2, nil
		}
	}
	// Find a time within the next few tokens whose lead-in names belief.
	cue, before := false, false
	end := min(len(x.toks), i+8)
	for k := i; k < end; k++ {
		l := x.tok(k).low
		if beliefWords[l] || x.storeAsItWas(i, k) {
			cue = true
		}
		if l == "correction" || l == "corrected" || l == "revision" || l == "revised" || l == "fix" {
			if x.tok(i).low == "before" || x.tok(i).low == "just" {
				before, cue = true, true
			}
		}
		x.asBelief = cue
		w, ok, err := x.at(k)
		x.asBelief = false
		if ok && k > i {
			if !cue {
				return i, nil
			}
			if err != nil {
				return i, err
			}
			// "in the record during May 1970": a time after a valid-time
			// preposition is the window, whatever came before it.
			if p, _ := x.prevWord(k); validPreps[p] {
				return i, nil
			}
			if w.boundary {
				return i, &Refusal{Problem: fmt.Sprintf("a belief at %q: its last microsecond or the one after? write the time", w.text), Missing: []string{"time"}}
			}
			if l0 := x.tok(i).low; l0 != "as" && l0 != "before" && l0 != "just" && l0 != "believing" && l0 != "according" &&
				l0 != "transaction" && l0 != "belief" && l0 != "with" && l0 != "under" && l0 != "at" && l0 != "in" && l0 != "on" {
				return i, nil
			}
			tt := w.start
			// "as it was before 1 May": the belief before that day began.
			if p, _ := x.prevWord(k); p == "before" && k > i+1 {
				before = true
			}
			if before {
				tt = w.start - 1
			} else if w.prec != PrecInstant {
				// A belief "on May 3" is what the store held at the end of that day.
				tt = w.end - 1
			}
			if x.s.belief != nil && x.s.belief.Now {
				return i, &Refusal{Problem: fmt.Sprintf("the question asks for the latest belief (%q) and for the belief at %q", x.s.belief.Written, x.span(i, w.j))}
			}
			x.s.belief = &Belief{AsOfTT: tt, Written: x.span(i, w.j), Before: before}
			if w.inferred != "" {
				x.s.notes = append(x.s.notes, w.text+": "+w.inferred)
			}
			x.use(i, w.j)
			return w.j, nil
		} else if x.tok(k).used || x.tok(k).text == "?" || x.tok(k).text == ";" {
			return i, nil
		}
	}
	return i, nil
}

// beliefNow records a written latest belief ("now", "at present"); one
// beside a written earlier belief time is refused.
func (x *extractor) beliefNow(written string) error {
	if b := x.s.belief; b != nil && !b.Now {
		return &Refusal{Problem: fmt.Sprintf("the question asks for the belief at %q and for the latest belief (%q)", b.Written, written)}
	}
	if x.s.belief == nil {
		x.s.belief = &Belief{Now: true, Written: written}
	}
	return nil
}
