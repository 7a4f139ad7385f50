package reader

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// slots is everything typed a question holds, before an intent is chosen.
type slots struct {
	nodes     []nodeSlot
	times     []timeSlot
	durs      []durSlot
	belief    *Belief
	k         int64      // "top 5": 0 when not given
	rank      int64      // "the second-busiest": 0 when not given
	threshold *threshold // "more than five messages": nil when not given
	periods   int64      // "counting every one of the 31 days": 0 when not given
	kText     string
	z         float64 // burst threshold, 0 when not given
	history   int64   // burst history length in buckets, 0 when not given
	maxHops   int64
	concepts  map[string]int // concept → first token index
	notes     []string
	ignored   []string // words read as carrying no intent
	// eventKind is a word naming one kind of event on a store with
	// several relation types ("" when there is none).
	eventKind string
	// dayRanges are weekday ranges written beside a window ("(Monday to
	// Friday)"), which must name its first and last days.
	dayRanges []dayRange
	// zone is a fixed offset from UTC written in the question ("UTC+9").
	zone *zoneSlot
	// periodEnds are deadlines that restate the window's end ("before
	// the day was over"), which must name the window's own period.
	periodEnds []periodEnd
	// maxWait bounds the wait at each node of a reach path (µs, 0 for none).
	maxWait int64
}

// dayRange is "Monday to Friday" restating a window's first and last days.
type dayRange struct {
	first, last time.Weekday
	written     string
}

// dayRangeAt reads a weekday range beside a time at i: "(Monday to
// Friday)", ", Monday to Sunday inclusive", "Mon–Fri". A weekday followed
// by a day number is a date, not a restatement, and is left alone.
func (x *extractor) dayRangeAt(i int) (dayRange, int, bool) {
	k, paren := i, false
	switch x.tok(k).text {
	case "(":
		k, paren = k+1, true
	case ",":
		k++
	}
	a, ok1 := weekdays[x.tok(k).low]
	conn := x.tok(k + 1).low
	b, ok2 := weekdays[x.tok(k+2).low]
	if !ok1 || !ok2 || x.tok(k).kind != tWord || x.tok(k+2).kind != tWord ||
		conn != "to" && conn != "through" && conn != "thru" && conn != "until" && conn != "till" && conn != "-" && conn != "–" {
		return dayRange{}, i, false
	}
	e := k + 3
	if n := x.tok(e); n.kind == tNum || n.low == "the" || dayOrdinals[n.low] > 0 {
		return dayRange{}, i, false
	}
	e = x.inclusiveAt(e)
	if paren {
		if x.tok(e).text != ")" {
			return dayRange{}, i, false
		}
		e++
	}
	return dayRange{first: a, last: b, written: x.span(k, k+3)}, e, true
}

type nodeSlot struct {
	written string
	uid     string // "" for a name to resolve
	cue     string // "src", "dst" or "" from the words before it
	i       int
}

type timeSlot struct {
	w         when
	prep      string // the connective before it: from, to, through, between, and, since, until, in, at, on, ..
	i         int
	startVerb bool // "on D" after a start verb ("began on D"): a start if an end is written
}

type durSlot struct {
	us      int64
	written string
	role    string // "bucket", "delta" or "" (any)
	i, j    int    // tokens [i, j)
	taken   bool   // read as a window's length
	unit    string // calendar buckets (hour, day, week, month, year), not a fixed width
}

var uidLikeRE = regexp.MustCompile(`^n\d+$`)

// extractor pulls typed slots out of tokens, marking what it consumed.
type extractor struct {
	timeParser
	env Env
	s   *slots
}

func (x *extractor) use(i, j int) {
	if i < 0 {
		i = 0
	}
	for k := i; k < j && k < len(x.toks); k++ {
		x.toks[k].used = true
	}
}

// prevWord is the nearest word before i that is not an article.
func (x *extractor) prevWord(i int) (string, int) {
	for k := i - 1; k >= 0; k-- {
		t := x.toks[k]
		if t.kind == tPunct && t.text != "(" {
			continue
		}
		if t.low == "the" || t.low == "a" || t.low == "an" {
			continue
		}
		return t.low, k
	}
	return "", -1
}

// extract reads nodes, times, durations, belief time, k and burst
// parameters, in that order of precedence at each position.
func (x *extractor) extract() error {
	toks := x.toks
	if err := x.exclusiveMarkers(); err != nil {
		return err
	}
	defer x.settleStarts()
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.text == ")" {
			x.restated = [2]int64{}
		}
		if t.used {
			continue
		}
		if n, j, ok := x.chainBoundAt(i); ok {
			x.s.maxHops = n
			x.use(i, j)
			i = j - 1
			continue
		}
		// z-score threshold and history length of burst detection.
		if t.low == "z" || (t.low == "score" && i > 0 && toks[i-1].text == "-") {
			j := i + 1
			if t.low == "z" && x.tok(j).text == "-" && x.tok(j+1).low == "score" {
				j += 2
			}
			for x.tok(j).low == "at" || x.tok(j).low == "least" || x.tok(j).low == "of" || x.tok(j).low == "above" || x.tok(j).text == "≥" || x.tok(j).text == ">=" || x.tok(j).text == "=" {
				j++
			}
			if x.tok(j).kind == tNum {
				z, err := strconv.ParseFloat(x.tok(j).low, 64)
				if err == nil {
					x.s.z = z
					x.use(i, j+1)
					i = j
					continue
				}
			}
		}
		if t.kind == tNum || numberWords[t.low] > 0 {
			if n, j, ok := x.historyAt(i); ok {
				x.s.history = n
				x.use(i, j)
				i = j - 1
				continue
			}
		}
		if t.low == "top" || t.low == "hops" || t.low == "hop" {
			if n, ok := x.count(i + 1); ok && t.low == "top" {
				x.s.k, x.s.kText = n, x.span(i, i+2)
				x.use(i, i+2)
				x.s.concepts[cRank] = i
				i++
				continue
			}
			// "three hops at most".
			if n, ok := x.count(i - 1); (t.low == "hops" || t.low == "hop") && ok && x.tok(i+1).low == "at" && x.tok(i+2).low == "most" {
				x.s.maxHops = n
				x.use(i-1, i+3)
				continue
			}
			// "3 hops or less", "two hops or fewer".
			if n, ok := x.count(i - 1); (t.low == "hops" || t.low == "hop") && ok && x.tok(i+1).low == "or" && (x.tok(i+2).low == "less" || x.tok(i+2).low == "fewer") {
				x.s.maxHops = n
				x.use(i-1, i+3)
				continue
			}
			if (t.low == "hops" || t.low == "hop") && i >= 2 {
				// "than" bounds the hops only as "no more than" / "not
				// longer than"; "more than 3 hops" is a threshold, refused.
				noMore := x.tok(i-2).low == "than" && (x.tok(i-4).low == "no" || x.tok(i-4).low == "not") &&
					(x.tok(i-3).low == "more" || x.tok(i-3).low == "longer" || x.tok(i-3).low == "greater")
				if n, ok := x.count(i - 1); ok && (x.tok(i-2).low == "most" || x.tok(i-2).low == "max" || noMore ||
					x.tok(i-2).low == "to" && x.tok(i-3).low == "up" || x.tok(i-2).text == "<=" || x.tok(i-2).text == "≤") {
					if x.tok(i-2).low == "to" {
						x.use(i-3, i-2)
					}
					x.s.maxHops = n
					x.use(i-2, i+1)
					if l := x.tok(i - 3).low; l == "at" {
						x.use(i-3, i-2)
					}
					if noMore {
						x.use(i-4, i-2)
					}
					continue
				}
			}
		}
		// "from 0 to 100", "between 5 and 70": bare integers on both ends of a
		// range are raw microseconds.
		if j, ok := x.rawRange(i); ok {
			i = j - 1
			continue
		}
		// "before the week was out": the window restated.
		if j, ok := x.periodOverAt(i); ok {
			i = j - 1
			continue
		}
		// A belief-time phrase.
		if done, err := x.beliefAt(i); err != nil {
			return err
		} else if done > i {
			i = done - 1
			continue
		}
		// A time expression.
		if w, ok, err := x.at(i); ok {
			if err != nil {
				return err
			}
			// "N days starting A" is read as one range below; here a
			// duration number is not a time.
			prep, startVerb := x.timePrep(i, w)
			if p2, joined, jerr := x.joinedPreps(i); jerr != nil {
				return jerr
			} else if joined {
				prep, startVerb = p2, false
				if prep == "through" && w.prec == PrecInstant {
					w.end = w.start + 1 // "at or before T": T itself, not its minute
				}
			}
			if w.boundary && prep == "to" && len(x.s.times) == 0 && x.tok(i-2).low != "up" && x.tok(i-3).low != "up" {
				return &Refusal{Problem: fmt.Sprintf("%q ends what? write \"until %s\"", w.text, w.text), Missing: []string{"time"}}
			}
			x.s.times = append(x.s.times, timeSlot{w: w, prep: prep, i: i, startVerb: startVerb})
			x.use(w.i, w.j)
			x.rangeNoun(w)
			// ", both days included" after a time belongs to it.
			next := w.j
			if m := x.inclusiveAt(w.j); m > w.j {
				x.use(w.j, m)
				next = m
			}
			if m, err := x.restatesAfter(w, prep, next); err != nil {
				return err
			} else {
				next = m
			}
			if dr, m, ok := x.dayRangeAt(next); ok && w.prec != PrecInstant {
				x.s.dayRanges = append(x.s.dayRanges, dr)
				x.use(next, m)
				next = m
			}
			// "on 1 May only", "at that instant only": "only" after a
			// time restricts to that time, which the window already does.
			if x.tok(next).low == "only" && (x.tok(next+1).kind == tPunct || next+1 >= len(toks)) {
				x.use(next, next+1)
				next++
			}
			if x.tok(next).text == "(" && w.prec != PrecInstant {
				x.restated = [2]int64{w.start, w.end}
			}
			if w.inferred != "" {
				x.s.notes = append(x.s.notes, w.text+": "+w.inferred)
			}
			i = next - 1
			continue
		}
		// "day by day", "by the hour": buckets of that unit.
		if j, ok := x.stepBuckets(i); ok {
			i = j - 1
			continue
		}
		// A duration.
		if d, j, err := x.durAt(i); err != nil {
			return err
		} else if j > i {
			d.role = x.durRole(d, i, j)
			d.j = j
			// "at most 2 hours", "no more than 2 hours": the bound is the duration.
			if l1, l2 := x.tok(i-2).low, x.tok(i-1).low; l1 == "at" && l2 == "most" || l1 == "more" && l2 == "than" && x.tok(i-3).low == "no" || l1 == "up" && l2 == "to" {
				x.use(i-2, i)
				if l1 == "more" {
					x.toks[i-3].used = true
				}
				if d.role == "" {
					d.role = "delta"
				}
			}
			// "an hour or less", "one hour maximum", "in maximum one day",
			// "a maximum of 2 hours": a bound on the span.
			if l1, l2 := x.tok(j).low, x.tok(j+1).low; l1 == "or" && (l2 == "less" || l2 == "fewer" || l2 == "under") {
				x.use(j, j+2)
				j += 2
				if d.role == "" {
					d.role = "delta"
				}
			} else if l1 == "maximum" || l1 == "max" || l1 == "at" && l2 == "most" {
				n := map[bool]int{true: 2, false: 1}[l1 == "at"]
				x.use(j, j+n)
				j += n
				if d.role == "" {
					d.role = "delta"
				}
			}
			if p := x.tok(i - 1).low; (p == "maximum" || p == "max") && !x.tok(i-1).used || p == "of" && (x.tok(i-2).low == "maximum" || x.tok(i-2).low == "max") {
				k := i - 1
				if p == "of" {
					k = i - 2
					if x.tok(k-1).low == "a" {
						k--
					}
				}
				x.use(k, i)
				if d.role == "" {
					d.role = "delta"
				}
			}
			x.s.durs = append(x.s.durs, d)
			x.use(i, j)
			i = j - 1
			continue
		}
		// A node: a uid the task supplied or the store knows, or a name.
		if t.kind == tWord && x.isNode(t.low, t.text) {
			x.addNode(t.text, x.uidOf(t), i)
			t.used = true
			continue
		}
		// "account 395", "from 3744": the digits of a uid the task supplied.
		if t.kind == tNum && !strings.ContainsAny(t.low, ".") && slices.Contains(x.env.UIDs, "n"+t.low) {
			if _, yr := isYear(t); !yr {
				x.addNode("n"+t.low, "n"+t.low, i)
				t.used = true
				continue
			}
		}
		if t.kind == tQuote && t.text != "" {
			x.addNode(t.text, "", i)
			t.used = true
			continue
		}
		if t.kind == tWord && (t.low == "named" || t.low == "called") {
			j := i + 1
			for j < len(toks) && toks[j].kind == tWord && len(toks[j].text) > 0 && toks[j].text[0] >= 'A' && toks[j].text[0] <= 'Z' {
				j++
			}
			if j > i+1 {
				x.addNode(x.span(i+1, j), "", i+1)
				x.use(i, j)
				i = j - 1
				continue
			}
		}
		if t.kind == tWord && uidLikeRE.MatchString(t.low) {
			return &Refusal{Problem: fmt.Sprintf("%s is not a node of this store", t.text), Missing: []string{"node"}}
		}
		// "# of ratings", "# nbrs": the number sign counts.
		if t.text == "#" && (x.tok(i+1).kind == tWord) {
			x.s.concepts[cHowMany] = i
			t.used = true
			continue
		}
		// "the hour of the day", "the day of the week": a calendar cycle.
		if c, j := x.cycleAt(i); c != "" {
			x.s.concepts[c] = i
			x.use(i, j)
			i = j - 1
			continue
		}
		if x.calendarBucket(i) { // "which calendar month", "the busiest month"
			continue
		}
		// "which day", "the busiest week": a one-unit bucket.
		if u, ok := unitUS[t.low]; ok && t.kind == tWord && u >= usHour {
			if p, _ := x.prevWord(i); askedPeriod(p) {
				x.s.durs = append(x.s.durs, durSlot{us: u, written: t.text, role: "bucket", i: i})
				t.used = true
				continue
			}
		}
		// "the 5 most", "which three nodes".
		if n, ok := x.count(i); ok && (x.tok(i+1).low == "most" || x.tok(i+1).low == "busiest" || isSuperlative(x.tok(i+1).low) || isNodeNoun(x.tok(i+1).low) || isNodeNoun(x.tok(i+2).low) && x.tok(i+1).low == "most") {
			if p, _ := x.prevWord(i); p == "which" || p == "top" || p == "what" || p == "list" || p == "name" || p == "the" || p == "" || p == "are" || p == "were" || x.tok(i+1).low == "most" {
				x.s.k, x.s.kText = n, t.text
				t.used = true
				continue
			}
		}
	}
	return nil
}

// rawRange reads "from N to M" (or between/and, ..) with bare integers
// that are not years, days or counts of something.
func (x *extractor) rawRange(i int) (int, bool) {
	a, c, b := x.tok(i), x.tok(i+1), x.tok(i+2)
	if p, _ := x.prevWord(i); p != "from" && p != "between" {
		return i, false
	}
	if c.low != "to" && c.low != "and" && c.text != ".." && c.low != "until" {
		return i, false
	}
	for _, t := range []*token{a, b} {
		if t.kind != tNum || strings.ContainsAny(t.low, ".") {
			return i, false
		}
		if _, yr := isYear(t); yr {
			return i, false
		}
	}
	if next := x.tok(i + 3); next.kind == tWord && (unitUS[next.low] > 0 || monthNames[next.low] > 0 || isOrdSuffix(next) || next.low == "µs") {
		return i, false
	}
	va, err1 := strconv.ParseInt(a.low, 10, 64)
	vb, err2 := strconv.ParseInt(b.low, 10, 64)
	if err1 != nil || err2 != nil {
		return i, false
	}
	prep, _ := x.prevWord(i)
	x.s.times = append(x.s.times,
		timeSlot{w: when{start: va, end: va + 1, prec: PrecInstant, text: a.text, i: i, j: i + 1}, prep: prep, i: i},
		timeSlot{w: when{start: vb, end: vb + 1, prec: PrecInstant, text: b.text, i: i + 2, j: i + 3}, prep: c.low, i: i + 2})
	x.s.notes = append(x.s.notes, fmt.Sprintf("%s and %s read as microseconds since the epoch", a.text, b.text))
	x.use(i, i+3)
	x.toks[i+1].used = false // the connective is read by the range
	return i + 3, true
}

func isNodeNoun(w string) bool { return concept(w) == cNodeNoun }

// isSuperlative reports whether w is a ranking superlative ("biggest",
// "largest", "heaviest"), before which a count is how many to rank.
func isSuperlative(w string) bool {
	c := concept(w)
	return (c == cRank || c == cPeak) && strings.HasSuffix(w, "est")
}
