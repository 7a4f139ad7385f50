package reader

import "fmt"

// sinceQuantifiers, sinceAux and sinceWrites make up "including anything
// (that has been) recovered since": every write after some time.
var (
	sinceQuantifiers = map[string]bool{"anything": true, "everything": true, "all": true, "whatever": true}
	sinceAux         = map[string]bool{"that": true, "which": true, "was": true, "were": true, "has": true, "have": true, "had": true, "been": true}
	sinceWrites      = map[string]bool{"recovered": true, "restored": true, "reinstated": true, "corrected": true, "amended": true,
		"revised": true, "updated": true, "fixed": true, "entered": true, "added": true, "loaded": true}
)

// writtenSince reads a closing "including anything recovered since"
// ("with everything corrected since then"): it asks for every write up
// to now, which the latest belief holds by definition, so beside the
// latest belief (written or not) it restates it, and is ignored and
// listed; beside an earlier belief time it asks for writes that belief
// does not hold, and is refused. A belief time read later (a time after
// every valid time) is checked in fill.
func (x *extractor) writtenSince() error {
	for i, t := range x.toks {
		if t.used || t.low != "including" && t.low != "with" {
			continue
		}
		k := i + 1
		if !sinceQuantifiers[x.tok(k).low] {
			continue
		}
		k++
		for sinceAux[x.tok(k).low] {
			k++
		}
		if !sinceWrites[x.tok(k).low] || x.tok(k+1).low != "since" {
			continue
		}
		k += 2
		if x.tok(k).low == "then" {
			k++
		}
		if !x.clauseEnd(k) {
			continue
		}
		if b := x.s.belief; b != nil && !b.Now {
			return &Refusal{Problem: fmt.Sprintf("the question reads the store as it was at %q, but %q asks for what was written after that", b.Written, x.span(i, k)), Missing: []string{"belief time"}}
		}
		x.ignore(i, k)
		x.sinceLatest = x.span(i, k)
	}
	return nil
}
