package reader

import (
	"fmt"
	"strconv"
)

// A maximum wait (doc.go, "Reach and paths"): a reach question may bound
// how long a message waits at each node before it goes on ("waiting at
// most an hour at each node", "if nobody sat on a message for longer
// than an hour"), which temporal_reachability reads as delta_max_wait.
// The bound is read only in the forms below; any other word about
// waiting is unknown, and refused.

// waitVerbs hold a message at a node: wait, sit on, hold, keep, delay.
var waitVerbs = map[string]bool{"wait": true, "waits": true, "waited": true, "waiting": true, "sat": true, "sit": true, "sits": true,
	"sitting": true, "held": true, "hold": true, "holds": true, "holding": true, "kept": true, "keep": true, "keeps": true,
	"keeping": true, "delayed": true, "delay": true, "delays": true, "delaying": true, "wait-time": true}

// waitAt reads a maximum-wait clause starting at i and returns the
// index after it and the bound in µs:
//
//	[if [we insist|require] [that]] nobody (no one, no node) … W … [for] longer (more) than D [before passing it on]
//	W … [for] at most (no longer than, no more than, up to) D [at each node]
//	a maximum (max) wait of D
//
// W is a wait verb; "…" holds only filler, event words and the path
// model, at most six words.
func (x *extractor) waitAt(i int) (int, int64, bool) {
	k := i
	neg := false
	switch l := x.tok(k).low; {
	case l == "nobody" || l == "none":
		neg, k = true, k+1
	case l == "no" && (x.tok(k+1).low == "one" || concept(x.tok(k+1).low) == cNodeNoun):
		neg, k = true, k+2
	case (l == "a" || l == "the") && (x.tok(k+1).low == "maximum" || x.tok(k+1).low == "max") && x.tok(k+2).low == "wait" && x.tok(k+3).low == "of":
		if d, ok := x.durStarting(k + 4); ok {
			return x.waitTail(d.j), d.us, true
		}
		return i, 0, false
	}
	// Up to six words before the wait verb (negative form), none after it
	// but its object.
	verb := -1
	for j := k; j < k+7 && j < len(x.toks); j++ {
		t := x.toks[j]
		if waitVerbs[t.low] {
			verb = j
			break
		}
		if !neg || t.used || t.kind != tWord || changers[t.low] != "" || !frameConcepts[concept(t.low)] || concept(t.low) == cSend {
			return i, 0, false
		}
	}
	if verb < 0 || !neg && verb != i {
		return i, 0, false
	}
	j := verb + 1
	for n := 0; n < 3 && (x.tok(j).low == "on" || x.tok(j).low == "onto" || x.tok(j).low == "it" || x.tok(j).low == "them" ||
		x.tok(j).low == "the" || x.tok(j).low == "a" || x.tok(j).low == "any" || concept(x.tok(j).low) == cEvent) && !x.tok(j).used; n++ {
		j++
	}
	if x.tok(j).low == "for" {
		j++
	}
	var lead int
	switch a, b, c := x.tok(j).low, x.tok(j+1).low, x.tok(j+2).low; {
	case neg && (a == "longer" || a == "more") && b == "than":
		lead = 2
	case !neg && a == "at" && b == "most", !neg && a == "up" && b == "to":
		lead = 2
	case !neg && (a == "no" || a == "not") && (b == "longer" || b == "more") && c == "than":
		lead = 3
	default:
		return i, 0, false
	}
	d, ok := x.durStarting(j + lead)
	if !ok {
		return i, 0, false
	}
	return x.waitTail(d.j), d.us, true
}

// durStarting is the duration slot that starts at k.
func (x *extractor) durStarting(k int) (durSlot, bool) {
	for _, d := range x.s.durs {
		if d.i == k {
			return d, true
		}
	}
	return durSlot{}, false
}

// waitTail reads what may follow a wait bound and only restates it: "at
// each node", "at every step", "before passing it on", "before
// forwarding it".
func (x *extractor) waitTail(k int) int {
	if x.tok(k).low == "at" && (x.tok(k+1).low == "each" || x.tok(k+1).low == "every") {
		if l := x.tok(k + 2).low; concept(l) == cNodeNoun || l == "step" || l == "hop" || l == "stop" {
			k += 3
		}
	}
	if x.tok(k).low == "before" {
		switch {
		case (x.tok(k+1).low == "passing" || x.tok(k+1).low == "handing") && x.tok(k+2).low == "it" && (x.tok(k+3).low == "on" || x.tok(k+3).low == "along"):
			k += 4
		case concept(x.tok(k+1).low) == cTimeOrder && x.tok(k+2).low == "it":
			k += 3
		}
	}
	return k
}

// waitLead is the start of "if we insist that", "if", "provided that",
// "as long as" right before a wait clause at i (i itself when none).
func (x *extractor) waitLead(i int) int {
	k := i
	if x.tok(k-1).low == "that" {
		k--
	}
	if v := x.tok(k - 1).low; (v == "insist" || v == "require" || v == "demand" || v == "assume") && (x.tok(k-2).low == "we" || x.tok(k-2).low == "you") {
		k -= 2
	}
	if l := x.tok(k - 1).low; l == "if" || l == "provided" || l == "assuming" {
		return k - 1
	}
	if x.tok(k-1).low == "with" {
		return k - 1
	}
	return i
}

// maxWait finds a maximum-wait clause and reads it into the slots.
func (x *extractor) maxWait() {
	for i := range x.toks {
		if x.toks[i].used {
			continue
		}
		end, us, ok := x.waitAt(i)
		if !ok {
			continue
		}
		start := x.waitLead(i)
		for k, d := range x.s.durs {
			if d.i < end && d.j > i {
				x.s.durs = append(x.s.durs[:k:k], x.s.durs[k+1:]...)
				break
			}
		}
		x.s.maxWait = us
		x.s.notes = append(x.s.notes, fmt.Sprintf("%q read as a wait of at most %s at each node", x.span(start, end), FormatDuration(us)))
		x.use(start, end)
		return
	}
}

// waitIntents read a maximum wait; any other question with one is refused.
var waitIntents = map[string]bool{"reach-count": true, "reach-first": true, "earliest-arrival": true, "latest-departure": true}

// maxWaitFits sets the reading's wait option, or says why it cannot.
func maxWaitFits(in *intent, us int64, r *Reading) string {
	if us == 0 {
		return ""
	}
	if !waitIntents[in.name] {
		return "a maximum wait at each node fits only reach, earliest-arrival and latest-departure questions"
	}
	r.Options["max_wait"] = strconv.FormatInt(us, 10)
	return ""
}

// waitText is the summary's words for the wait option.
func waitText(r *Reading) string {
	if r.Options["max_wait"] == "" {
		return ""
	}
	return ", waiting at most " + FormatDuration(parseInt(r.Options["max_wait"])) + " at each intermediate node"
}

// withWait adds the wait option to temporal_reachability arguments.
func withWait(r *Reading, args map[string]any) map[string]any {
	if mw := r.Options["max_wait"]; mw != "" {
		args["delta_max_wait"] = parseInt(mw)
	}
	return args
}
