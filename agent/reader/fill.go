package reader

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// timeRead is what the times of a question are: windows and instants.
type timeRead struct {
	wins  []Window
	insts []Instant
	pair  bool // the one window was written "between A and B" or "from A to B": its ends may be two instants
}

var startPreps = map[string]bool{"from": true, "since": true, "starting": true, "beginning": true, "after": true, "counted": true, "begins": true, "start": true}
var endPreps = map[string]bool{"to": true, "until": true, "till": true, "through": true, "thru": true, "before": true, "and": true}

// times assigns each written time a role.
func (x *extractor) times() (*timeRead, error) {
	ts := x.s.times
	out := &timeRead{}
	used := make([]bool, len(ts))
	mkWin := func(s, e int64, written string, incl bool) error {
		if e <= s {
			return fmt.Errorf("the window %q is empty or ends before it starts", written)
		}
		out.wins = append(out.wins, Window{Start: s, End: e, StartText: FormatTime(s), EndText: FormatTime(e), Written: written, InclusiveEnd: incl})
		return nil
	}
	for k := range ts {
		if used[k] {
			continue
		}
		t := ts[k]
		prep := t.prep
		// A range: a start and an end connected by to/until/through/and/..
		if k+1 < len(ts) && !used[k+1] {
			n := ts[k+1]
			conn := x.connective(t.w.j, n.w.i)
			if (startPreps[prep] || prep == "between" || conn == ".." || conn == "-" || conn == "–" ||
				(!endPreps[prep] && t.w.prec == n.w.prec && (conn == "through" || conn == "thru" || conn == "to" || conn == "until" || conn == "till"))) &&
				(conn == "to" || conn == "until" || conn == "till" || conn == "through" || conn == "thru" || conn == "and" || conn == ".." ||
					conn == "-" || conn == "–" || conn == "up to" || conn == "up to and including" || strings.HasSuffix(conn, " up to") ||
					strings.HasSuffix(conn, ", up to") || (startPreps[prep] && endPreps[n.prep] && n.prep != "and")) {
				if prep == "between" && conn != "and" {
					return nil, fmt.Errorf("read %q as \"between A and B\"", x.span(t.w.i-1, n.w.j))
				}
				end, incl := n.w.start, false
				mark := x.inclusiveAt(n.w.j)
				if conn == "through" || conn == "thru" || conn == "up to and including" || mark > n.w.j {
					end, incl = n.w.end, true
					x.use(n.w.j, mark)
				}
				// A compact day range ("5 to 11 May", "June 1-7") and a dash
				// between two days name whole days: the last one is included.
				if n.w.prec == PrecDay && (t.w.compact || n.w.compact || (conn == "-" || conn == "–") && t.w.prec == PrecDay) ||
					n.w.prec == PrecMonth && t.w.compact && t.w.prec == PrecMonth {
					end, incl = n.w.end, true
				}
				if err := wholePeriodEnd(t.w, n.w, conn, incl); err != nil {
					return nil, err
				}
				start := t.w.start
				if prep == "after" {
					start = afterStart(t.w)
				}
				if err := mkWin(start, end, x.span(t.w.i, n.w.j), incl); err != nil {
					return nil, err
				}
				out.pair = true
				used[k], used[k+1] = true, true
				continue
			}
		}
		used[k] = true
		switch {
		case startPreps[prep]:
			// "10 days starting May 3": a window of that length.
			if d := x.lengthBefore(t); d != nil {
				if d.us == 0 {
					return nil, fmt.Errorf("%q has no fixed length when it starts on a given day; write where it ends", d.written+" "+x.span(t.w.i-1, t.w.j))
				}
				// "three weeks after D" with no "the" or "in the" before it
				// may be the one day that much later, not the span.
				if prep == "after" && !x.spanLead(x.lengthStart(d)) {
					return nil, fmt.Errorf("%q: the span of %s after it, or the time %s later? write \"in the %s after\" or the date", d.written+" "+x.span(t.w.i-1, t.w.j), d.written, d.written, d.written)
				}
				// "the two weeks after D" starts when D ends, "the 24
				// hours after T" at T.
				s := t.w.start
				if prep == "after" && t.w.prec != PrecInstant {
					s = t.w.end
				}
				if err := mkWin(s, s+d.us, d.written+" "+x.span(t.w.i-1, t.w.j), false); err != nil {
					return nil, err
				}
				continue
			}
			start := t.w.start
			if prep == "after" {
				start = afterStart(t.w)
			}
			// "counted from A" beside a window that starts at A adds nothing.
			if slices.ContainsFunc(out.wins, func(w Window) bool { return w.Start == start }) || x.startsLater(ts, k, start) {
				continue
			}
			if err := mkWin(start, x.hi, x.span(t.w.i-1, t.w.j)+" (to the end of the store)", false); err != nil {
				return nil, err
			}
		case prep == "until" || prep == "till" || prep == "before" || (prep == "to" && x.tok(t.w.i-2).low == "up"):
			// "until D inclusive" ends where D ends; "before D inclusive"
			// contradicts itself.
			if x.inclusiveAt(t.w.j) > t.w.j {
				if prep == "before" {
					return nil, fmt.Errorf("%q both excludes and includes %s; write \"through %s\" or \"before %s\"", x.span(t.w.i-1, x.inclusiveAt(t.w.j)), t.w.text, t.w.text, t.w.text)
				}
				if err := mkWin(x.lo, t.w.end, "(from the start of the store) "+x.span(t.w.i-1, x.inclusiveAt(t.w.j)), true); err != nil {
					return nil, err
				}
				continue
			}
			if err := mkWin(x.lo, t.w.start, "(from the start of the store) "+x.span(t.w.i-1, t.w.j), false); err != nil {
				return nil, err
			}
		case prep == "through" || prep == "thru":
			if err := mkWin(x.lo, t.w.end, "(from the start of the store) "+x.span(t.w.i-1, t.w.j), true); err != nil {
				return nil, err
			}
		case prep == "by" && t.w.prec != PrecInstant:
			// "by May 1970": before May starts, or by its end?
			return nil, fmt.Errorf("does \"by %s\" mean before %s starts or by its end? write \"before %s\" or \"by the end of %s\"", t.w.text, t.w.text, t.w.text, t.w.text)
		case t.w.prec != PrecInstant && prep != "at" && (prep != "of" || x.wholeOf(t) || x.countedOf(t) || x.possessivePeriod(t)):
			if err := mkWin(t.w.start, t.w.end, x.span(t.w.i, t.w.j), false); err != nil {
				return nil, err
			}
		default:
			in := Instant{T: t.w.start, Text: FormatTime(t.w.start), Written: t.w.text}
			if t.w.prec != PrecInstant {
				x.s.notes = append(x.s.notes, fmt.Sprintf("%s read as the instant %s (the start of that %s)", t.w.text, FormatTime(t.w.start), t.w.prec))
			}
			out.insts = append(out.insts, in)
		}
	}
	return x.settleWindows(out)
}

// startsLater reports whether a later range in ts starts at start (the
// window restated after "from A").
func (x *extractor) startsLater(ts []timeSlot, k int, start int64) bool {
	for _, n := range ts[k+1:] {
		if n.w.start == start && (startPreps[n.prep] || n.prep == "between") {
			return true
		}
	}
	return false
}

// periodLength are the periods of fixed length a window may be named by.
// A month, quarter or year starting on a given day has none (0).
var periodLength = map[string]int64{"hour": usHour, "day": usDay, "week": usWeek, "fortnight": 2 * usWeek,
	"month": 0, "quarter": 0, "year": 0}

// lengthBefore is a duration written just before a start time's
// preposition ("10 days starting May 3"), taken as the window's length.
func (x *extractor) lengthBefore(t timeSlot) *durSlot {
	_, pi := x.prevWord(t.w.i)
	// "the week beginning D", "the day after D": a period of fixed length
	// named just before the preposition.
	if u, ok := periodLength[x.tok(pi-1).low]; ok && pi >= 2 {
		if a := x.tok(pi - 2).low; a == "the" || a == "a" || a == "one" {
			return &durSlot{us: u, written: x.span(pi-2, pi)}
		}
	}
	for i := range x.s.durs {
		d := &x.s.durs[i]
		if d.j == pi || (d.j == pi-1 && x.tok(pi-1).low == "the") {
			d.taken = true
			return d
		}
	}
	return nil
}

func roleOf(in *intent) string {
	switch in.name {
	case "reach-count", "reach-first", "motif-count-reach", "motif-first-actor", "first-reached-versions":
		return "source"
	case "top-nodes-except":
		return "excluded"
	}
	return "node"
}

func (x *extractor) has(c string) bool { _, ok := x.s.concepts[c]; return ok }

// fill reads the slots an intent needs; a non-empty problem says what is
// missing or does not fit.
func (x *extractor) fillReading(in *intent, text string) (*Reading, string) {
	s := x.s
	x.arrowCues()
	r := &Reading{Intent: in.name, Options: map[string]string{}, Notes: append([]string(nil), s.notes...), Ignored: s.ignored}
	// Nodes.
	switch {
	case len(s.nodes) < in.nodes:
		if in.nodes == 2 && len(s.nodes) == 1 {
			return nil, "which nodes? this question needs two nodes and names only " + s.nodes[0].written
		}
		return nil, "which node? none of the words is a node uid of this store or a quoted name"
	case len(s.nodes) > in.nodes:
		var ws []string
		for _, n := range s.nodes {
			ws = append(ws, n.written)
		}
		if in.nodes == 0 {
			return nil, fmt.Sprintf("this question is about the whole graph, but it names %s", strings.Join(ws, ", "))
		}
		return nil, fmt.Sprintf("it names %d nodes (%s) where this question takes %d", len(s.nodes), strings.Join(ws, ", "), in.nodes)
	}
	mkNode := func(n nodeSlot, role string) Node {
		return Node{Role: role, Written: n.written, UID: n.uid, ByName: n.uid == ""}
	}
	switch in.nodes {
	case 1:
		// A reach question counts from its node; a node written where
		// paths end ("reached n9", "arrive at n9") asks the reverse.
		if roleOf(in) == "source" && s.nodes[0].cue == "dst" {
			return nil, fmt.Sprintf("%s is written as where paths end, but this question follows paths from its node; write \"reachable from %s\"", s.nodes[0].written, s.nodes[0].written)
		}
		r.Nodes = []Node{mkNode(s.nodes[0], roleOf(in))}
	case 2:
		a, b := x.verbCue(in, s.nodes[0]), x.verbCue(in, s.nodes[1])
		switch {
		case a.cue == "dst" && b.cue != "dst", b.cue == "src" && a.cue != "src":
			a, b = b, a
		case a.cue == b.cue && a.cue != "":
			return nil, fmt.Sprintf("which of %s and %s is the source? write \"from %s to %s\"", a.written, b.written, a.written, b.written)
		}
		if in.name == "pair-event-count" && x.has(cReceive) && !x.has(cSend) && a.cue == "" && b.cue == "" {
			a, b = b, a // "did y receive from ... x": the receiver is named first
		}
		r.Nodes = []Node{mkNode(a, "source"), mkNode(b, "target")}
	}
	// Times.
	tr, err := x.times()
	if err != nil {
		return nil, err.Error()
	}
	switch {
	case in.inst == 2:
		switch {
		case len(tr.insts) == 2 && len(tr.wins) == 0:
			r.Instants = []Instant{tr.insts[0], tr.insts[1]}
		case len(tr.wins) == 1 && tr.pair && len(tr.insts) == 0:
			w := tr.wins[0]
			r.Instants = []Instant{{T: w.Start, Text: w.StartText, Written: w.Written}, {T: w.End, Text: w.EndText, Written: w.Written}}
		default:
			return nil, "which two instants? write \"between A and B\" or \"at B but not at A\""
		}
	case in.inst == 1:
		if len(tr.insts) != 1 || len(tr.wins) > 0 {
			if len(tr.wins) > 0 && len(tr.insts) == 0 {
				return nil, fmt.Sprintf("which instant? %q is a period; write a time such as \"at 12:00 UTC on 2004-05-03\"", tr.wins[0].Written)
			}
			return nil, "which instant? write a time such as \"at 2004-05-03 12:00 UTC\""
		}
		r.Instants = []Instant{tr.insts[0]}
		r.Instants[0].Role = "at"
	default:
		// A question of no valid time ("how many versions …") "as of" a
		// time after every event the store holds is asking what the store
		// believed then.
		if len(tr.insts) == 1 && !in.window && s.belief == nil && tr.insts[0].T >= x.hi && in.belief && x.writtenInstant(tr.insts[0].T) {
			in0 := tr.insts[0]
			x.ttConverted = in0.T
			x.s.belief = &Belief{AsOfTT: in0.T, Written: in0.Written}
			defer func() { x.s.belief = nil }()
			tr.insts = nil
			r.Notes = append(r.Notes, fmt.Sprintf("%s is after every valid time of the store: read as the belief time", in0.Written))
		}
		if len(tr.insts) > 0 {
			return nil, fmt.Sprintf("the time %q is an instant; this question needs a window (\"from A to B\", \"during May 2004\")", tr.insts[0].Written)
		}
	}
	// A window restated ("Q3 2004 (July–September)") is one window when
	// the statements agree; when they do not, both are named below.
	if len(tr.wins) > 1 {
		same := true
		for _, w := range tr.wins[1:] {
			same = same && w.Start == tr.wins[0].Start && w.End == tr.wins[0].End
		}
		if same {
			var ws []string
			for _, w := range tr.wins {
				ws = append(ws, fmt.Sprintf("%q", w.Written))
			}
			r.Notes = append(r.Notes, "the window is written "+strconv.Itoa(len(ws))+" times and they agree: "+strings.Join(ws, ", "))
			tr.wins = tr.wins[:1]
		}
	}
	if in.window {
		switch len(tr.wins) {
		case 0:
			if x.hi <= x.lo {
				return nil, "which window? the store has no events"
			}
			w := Window{Start: x.lo, End: x.hi, StartText: FormatTime(x.lo), EndText: FormatTime(x.hi)}
			r.Window = &w
			r.Notes = append(r.Notes, "no window was written: the whole store")
		case 1:
			w := tr.wins[0]
			r.Window = &w
		default:
			return nil, fmt.Sprintf("which window? the question writes %d that disagree (%q is [%s, %s), %q is [%s, %s))", len(tr.wins),
				tr.wins[0].Written, tr.wins[0].StartText, tr.wins[0].EndText, tr.wins[1].Written, tr.wins[1].StartText, tr.wins[1].EndText)
		}
	} else if in.inst != 2 && len(tr.wins) > 0 {
		return nil, fmt.Sprintf("this question takes no window, but it writes %q", tr.wins[0].Written)
	}
	// "(Monday to Friday)" must name the window's first and last days.
	for _, dr := range s.dayRanges {
		w := r.Window
		if w == nil {
			return nil, fmt.Sprintf("%q restates the days of a window, but this question takes none", dr.written)
		}
		first := time.UnixMicro(w.Start).UTC()
		if narrowed, ok := weekDays(w, dr); ok {
			r.Notes = append(r.Notes, fmt.Sprintf("%q names the days of %q read", dr.written, w.Written))
			r.Window = &narrowed
			continue
		}
		last := time.UnixMicro(w.End - 1).UTC()
		if w.End-w.Start > 7*usDay || first.Weekday() != dr.first || last.Weekday() != dr.last ||
			w.Start%usDay != 0 || w.End%usDay != 0 {
			return nil, fmt.Sprintf("the window [%s, %s) runs %s to %s, but the question restates it as %q", w.StartText, w.EndText,
				first.Weekday(), last.Weekday(), dr.written)
		}
		r.Notes = append(r.Notes, fmt.Sprintf("%q agrees with the window's first and last days", dr.written))
	}
	for _, pe := range s.periodEnds {
		if prob := periodEndFits(pe, r.Window); prob != "" {
			return nil, prob
		}
		r.Notes = append(r.Notes, fmt.Sprintf("%q restates the window's end", pe.written))
	}
	if len(r.Instants) == 2 {
		r.Instants[0].Role, r.Instants[1].Role = "t1", "t2"
	}
	// Durations.
	var durs []durSlot
	for _, d := range s.durs {
		if !d.taken {
			durs = append(durs, d)
		}
	}
	for i := range s.durs {
		s.durs[i].taken = false // times() marks them again for the next intent
	}
	// "weekly buckets … which week": one bucket size written twice.
	if len(durs) == 2 && durs[0].us == durs[1].us && (durs[0].role == "bucket" || durs[1].role == "bucket") {
		durs = durs[:1]
		durs[0].role = "bucket"
	}
	need := 0
	if in.bucket || in.delta {
		need = 1
	}
	switch {
	case len(durs) < need && in.bucket:
		return nil, "which bucket size? write e.g. \"in buckets of 7 days\" or \"daily\""
	case len(durs) < need:
		return nil, "which duration? write e.g. \"within 2 hours\""
	case len(durs) > need:
		return nil, fmt.Sprintf("I could not tell what the duration %q is for", durs[len(durs)-1].written)
	}
	if need == 1 {
		d := durs[0]
		if in.bucket && d.role == "delta" || in.delta && d.role == "bucket" {
			return nil, fmt.Sprintf("%q reads as a %s, but this question needs a %s", d.written, d.role, map[bool]string{true: "bucket size", false: "duration"}[in.bucket])
		}
		if why := clockHours(&d, r.Window); why != "" {
			return nil, fmt.Sprintf("%q: %s", d.written, why)
		}
		dd := &Duration{Micros: d.us, Written: d.written}
		if in.bucket {
			if d.unit != "" {
				if in.name != "busiest-bucket" {
					return nil, fmt.Sprintf("%q buckets have no fixed width; this question needs one, e.g. \"in buckets of 7 days\"", d.written)
				}
				r.Options["calendar_unit"] = d.unit
			}
			r.Bucket = dd
		} else {
			r.Delta = dd
		}
	}
	// Counts and parameters.
	if s.k > 0 && !in.k {
		return nil, fmt.Sprintf("I could not tell what %q counts", s.kText)
	}
	if in.k {
		r.K = max(s.k, 1)
	}
	if (s.z > 0 || s.history > 0) && !strings.HasSuffix(in.name, "burst-count") && !strings.HasSuffix(in.name, "first-burst") {
		return nil, "a z-score or history length fits only burst questions"
	}
	if s.z > 0 {
		r.Options["z"] = strconv.FormatFloat(s.z, 'g', -1, 64)
	}
	if s.history > 0 {
		if s.history < 2 || s.history > 500 {
			return nil, "the burst history must be 2 to 500 buckets"
		}
		r.Options["history"] = strconv.FormatInt(s.history, 10)
	}
	if s.maxHops > 0 {
		if in.name != "path-count" {
			return nil, "a hop limit fits only path questions"
		}
		if s.maxHops > 6 {
			return nil, "paths can be at most 6 hops long"
		}
		r.Options["max_hops"] = strconv.FormatInt(s.maxHops, 10)
	}
	if prob := maxWaitFits(in, s.maxWait, r); prob != "" {
		return nil, prob
	}
	if prob := x.options(in, r); prob != "" {
		return nil, prob
	}
	if prob := x.rankOptions(in, r); prob != "" {
		return nil, prob
	}
	if prob := x.thresholdOptions(in, r); prob != "" {
		return nil, prob
	}
	if prob := x.closingAsked(in); prob != "" {
		return nil, prob
	}
	if prob := x.zoneFits(in, r); prob != "" {
		return nil, prob
	}
	// Belief.
	r.Belief = Belief{Now: true, Written: ""}
	if s.belief != nil {
		r.Belief = *s.belief
		if !r.Belief.Now {
			r.Belief.Text = FormatTime(r.Belief.AsOfTT)
		}
	}
	if !in.belief && !r.Belief.Now {
		return nil, "this question cannot be pinned at an earlier belief time"
	}
	r.Summary = in.summary(r) + waitText(r)
	b := &builder{r: r}
	in.build(r, b)
	p, err := b.json(in.name, text)
	if err != nil {
		return nil, err.Error()
	}
	r.plan = p
	r.AnswerKind = b.kind
	return r, ""
}

// options reads an intent's discrete choices from the concepts.
func (x *extractor) options(in *intent, r *Reading) string {
	send, recv := x.has(cSend), x.has(cReceive)
	// "rated by" with no node after "by": the node received.
	if send {
		active, passive := false, false
		for k, t := range x.toks {
			if concept(t.low) != cSend {
				continue
			}
			// "sent by the end of D": "by" before a time is a deadline,
			// not the agent of a passive.
			if n := x.tok(k + 1); n.low == "by" && !x.isNodeAt(k+2) && !x.tok(k+2).used {
				passive = true
			} else {
				active = true
			}
		}
		if passive {
			send, recv = active, true
		}
	}
	if !send && !recv && len(x.s.nodes) > 0 {
		// "did n33 message …": an event noun used as the verb after the node.
		switch x.tok(x.s.nodes[0].i + 1).low {
		case "message", "email", "text", "contact", "rate", "write":
			send = true
		}
	}
	if !send && !recv {
		// "the recipients of n100's messages", "top senders".
		if x.has(cRecipients) && !x.has(cSenders) {
			send = !topNodesIntent(in)
			recv = topNodesIntent(in)
		}
		if x.has(cSenders) && !x.has(cRecipients) {
			send = topNodesIntent(in)
			recv = !topNodesIntent(in)
		}
	}
	switch in.name {
	case "node-event-count", "partner-count", "partners", "partner-threshold-count", "partner-threshold-nodes":
		cue := x.s.nodes[0].cue
		if cue == "src" && x.receivedBy(x.s.nodes[0].i) {
			cue = "dst" // "received by n5": n5 is who received
		}
		if cue == "" && x.objectOfVerb(x.s.nodes[0].i) {
			cue = "dst" // "who sent n2 messages": n2 received them
			if recv {
				cue = "src"
			}
		}
		switch {
		case send && !recv:
			r.Options["direction"] = map[bool]string{true: "dst", false: "src"}[cue == "dst"]
		case recv && !send:
			r.Options["direction"] = map[bool]string{true: "src", false: "dst"}[cue == "src"]
		case !send && !recv && cue != "" && strings.HasPrefix(in.name, "partner-threshold"):
			r.Options["direction"] = cue // "more than 20 ratings from n35"
		case !send && !recv && in.name == "node-event-count":
			dir, prob := x.bareDirection(x.s.nodes[0].i)
			if prob != "" {
				return prob
			}
			r.Options["direction"] = dir
		default:
			r.Options["direction"] = "either"
		}
		// "in either direction" says both; with one direction written as
		// well the question says two things.
		if x.has(cEither) && r.Options["direction"] != "either" {
			return "sent or received? the question says " + map[bool]string{true: "sent", false: "received"}[send] + " and \"either direction\""
		}
		if in.name != "node-event-count" && r.Options["direction"] == "either" {
			if prob := x.bothJoined(); prob != "" {
				return prob
			}
		}
		if in.name == "partners" && r.Options["direction"] == "either" && !x.has(cPartner) {
			return "sent or received? the question names neither"
		}
	case "pair-event-count":
		if prob := x.pairGive(); prob != "" {
			return prob
		}
		if prob := x.pairJoined(send, recv); prob != "" {
			return prob
		}
		if giveVerbs[x.tok(x.s.nodes[0].i+1).low] {
			r.Options["direction"] = "src" // "did n5 give … n7": n5 sends
		} else if (send || recv || x.s.nodes[0].cue != "" || x.s.nodes[1].cue != "") && !x.has(cBetween) && !x.has(cEither) {
			r.Options["direction"] = "src"
		} else {
			r.Options["direction"] = "either"
		}
	case "top-nodes", "top-nodes-except":
		if w := x.passiveSend(); w != "" {
			return fmt.Sprintf("sent or received? %q is passive: its subject receives; write \"received the most\" or \"sent the most\"", w)
		}
		switch {
		case x.has(cPartner) || x.has(cDistinct):
			r.Options["by"] = "partners"
		case send && !recv:
			r.Options["by"] = "src"
		case recv && !send:
			r.Options["by"] = "dst"
		case x.has(cEvent) || x.has(cPeak):
			r.Options["by"] = "either"
		default:
			return "most of what? write \"sent the most messages\", \"received the most\" or \"had the most distinct partners\""
		}
	case "motif-count", "motif-count-around", "motif-count-reach", "motif-members", "motif-count-partners":
		if in.name == "motif-count-partners" {
			r.Options["direction"] = "either" // a partner in either direction
		}
		tri, pp := x.has(cTriangle), x.has(cPingPong)
		if tri && pp {
			return "triangles or ping-pong exchanges? the question names both"
		}
		r.Options["motif"] = map[bool]string{true: "triangle", false: "ping-pong"}[tri]
		if in.name == "motif-count-around" {
			if prob := x.involving(); prob != "" {
				return prob
			}
		}
	case "busiest-cycle":
		r.Options["cycle"] = x.cycle()
		r.Options["utc_offset_minutes"] = "0"
		if z := x.s.zone; z != nil {
			r.Options["utc_offset_minutes"] = strconv.FormatInt(z.minutes, 10)
			r.Notes = append(r.Notes, fmt.Sprintf("the cycle is read at %s (%q)", zoneText(z.minutes), z.written))
		}
		n := 0
		for _, c := range []string{cCycleHour, cCycleWeekday, cCycleMonth} {
			if x.has(c) {
				n++
			}
		}
		if n != 1 {
			return "which cycle? the question names more than one (hour of the day, day of the week, month of the year)"
		}
	case "busiest-bucket":
		if prob := x.oneHour(r); prob != "" {
			return prob
		}
		if prob := x.oneMonth(r); prob != "" {
			return prob
		}
	case "follow-ups":
		return x.followUpOptions(r)
	case "average-per-period":
		return x.averageOptions(r)
	case "node-burst-count", "node-first-burst":
		return x.nodeBurstOptions()
	case "correction-count":
		c, e := x.has(cCorrect), x.has(cEvolve)
		if c && e {
			return "corrections or evolution? ask for one of them"
		}
		r.Options["closed_by"] = map[bool]string{true: "correction", false: "evolution"}[c]
	case "nodes-added", "neighbours-gained":
		return x.change(in, r)
	}
	return ""
}

// change decides which instant is the base and whether the question asks
// for what was gained or lost, and the answer form.
func (x *extractor) change(in *intent, r *Reading) string {
	which, many := x.has(cWhich), x.has(cHowMany)
	switch {
	case which && !many:
		r.Options["form"] = "list"
	case many && !which:
		r.Options["form"] = "count"
	default:
		return "a list or a number? write \"which\" or \"how many\""
	}
	gain := x.has(cGained) || x.has(cAdded) || x.has(cNew)
	loss := x.has(cLost) || x.has(cRemoved)
	t1, t2 := r.Instants[0], r.Instants[1]
	if x.has(cNot) {
		// "at B but not at A": A, the negated instant, is the base.
		base := 0
		for i, t := range x.s.times {
			if x.negated(t) {
				base = i
			}
		}
		if base == 1 {
			t1, t2 = t2, t1
		}
		gain, loss = true, false
	}
	if gain == loss {
		return "gained or lost? the question says neither (or both)"
	}
	if t1.T > t2.T {
		t1, t2 = t2, t1
		gain, loss = loss, gain
	}
	if t1.T == t2.T {
		return "the two instants are the same"
	}
	t1.Role, t2.Role = "t1", "t2"
	r.Instants = []Instant{t1, t2}
	words := map[string][2]string{"nodes-added": {"added", "removed"}, "neighbours-gained": {"gained", "lost"}}[in.name]
	if gain {
		r.Options["change"] = words[0]
	} else {
		r.Options["change"] = words[1]
	}
	return ""
}

var sendVerbs = map[string]bool{"sent": true, "send": true, "sends": true, "wrote": true, "messaged": true, "emailed": true, "received": true,
	"receive": true, "receives": true, "got": true, "get": true, "gets": true, "contacted": true}

// objectOfVerb reports whether the node at i follows a send or receive
// verb with no auxiliary before the node ("who sent n2 …", not "did n2 send").
func (x *extractor) objectOfVerb(i int) bool {
	for k := 0; k < i; k++ {
		if sendVerbs[x.toks[k].low] {
			for j := k + 1; j < i; j++ {
				if w := concept(x.toks[j].low); w == cNodeNoun || w == cEvent {
					return false
				}
			}
			return true
		}
	}
	return false
}

// writtenInstant reports whether a time written at instant precision
// (a time of day, microseconds) starts at t.
func (x *extractor) writtenInstant(t int64) bool {
	for _, ts := range x.s.times {
		if ts.w.start == t && ts.w.prec == PrecInstant {
			return true
		}
	}
	return false
}

// wholeOf reports whether a period is written "all of P", "the whole of
// P": the period itself.
// countedOf reports whether "of P" follows a noun naming what is counted
// or ranked ("the raters of 2013", "ratings of March 2013", "which bucket
// of 2011"), where P is the window; a part of a period ("the end of
// 2010", "the last day of 2010") is not.
func (x *extractor) countedOf(t timeSlot) bool {
	_, k := x.prevWord(t.w.i)
	w, k2 := x.prevWord(k)
	if k2 < 0 || x.tok(k2).kind != tWord {
		return false
	}
	switch concept(w) {
	case cEvent, cNodeNoun, cSenders, cRecipients, cBucket:
	case cPeriod:
		// "which day of January 1970 had the most": the periods ranked
		// are P's, so P is the window.
		if !x.ranksPeriods() {
			return false
		}
	default:
		return false
	}
	// "the first ratings of 2013", "the last bucket of 2011": an ordinal
	// or extremum before the noun picks a part; leave it to the intents.
	p, _ := x.prevWord(k2)
	c := concept(p)
	return c != cFirst && c != cLatest && changers[p] == ""
}

func (x *extractor) wholeOf(t timeSlot) bool {
	_, k := x.prevWord(t.w.i)
	w, _ := x.prevWord(k)
	return w == "all" || w == "whole" || w == "entire" || w == "rest"
}

// isNodeAt reports whether a node of the question is written at token i
// (after an article or a node noun).
func (x *extractor) isNodeAt(i int) bool {
	for k := i; k < i+3 && k < len(x.toks); k++ {
		for _, n := range x.s.nodes {
			if n.i == k {
				return true
			}
		}
	}
	return false
}

// negated reports whether a time is written after a negation ("not at T").
func (x *extractor) negated(t timeSlot) bool {
	if x.sceneNeg > 0 {
		return t.w.i == x.sceneNeg-1 // the scene's time the question negates by its place
	}
	for k := t.w.i - 1; k >= 0 && k >= t.w.i-4; k-- {
		if concept(x.toks[k].low) == cNot {
			return true
		}
	}
	return false
}

// afterStart is where "after w" starts: where a period ends, or the
// microsecond after an instant ("after noon" is after 12:00:00, not
// after the minute 12:00 as written).
func afterStart(w when) int64 {
	if w.prec == PrecInstant {
		return w.start + 1
	}
	return w.end
}
