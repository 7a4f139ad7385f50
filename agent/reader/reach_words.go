package reader

import (
	"fmt"
	"strings"
	"time"
)

// The words of time-respecting reachability (doc.go, "Reach and paths").
// Each comes from WordNet: the synsets of "reach" (v.1 "reach, make,
// attain, hit, arrive at, gain"; "get to", "get through to", "find one's
// way", "make one's way"), of "flow" (v.1, "move along, of liquids"), of
// "downstream" (adv., "in the direction of a stream's current"), of
// "forward" (v.1 "send onward") and "relay" (v.1, "pass along"), and of
// "indirectly" (adv., "not in a forthright manner"; "through others",
// "via intermediaries" are the review's spellings of its sense).
//
// Words that name how a message travels (forwarding, relaying,
// influence spreading) describe the model of a reach
// question, time-respecting paths, and are read as cTimeOrder: only
// reach, path and motif questions accept that concept, so "how many
// messages did n5 forward" (forwarded messages, which the store does not
// record) is refused, never read as a count of sent messages.
var reachPhrases = []struct{ words, cpt string }{
	{"within reach of", cReach}, {"within reach", cReach}, {"in reach of", cReach},
	{"lay within reach of", cReach}, {"lie within reach of", cReach}, {"lies within reach of", cReach}, {"lying within reach of", cReach},
	{"found its way", cReach}, {"find its way", cReach}, {"finds its way", cReach}, {"finding its way", cReach},
	{"made its way", cReach}, {"make its way", cReach}, {"makes its way", cReach},
	{"found their way", cReach}, {"find their way", cReach}, {"made their way", cReach},
	{"downstream set", cReach},
	{"directly or indirectly", cReach},
	{"respect the order", cTimeOrder}, {"respects the order", cTimeOrder}, {"respecting the order", cTimeOrder},
	{"pass along", cReach}, {"passed along", cReach}, {"passes along", cReach}, {"passing along", cReach},
	{"along the way", cTimeOrder}, {"along the chain", cTimeOrder},
	{"as well as", ""},
	// word n.4, "news, intelligence, tidings": what travels.
	{"word from", cEvent}, {"get word to", cReach}, {"got word to", cReach}, {"gets word to", cReach}, {"getting word to", cReach},
}

// waysPhrases count paths ("in how many different ways"); they go
// before "how many", which would otherwise match first.
var waysPhrases = []struct{ words, cpt string }{
	{"how many ways", cHowMany + "+" + cPath}, {"how many different ways", cHowMany + "+" + cPath},
	{"how many distinct ways", cHowMany + "+" + cPath}, {"how many possible ways", cHowMany + "+" + cPath},
}

// viaOthers are the routes through other nodes ("through someone
// else"); read as reach only after a hedge ("possibly through others")
// or "directly or", which include the direct path. Alone, "n5 reaches
// via others" may exclude it, and is refused.
var viaOthers = []string{"through others", "via others", "through someone else", "via someone else", "through intermediaries",
	"via intermediaries", "through other people", "via other people"}

func init() {
	for _, v := range viaOthers {
		for _, h := range []string{"possibly", "perhaps", "maybe", "directly or", "whether directly or"} {
			reachPhrases = append(reachPhrases, struct{ words, cpt string }{h + " " + v, cReach})
		}
	}
	for _, v := range viaOthers {
		reachPhrases = append(reachPhrases, struct{ words, cpt string }{v, cUnsupported})
	}
	phrases = append(append(append([]struct{ words, cpt string }(nil), waysPhrases...), phrases...), reachPhrases...)
	addWords(cReach, "downstream flow flows flowed flowing")
	addWords(cTimeOrder, "forward forwards forwarded forwarding relay relays relayed relaying onward onwards influence")

}

// relDepartures are the words that, after "still", name the arrival a
// departure must still make: "could send and still reach n5".
func (x *extractor) stillReaches(i int) bool {
	for k := i + 1; k <= i+4 && k < len(x.toks); k++ {
		t := x.toks[k]
		if t.used || t.kind != tWord {
			return false
		}
		if concept(t.low) == cReach || t.low == "get" || t.low == "gets" {
			return true
		}
	}
	return false
}

// pathFrames reads, before any other word, the words that frame a reach
// question rather than restrict it (doc.go, "Reach and paths"): "still"
// before an arrival in a latest-departure question, a conditional clause
// that only sets the question's own source, start or path model, "at
// which" after a time noun, and a relation noun right before a reach
// participle ("the first counterparty reached").
func (x *extractor) pathFrames() {
	x.maxWait()
	latest := false
	for k, t := range x.toks {
		if !t.used && t.kind == tWord && (concept(t.low) == cLatest || t.low == "how" && x.tok(k+1).low == "late") {
			latest = true
		}
	}
	for i, t := range x.toks {
		if t.used || t.kind != tWord {
			continue
		}
		switch {
		case t.low == "many" && x.tok(i-1).low == "how":
			// "how many (distinct, time-respecting) chains": paths counted.
			if k := x.countedChains(i + 1); k > 0 {
				x.mark(cPath, k)
			}
		case t.low == "in" && x.tok(i+1).low == "time" && !x.tok(i+1).used && latest && x.tok(i-1).low != "forward" && x.tok(i+2).kind == tPunct:
			// "… and still get it to n7 in time": before the window ends,
			// which a latest departure means.
			x.use(i, i+2)
			x.s.ignored = append(x.s.ignored, "in time")
		case t.low == "only" && x.reachSetAfter(i+1):
			// "considering only the nodes n5 can reach": the among-reached
			// set the question reads anyway.
			t.used = true
			x.s.ignored = append(x.s.ignored, t.text)
		case t.low == "moment" && (concept(x.tok(i-1).low) == cFirst || concept(x.tok(i-1).low) == cLatest ||
			x.tok(i-1).low == "possible" && concept(x.tok(i-2).low) == cLatest):
			// "the earliest moment": a time asked for, as "the earliest time".
			x.mark(cTimeNoun, i)
		case (t.low == "left" || t.low == "leave" || t.low == "leaves") && x.tok(i+1).low == "it" && latest:
			// "how late could n5 have left it to send …": the idiom of a
			// late departure. "left a message" is a message sent.
			x.use(i, i+2)
			x.mark(cDepart, i)
		case concept(t.low) == cDepart && x.eventObject(i+1):
			// "leave a message for n7": a message sent, not a departure.
			t.used = true
			x.mark(cSend, i)
		case t.low == "how" && (x.tok(i+1).low == "fast" || x.tok(i+1).low == "quickly") && x.asksArrivalTime():
			// "how fast …? need the first-arrival timestamp": speed alone
			// is an elapsed time or a time; the arrival named settles it.
			x.use(i, i+2)
			x.mark(cFirst, i)
			x.s.ignored = append(x.s.ignored, x.span(i, i+2))
		case t.low == "still" && latest && x.stillReaches(i):
			// "the latest n5 could send and still reach n7": the departure.
			t.used = true
			x.mark(cDepart, i)
		case t.low == "before":
			if pe, j, ok := x.periodEndAt(i); ok {
				x.use(i, j)
				x.s.periodEnds = append(x.s.periodEnds, pe)
			}
		case conditionals[t.low] && x.framingClause(i):
			t.used = true
			x.s.ignored = append(x.s.ignored, t.text)
			x.useFramePhrases(i + 1)
		case t.low == "at" && x.tok(i+1).low == "which" && x.timeNounBefore(i) && !x.tok(i+1).used:
			// "the earliest time at which …": a relative, not a question.
			x.use(i, i+2)
		case relPreps[t.low] && x.tok(i+1).low == "which" && x.relativeAfter(i+2) && i > 0 && x.toks[i-1].kind != tPunct:
			// "the chains by which something …", "the order in which they
			// were sent": a relative clause.
			x.use(i, i+2)
		case (t.low == "who" || t.low == "whom" || t.low == "that") && i > 0 && concept(x.toks[i-1].low) == cNodeNoun && x.nodeAt(i+1):
			// "the people who n62 can reach": a relative, whose clause
			// the reach concept reads.
			t.used = true
		case t.low == "only" && (x.modelAt(i+1) > 0 || x.modelBefore(i)):
			// "time-respecting only": every reach path is; restates.
			t.used = true
			x.s.ignored = append(x.s.ignored, t.text)
		case t.low == "when" && i > 0 && x.toks[i-1].text == "," && x.framingClause(i) && x.framingOnlyModel(i):
			// ", when mails can be passed along": the path model again.
			t.used = true
			x.s.ignored = append(x.s.ignored, t.text)
		case concept(t.low) == cPartner && x.tok(i+1).kind == tWord && !x.tok(i+1).used && concept(x.tok(i+1).low) == cReach &&
			strings.HasSuffix(x.tok(i+1).low, "ed"):
			// "the first counterparty reached from n5": the nodes reached.
			t.used = true
			x.mark(cNodeNoun, i)
		}
	}
}

// countedChains is the index of "chain(s)" as the noun counted after
// "how many" at k, past adjectives of a path, or 0.
func (x *extractor) countedChains(k int) int {
	for ; k < len(x.toks); k++ {
		switch x.toks[k].low {
		case "chain", "chains":
			return k
		case "distinct", "different", "possible", "separate", "time", "-", "respecting", "ordered":
		default:
			return 0
		}
	}
	return 0
}

// reachSetAfter reports a node noun followed by the nodes a node can
// reach at k: "the staff n5 could reach", "accounts reachable from n5".
func (x *extractor) reachSetAfter(k int) bool {
	if x.tok(k).low == "the" || x.tok(k).low == "those" {
		k++
	}
	if concept(x.tok(k).low) != cNodeNoun {
		return false
	}
	k++
	if l := x.tok(k).low; l == "who" || l == "that" || l == "whom" {
		k++
	}
	if x.nodeAt(k) {
		for j := k + 1; j <= k+3; j++ {
			if t := x.tok(j); t.kind != tWord || t.used {
				return false
			} else if concept(t.low) == cReach {
				return true
			} else if !verbAux[t.low] {
				return false
			}
		}
		return false
	}
	return x.tok(k).low == "reachable" && x.tok(k+1).low == "from" && x.nodeAt(k+2)
}

// timeNounBefore reports a time noun before i, past punctuation, the
// words of a time slot and filler ("the earliest moment, before D, at
// which").
func (x *extractor) timeNounBefore(i int) bool {
	for k := i - 1; k >= 0 && k >= i-14; k-- {
		t := x.toks[k]
		if timeNouns[t.low] {
			return true
		}
		if t.kind != tPunct && !t.used && concept(t.low) != "" {
			return false
		}
	}
	return false
}

// eventObject reports an event noun as the object at k ("a message",
// "an e-mail", "ratings").
func (x *extractor) eventObject(k int) bool {
	if l := x.tok(k).low; l == "a" || l == "an" || l == "the" || l == "some" || l == "any" {
		k++
	}
	t := x.tok(k)
	return t.kind == tWord && !t.used && concept(t.low) == cEvent
}

// asksArrivalTime reports "first (earliest) arrival" written in the
// question, with "time" or "timestamp" after it.
func (x *extractor) asksArrivalTime() bool {
	for k := range x.toks {
		if x.tok(k).low != "arrival" || (x.tok(k-1).low != "first" && x.tok(k-1).low != "earliest" && !(x.tok(k-1).text == "-" && x.tok(k-2).low == "first")) {
			continue
		}
		if l := x.tok(k + 1).low; l == "time" || l == "timestamp" {
			return true
		}
	}
	return false
}

var relPreps = map[string]bool{"by": true, "in": true, "through": true, "along": true, "via": true}

// relativeAfter reports whether the word at k opens a clause (a pronoun,
// "something", a node, an event word) rather than naming what "which"
// asks for ("by which node").
func (x *extractor) relativeAfter(k int) bool {
	t := x.tok(k)
	switch t.low {
	case "they", "it", "something", "anything", "someone", "mail", "messages", "e-mails", "emails":
		return true
	}
	return x.nodeAt(k)
}

// modelAt is the length of a time-order phrase at k ("time-respecting",
// "time ordered", "forward in time"), 0 when none.
func (x *extractor) modelAt(k int) int {
	for _, ws := range [][]string{{"time", "-", "respecting"}, {"time", "respecting"}, {"time", "-", "ordered"}, {"time", "ordered"}, {"forward", "in", "time"}} {
		ok := true
		for j, w := range ws {
			if x.tok(k+j).low != w {
				ok = false
				break
			}
		}
		if ok {
			return len(ws)
		}
	}
	return 0
}

// modelBefore reports a time-order phrase ending right before i.
func (x *extractor) modelBefore(i int) bool {
	for _, n := range []int{2, 3} {
		if i-n >= 0 && x.modelAt(i-n) == n {
			return true
		}
	}
	return false
}

// framingOnlyModel reports whether the clause after i names no slot:
// a "when" clause with a time or a node is a question of its own.
func (x *extractor) framingOnlyModel(i int) bool {
	for k := i + 1; k < len(x.toks); k++ {
		t := x.toks[k]
		if s := t.text; s == "," || s == "?" || s == "." {
			return true
		}
		if t.used {
			return false
		}
	}
	return true
}

var conditionals = map[string]bool{"if": true, "supposing": true, "suppose": true, "assuming": true}

var timeNouns = map[string]bool{"time": true, "moment": true, "instant": true, "point": true, "timestamp": true}

// frameConcepts are what a conditional clause may hold and still only
// frame the question: node nouns, event words and the path model.
var frameConcepts = map[string]bool{"": true, cEvent: true, cTimeOrder: true, cNodeNoun: true, cSend: true}

// framingClause reports whether the clause after the conditional at i
// (to the next comma or the end of the sentence) only restates slots of
// the question: its node, its start time or window, its path model
// ("if n5 starts on D", "if it was forwarded along the way", "if we
// look only at D"). Any other word in it (a verb of sending or
// receiving, a reach, a comparison, a negation, an unknown word) is a
// condition, and the conditional stays a refusal.
func (x *extractor) framingClause(i int) bool {
	end := i + 1
	for end < len(x.toks) {
		if s := x.toks[end].text; s == "," || s == "?" || s == "." || s == ";" || s == "!" {
			break
		}
		end++
	}
	if end == i+1 {
		return false
	}
	if !x.reachOutside(i, end) {
		return false
	}
	frames := false
	for k := i + 1; k < end; k++ {
		t := x.toks[k]
		if t.used {
			// A node or a time of the question; a deadline sets where
			// the window ends ("if the deadline is the end of D").
			frames = frames || t.low == "deadline" || t.low == "cutoff"
			continue
		}
		if t.kind == tPunct {
			continue
		}
		if n := x.framePhrase(k, end); n > 0 {
			frames = true
			k += n - 1
			continue
		}
		if t.kind != tWord || changers[t.low] != "" {
			return false
		}
		c, ok := lookup(t.low)
		if !ok && !isDiscourse(t.low) {
			return false
		}
		if !frameConcepts[c] {
			return false
		}
		if c == cSend && !startVerbs[x.tok(k-1).low] {
			return false // "if n5 sent …": a condition; "began writing" is a start
		}
		if c == cTimeOrder || startVerbs[t.low] {
			frames = true
		}
	}
	// "if n5 starts on D" with no end written anywhere else: reach by the
	// end of D, or ever after? Refused.
	inside, outside, start := 0, 0, false
	for _, ts := range x.s.times {
		if ts.w.i > i && ts.w.i < end {
			inside++
			start = start || ts.startVerb
		} else {
			outside++
		}
	}
	return frames && !(start && outside == 0)
}

// reachOutside reports whether the question outside tokens [i, end)
// asks about reach or paths: a framing clause frames only such a
// question.
func (x *extractor) reachOutside(i, end int) bool {
	for k, t := range x.toks {
		if k >= i && k < end || t.used || t.kind != tWord {
			continue
		}
		switch concept(t.low) {
		case cReach, cPath, cTimeOrder, cDepart:
			return true
		}
		if getForms[t.low] && (x.tok(k+1).low == "to" || x.tok(k+1).low == "through") {
			return true
		}
		// "the latest n5 could send and still get word to n7": a departure.
		if t.low == "still" && x.stillReaches(k) && x.latestOutside(i, end) {
			return true
		}
	}
	return false
}

// latestOutside reports whether a word outside tokens [i, end) asks for
// the latest time ("latest", "last", "how late").
func (x *extractor) latestOutside(i, end int) bool {
	for k, t := range x.toks {
		if (k < i || k >= end) && !t.used && t.kind == tWord && (concept(t.low) == cLatest || t.low == "how" && x.tok(k+1).low == "late") {
			return true
		}
	}
	return false
}

// framePhrases are what a framing clause may say in several words: a
// look at the window, a start, the path model.
var framePhrases = []string{"look only at", "looking only at", "look at", "looking at", "set off", "sets off", "kick off", "kicks off"}

// useFramePhrases marks the framing phrases of the clause at k read
// ("look only at" D, "set off"), listing them as ignored.
func (x *extractor) useFramePhrases(k int) {
	for ; k < len(x.toks); k++ {
		if s := x.toks[k].text; s == "," || s == "?" || s == "." || s == ";" || s == "!" {
			return
		}
		if n := x.framePhraseOnly(k); n > 0 {
			x.s.ignored = append(x.s.ignored, x.span(k, k+n))
			x.use(k, k+n)
			// "look at P": P is the window looked at, not an instant.
			for j := range x.s.times {
				if ts := &x.s.times[j]; ts.w.i == k+n && ts.prep == "at" {
					ts.prep = "during"
				}
			}
			k += n - 1
		}
	}
}

// framePhraseOnly is the length of one of framePhrases at k, or 0.
func (x *extractor) framePhraseOnly(k int) int {
	for _, ph := range framePhrases {
		ws := strings.Fields(ph)
		ok := k+len(ws) <= len(x.toks)
		for j := 0; ok && j < len(ws); j++ {
			t := x.toks[k+j]
			ok = !t.used && t.low == ws[j]
		}
		if ok {
			return len(ws)
		}
	}
	return 0
}

// framePhrase is the length of a framing phrase or path-model phrase at
// k (0 when none).
func (x *extractor) framePhrase(k, end int) int {
	match := func(ph string) int {
		ws := strings.Fields(ph)
		if k+len(ws) > end {
			return 0
		}
		for j, w := range ws {
			if t := x.toks[k+j]; t.used || t.low != w {
				return 0
			}
		}
		return len(ws)
	}
	if n := x.framePhraseOnly(k); n > 0 && k+n <= end {
		return n
	}
	for _, ph := range reachPhrases {
		if ph.cpt == cTimeOrder || strings.HasPrefix(ph.words, "pass") {
			if n := match(ph.words); n > 0 {
				return n
			}
		}
	}
	return 0
}

// chainBoundAt reads a bound on a path's length written in its events,
// in a question about chains or paths: "chains of at most three
// e-mails", "no more than 3 messages", "up to four ratings", "one or two
// e-mails", "3 messages or fewer". It returns the bound and the index
// after it. Like "more than N hops", "more than N messages" is no bound.
func (x *extractor) chainBoundAt(i int) (int64, int, bool) {
	if !x.aboutChains() {
		return 0, i, false
	}
	step := func(k int) bool {
		t := x.tok(k)
		return t.kind == tWord && !t.used && (concept(t.low) == cEvent || chainSteps[t.low])
	}
	t := x.tok(i)
	lead := 0
	switch {
	case t.low == "at" && x.tok(i+1).low == "most":
		lead = 2
	case t.low == "up" && x.tok(i+1).low == "to":
		lead = 2
	case (t.low == "no" || t.low == "not") && x.tok(i+1).low == "more" && x.tok(i+2).low == "than":
		lead = 3
	case t.low == "one" && x.tok(i+1).low == "or":
		// "one or two e-mails": one to two.
		if n, ok := x.count(i + 2); ok && n >= 2 && step(i+3) {
			return n, i + 4, true
		}
		return 0, i, false
	}
	if lead > 0 {
		if n, ok := x.count(i + lead); ok && step(i+lead+1) {
			return n, i + lead + 2, true
		}
		return 0, i, false
	}
	// "3 messages or fewer", "three e-mails at most".
	if n, ok := x.count(i); ok && step(i+1) {
		switch {
		case x.tok(i+2).low == "or" && (x.tok(i+3).low == "fewer" || x.tok(i+3).low == "less"):
			return n, i + 4, true
		case x.tok(i+2).low == "at" && x.tok(i+3).low == "most":
			return n, i + 4, true
		}
	}
	return 0, i, false
}

// chainSteps are nouns for one step of a path.
var chainSteps = map[string]bool{"step": true, "steps": true, "leg": true, "legs": true, "link": true, "links": true}

// aboutChains reports whether the question names chains, paths or
// routes, where a count of events bounds a path's length.
func (x *extractor) aboutChains() bool {
	for k, t := range x.toks {
		switch t.low {
		case "chain", "chains", "path", "paths", "route", "routes":
			return true
		case "ways":
			if x.tok(k-1).low == "many" || x.tok(k-1).low == "different" || x.tok(k-1).low == "distinct" {
				return true
			}
		}
	}
	return false
}

// periodEnd is "before the day was over", "before the week is out": an
// arrival deadline that restates the window's end.
type periodEnd struct {
	period  string
	written string
}

// periodEndAt reads "before the P is (was) over (out, done, finished)"
// at i, P a day, week, month or year.
func (x *extractor) periodEndAt(i int) (periodEnd, int, bool) {
	if x.tok(i).low != "before" || x.tok(i+1).low != "the" {
		return periodEnd{}, i, false
	}
	p := x.tok(i + 2).low
	if p != "day" && p != "week" && p != "month" && p != "year" {
		return periodEnd{}, i, false
	}
	if v := x.tok(i + 3).low; v != "is" && v != "was" {
		return periodEnd{}, i, false
	}
	switch x.tok(i + 4).low {
	case "over", "out", "done", "finished", "through":
	default:
		return periodEnd{}, i, false
	}
	return periodEnd{period: p, written: x.span(i, i+5)}, i + 5, true
}

// periodEndFits checks that a written deadline restates the window: "the
// day" must be a window of one UTC day, "the week" one of two to seven
// whole days (a working week too), "the month" one calendar month, "the
// year" one calendar year.
func periodEndFits(pe periodEnd, w *Window) string {
	if w == nil {
		return fmt.Sprintf("%q points at a window, but this question takes none", pe.written)
	}
	a, b := time.UnixMicro(w.Start).UTC(), time.UnixMicro(w.End).UTC()
	days := (w.End - w.Start) / usDay
	whole := w.Start%usDay == 0 && w.End%usDay == 0
	ok := false
	switch pe.period {
	case "day":
		ok = whole && days == 1
	case "week":
		ok = whole && days >= 2 && days <= 7
	case "month":
		ok = whole && a.Day() == 1 && a.AddDate(0, 1, 0).Equal(b)
	case "year":
		ok = whole && a.YearDay() == 1 && a.AddDate(1, 0, 0).Equal(b)
	}
	if !ok {
		return fmt.Sprintf("%q does not restate the window [%s, %s); write the deadline as a time", pe.written, w.StartText, w.EndText)
	}
	return ""
}

// verbCue gives a node of a two-node path question the role its own
// verb names when no preposition did: the subject of a receiving verb is
// where paths end ("the earliest n7 could have received something n5
// sent"), the subject of a sending or leaving verb where they start. A
// participle followed by "by" or "from" is passive and gives none.
func (x *extractor) verbCue(in *intent, n nodeSlot) nodeSlot {
	if in.name != "earliest-arrival" && in.name != "latest-departure" && in.name != "path-count" {
		return n
	}
	return x.verbRole(n)
}

// verbRole is verbCue for any question: suggestions use it to keep the
// question's direction.
func (x *extractor) verbRole(n nodeSlot) nodeSlot {
	if n.cue != "" {
		return n
	}
	for k := n.i + 1; k <= n.i+5 && k < len(x.toks); k++ {
		t := x.toks[k]
		if verbAux[t.low] || t.text == "," {
			continue
		}
		if next := x.tok(k + 1).low; t.kind != tWord || next == "by" || next == "from" {
			return n
		}
		switch concept(t.low) {
		case cReceive:
			n.cue = "dst"
		case cSend, cDepart:
			n.cue = "src"
		}
		return n
	}
	return n
}

// verbAux may stand between a node and its verb.
var verbAux = map[string]bool{"could": true, "can": true, "would": true, "might": true, "may": true, "have": true, "has": true,
	"had": true, "be": true, "been": true, "ever": true, "still": true, "first": true, "however": true, "indirectly": true}
