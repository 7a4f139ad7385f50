package reader

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Env is what the reader knows besides the question: the node uids the
// task supplied, a lookup of the store's uids, and the store's valid-time
// extent [VtMin, VtMax) (the default window, and the years a date without
// one may mean).
type Env struct {
	UIDs         []string
	IsNode       func(uid string) bool
	VtMin, VtMax int64
	// RelTypes are the store's relation types: each names its events
	// ("TRUST", "MSG"), and a store with more than one makes a generic
	// word such as "messages" ambiguous.
	RelTypes []string
	// FirstTT is the transaction time of the store's first batch (0 when
	// unknown). A slashed belief date one of whose readings falls before
	// it is read in the other order: the store believed nothing then.
	FirstTT int64
}

// Read reads a question. It returns a Reading with its plan, or a
// *Refusal naming what was missing, unreadable or ambiguous with
// suggested forms. It never guesses: every content word must be read.
func Read(text string, env Env) (*Reading, error) {
	if strings.TrimSpace(text) == "" {
		return nil, &Refusal{Problem: "the question is empty", Suggestions: suggestions(nil, nil, env, 3)}
	}
	if len(text) > 2000 {
		return nil, &Refusal{Problem: "the question is longer than 2000 characters"}
	}
	x, err := prepare(text, env)
	if err != nil {
		return nil, err
	}
	return x.choose(text)
}

// prepare extracts the slots and reads the remaining words.
func prepare(text string, env Env) (*extractor, error) {
	toks := holidays(joinHyphenated(tokenize(text)))
	x := &extractor{timeParser: timeParser{toks: toks, lo: env.VtMin, hi: env.VtMax, firstTT: env.FirstTT}, env: env, s: &slots{concepts: map[string]int{}}}
	for i := range x.toks {
		x.midnightOrigin(i) // before the times: a bare midnight is no time of its own
	}
	if err := x.extract(); err != nil {
		if rf, ok := err.(*Refusal); ok {
			return nil, rf
		}
		return nil, &Refusal{Problem: err.Error(), Missing: []string{"time"}}
	}
	if err := x.scene(); err != nil {
		return nil, err
	}
	if err := x.bucketStarts(); err != nil {
		return nil, err
	}
	x.bucketFrame()
	if err := x.writtenSince(); err != nil {
		return nil, err
	}
	if err := x.calendarWeekRestate(); err != nil {
		return nil, err
	}
	x.modelClause()
	if err := x.partOfDayWords(); err != nil {
		return nil, err
	}
	if err := x.relativePeriods(); err != nil {
		return nil, err
	}
	if err := x.zoneAt(); err != nil {
		return nil, err
	}
	if err := x.concepts(); err != nil {
		return nil, err
	}
	if err := x.passiveNode(); err != nil {
		return nil, err
	}
	return x, nil
}

var beForms = map[string]bool{"was": true, "were": true, "is": true, "are": true, "be": true, "been": true, "being": true, "get": true, "got": true, "gets": true}

// passiveNode reads a node that is the subject of a passive sending verb
// ("was n5 sent", "n5 has been rated", "had n5 been given") as the node
// that receives, the reverse of the active voice, and says so; a node
// other words already make the sender is refused.
func (x *extractor) passiveNode() error {
	participle := func(k int) bool {
		t := x.tok(k)
		return t.kind == tWord && concept(t.low) == cSend && !strings.HasSuffix(t.low, "ing") &&
			(t.low == "sent" || t.low == "written" || strings.HasSuffix(t.low, "ed") || strings.HasSuffix(t.low, "en"))
	}
	for k := range x.s.nodes {
		n := &x.s.nodes[k]
		i := n.i
		before := x.tok(i - 1).low
		if isNodeNoun(before) || before == "the" {
			before = x.tok(i - 2).low // "was account n5 rated"
		}
		passive := beForms[before] && before != "been" && participle(i+1) || // "was n5 sent"
			x.tok(i+1).low == "been" && participle(i+2) || // "has n5 been sent"
			beForms[x.tok(i+1).low] && participle(i+2) || // "n5 was rated"
			(x.tok(i+1).low == "has" || x.tok(i+1).low == "had" || x.tok(i+1).low == "have") && x.tok(i+2).low == "been" && participle(i+3)
		if passive && n.cue == "src" {
			return &Refusal{Problem: fmt.Sprintf("%s is the subject of a passive verb, so it receives, but other words make it the sender; write \"sent to %s\" or \"sent by %s\"", n.written, n.written, n.written)}
		}
		if passive {
			n.cue = "dst"
			x.s.notes = append(x.s.notes, fmt.Sprintf("%s is the subject of a passive verb: it receives", n.written))
		}
	}
	return nil
}

// Claims lists every intent whose concepts and slots a question fits.
// Read answers only when exactly one does; tests use Claims to show that
// no two intents claim the same question.
func Claims(text string, env Env) []string {
	if strings.TrimSpace(text) == "" || len(text) > 2000 {
		return nil
	}
	x, err := prepare(text, env)
	if err != nil {
		return nil
	}
	if _, bad := x.s.concepts[cUnsupported]; bad || x.s.eventKind != "" {
		return nil
	}
	var out []string
	for _, in := range intents {
		if !in.fits(x) {
			continue
		}
		if _, prob := x.fill(in, text); prob == "" {
			out = append(out, in.name)
		}
	}
	return out
}

// concepts reads the words no slot consumed: phrases, then single words.
// An unknown word, or a number no slot explains, is a refusal.
func (x *extractor) concepts() error {
	toks := x.toks
	x.descriptions()
	if err := x.placedWords(); err != nil {
		return err
	}
	x.pathFrames()
	// Word positions not consumed, for phrase matching across hyphens.
	var idx []int
	for i, t := range toks {
		if !t.used && (t.kind == tWord || t.kind == tNum) {
			idx = append(idx, i)
		}
	}
	for p := 0; p < len(idx); p++ {
		matched := false
		for _, ph := range phrases {
			ws := strings.Fields(strings.ReplaceAll(ph.words, "-", " "))
			if p+len(ws) > len(idx) {
				continue
			}
			ok := true
			for k, w := range ws {
				if !sameWord(toks[idx[p+k]].low, w) || (k > 0 && !adjacent(toks, idx[p+k-1], idx[p+k])) {
					ok = false
					break
				}
			}
			if ok && ph.cpt == cIgnored && !x.antecedent(ws) {
				ok = false // "at that instant" with no instant written refers to nothing here
			}
			if ok {
				for k := range ws {
					toks[idx[p+k]].used = true
				}
				for _, c := range strings.Split(ph.cpt, "+") {
					if c != "" && c != cIgnored {
						x.mark(c, idx[p])
					}
				}
				if ph.cpt == cHowMany || strings.HasSuffix(ph.words, "how many") {
					x.counted(idx[p+len(ws)-1]) // "how many messages": what is counted
				}
				if ph.cpt == cIgnored {
					x.s.ignored = append(x.s.ignored, x.span(idx[p], idx[p+len(ws)-1]+1))
				}
				p += len(ws) - 1
				matched = true
				break
			}
		}
		if matched {
			continue
		}
	}
	var unknown []string
	var deferred []int
	for i, t := range toks {
		if t.used {
			continue
		}
		switch t.kind {
		case tWord:
			// ", meaning …" introduces a restatement, as "i.e." does.
			if t.low == "meaning" && x.tok(i-1).text == "," {
				x.s.ignored = append(x.s.ignored, t.text)
				continue
			}
			c, ok := lookup(t.low)
			// "got added", "gets corrected": "get" before a participle is the
			// passive auxiliary, not receiving or reaching.
			if getForms[t.low] && x.tok(i+1).kind == tWord && (strings.HasSuffix(x.tok(i+1).low, "ed") || x.tok(i+1).low == "sent") {
				c = ""
			}
			if !ok && changers[t.low] == "" && !isDiscourse(t.low) && !x.isRelType(t.low) {
				if w, _, found := respell(t.low); found {
					x.s.notes = append(x.s.notes, fmt.Sprintf("read %q as %q", t.text, w))
					t.low = w
					c, ok = lookup(w)
				}
			}
			if x.isRelType(t.low) {
				c, ok = cEvent, true
				x.mark(cEventKind, i)
			}
			if c == cEvent && !genericEvent[stem(t.low)] {
				x.mark(cEventKind, i)
			}
			// "did n51 rate …", "n5 emails …": an event word right after
			// a node is its verb.
			if (c == cEvent && !genericEvent[stem(t.low)] || t.low == "rate" || t.low == "rates") && x.nodeAt(i-1) && !strings.ContainsAny(x.toks[i-1].text, "'’") {
				x.mark(cSend, i)
			}
			// "as the archive stands today", "as far as the store knows
			// today": the store's present state, that is its latest belief.
			if t.low == "today" && presentState[x.tok(i-1).low] {
				if x.s.belief != nil && !x.s.belief.Now {
					return &Refusal{Problem: fmt.Sprintf("the question names two belief times: %q and %q", x.s.belief.Written, x.span(i-1, i+1)), Missing: []string{"belief time"}}
				}
				if x.s.belief == nil {
					x.s.belief = &Belief{Now: true, Written: t.text}
				}
				continue
			}
			if cls := changers[t.low]; cls != "" && (c == "" || c == cUnsupported) {
				if x.boundsDelta(i) {
					x.s.ignored = append(x.s.ignored, t.text)
					continue
				}
				x.mark(cUnsupported, i)
				continue
			}
			// "UTC" restates the zone of a written time or cycle: with
			// neither it refers to nothing.
			if !ok && (t.low == "utc" || t.low == "gmt") && (len(x.s.times) > 0 || x.cycle() != "") {
				continue
			}
			// "@here", "@channel": a mention addresses the reader of a chat.
			if !ok && i > 0 && x.toks[i-1].text == "@" {
				x.s.ignored = append(x.s.ignored, "@"+t.text)
				continue
			}
			if !ok && isDiscourse(t.low) {
				x.s.ignored = append(x.s.ignored, t.text)
				continue
			}
			if !ok {
				if m := nearMonth(t.low); m != "" && (x.tok(i+1).kind == tNum || x.tok(i-1).kind == tNum) {
					a, b := i, i+2
					if x.tok(i+1).kind != tNum {
						a, b = i-1, i+1
					}
					return &Refusal{Problem: fmt.Sprintf("I could not read the date %q (did you mean %s?)", x.span(a, b), strings.ToUpper(m[:1])+m[1:]), Missing: []string{"time"}}
				}
				if numberWords[t.low] > 0 || unitUS[t.low] > 0 || sizeNouns[t.low] && x.numberBefore(i) >= 0 || t.low == "single" || t.low == "working" {
					deferred = append(deferred, i) // read once every concept is known
					continue
				}
				unknown = append(unknown, t.text)
				continue
			}
			// "the week after D", "the week beginning D": a period word no
			// slot read, right before a relation to a time, bounds the
			// window that relation opens; unread, the window would run on.
			if c == cPeriod {
				if rel := x.tok(i + 1).low; periodRelation[rel] && x.tok(i+2).used && !x.isNodeTok(i+2) && !x.namedLength(i, rel) {
					return &Refusal{Problem: fmt.Sprintf("I cannot read a window written as %q a time; write it as \"from A to B\"", x.span(i, i+2)), Missing: []string{"time"}}
				}
			}
			// "around 12 May": a time near the one written, which no
			// window reads.
			if c == cAround && t.low == "around" && x.tok(i+1).used && !x.isNodeTok(i+1) {
				return &Refusal{Problem: fmt.Sprintf("%q a time is no window I can read; write it as \"from A to B\"", t.text), Missing: []string{"time"}}
			}
			if c != "" {
				x.mark(c, i)
			}
			if c == cHowMany {
				x.counted(i)
			}
		case tNum:
			return &Refusal{Problem: fmt.Sprintf("I could not tell what the number %s means here", t.text)}
		case tISO, tSlash, tClock, tWeek, tQuarter:
			return &Refusal{Problem: fmt.Sprintf("I could not read the time %q", t.text), Missing: []string{"time"}}
		}
	}
	restated := map[int]bool{}
	for _, i := range deferred {
		if n := x.numberBefore(i); sizeNouns[x.toks[i].low] && n >= 0 && restated[n] || numberWords[x.toks[i].low] > 0 && x.restatedSize(i) || x.restatedUnit(i) || x.restatedSingle(i) || x.restatedWorkWeek(i) {
			restated[i] = true
			x.s.ignored = append(x.s.ignored, x.toks[i].text)
			continue
		}
		unknown = append(unknown, x.toks[i].text)
	}
	if len(unknown) > 0 {
		return &Refusal{Problem: fmt.Sprintf("I do not know the word%s %s", plural(len(unknown)), strings.Join(quoteAll(unknown), ", "))}
	}
	if i, ev := x.s.concepts[cEventKind]; ev && len(x.env.RelTypes) > 1 {
		x.s.eventKind = x.toks[i].text
	}
	delete(x.s.concepts, cEventKind)
	return nil
}

// presentState are the verbs of a store's present state before "today"
// ("as the archive stands today", "as the store knows today").
var presentState = map[string]bool{"stands": true, "stand": true, "knows": true, "know": true, "looks": true}

// getForms are the forms of "get", which before a participle make a passive.
var getForms = map[string]bool{"get": true, "gets": true, "got": true, "gotten": true, "getting": true}

// periodRelation are the words that relate a period to a time ("the week
// after D", "the week beginning D"): the period then bounds the window.
var periodRelation = map[string]bool{"after": true, "before": true, "following": true, "preceding": true,
	"beginning": true, "starting": true, "commencing": true, "ending": true, "since": true,
	"to": true, "until": true, "till": true, "through": true, "thru": true}

// nodeAt reports whether a node of the question is written at token i.
func (x *extractor) nodeAt(i int) bool {
	for _, n := range x.s.nodes {
		if n.i == i {
			return true
		}
	}
	return false
}

// cEventKind marks a word that names one kind of event ("messages",
// "ratings", a relation type) rather than edges of any relation.
const cEventKind = "event-kind"

// genericEvent are the stems of event words that name edges of any
// relation: "edges", "events", "interactions", "activity".
var genericEvent = map[string]bool{}

func init() {
	for _, w := range strings.Fields("edge edges event events interaction interactions activity traffic link links contact contacts exchange exchanges trade trades") {
		genericEvent[stem(w)] = true
	}
}

// isRelType reports whether a word names one of the store's relation
// types ("trust" for TRUST, "msgs" for MSG).
func (x *extractor) isRelType(w string) bool {
	for _, r := range x.env.RelTypes {
		l := strings.ToLower(r)
		if w == l || (len(w) > 3 && stem(w) == stem(l)) || abbreviations[w] == l || strings.TrimSuffix(w, "s") == l {
			return true
		}
	}
	return false
}

// joinHyphenated writes a hyphenated word as one where only the joined
// spelling is a word of the lexicon ("e-mail", "co-workers").
func joinHyphenated(toks []*token) []*token {
	var out []*token
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if i+2 < len(toks) && t.kind == tWord && toks[i+1].text == "-" && toks[i+2].kind == tWord {
			joined := t.low + toks[i+2].low
			_, whole := lookup(joined)
			_, left := lookup(t.low)
			if whole && !left {
				out = append(out, &token{kind: tWord, text: t.text + "-" + toks[i+2].text, low: joined})
				i += 2
				continue
			}
		}
		out = append(out, t)
	}
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// adjacent reports whether only hyphens or nothing separate tokens a < b.
func adjacent(toks []*token, a, b int) bool {
	for k := a + 1; k < b; k++ {
		if toks[k].text != "-" && toks[k].text != "—" {
			return false
		}
	}
	return true
}

func (x *extractor) mark(c string, i int) {
	if _, ok := x.s.concepts[c]; !ok {
		x.s.concepts[c] = i
	}
}

// counted records what "how many" counts: the first noun after it.
func (x *extractor) counted(i int) {
	for k := i + 1; k < len(x.toks) && k <= i+4; k++ {
		switch concept(x.toks[k].low) {
		case cNodeNoun, cNeighbour, cPartner:
			x.mark("counts-nodes", k)
			return
		case cEvent:
			if x.toks[k].low == "edge" && concept(x.tok(k+1).low) == cEvent {
				continue
			}
			x.mark("counts-events", k)
			return
		}
	}
}

func nearMonth(w string) string {
	for m := range monthNames {
		if len(m) >= 3 && len(w) >= 3 && editDistance(w, m) == 1 {
			return m
		}
	}
	return ""
}

func editDistance(a, b string) int {
	d := make([]int, len(b)+1)
	for j := range d {
		d[j] = j
	}
	for i := 1; i <= len(a); i++ {
		prev := d[0]
		d[0] = i
		for j := 1; j <= len(b); j++ {
			cur := d[j]
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[j] = min(d[j]+1, d[j-1]+1, prev+cost)
			prev = cur
		}
	}
	return d[len(b)]
}

func (in *intent) fitsConcepts(cs map[string]int) bool {
	for _, n := range in.need {
		ok := false
		for _, alt := range strings.Split(n, "|") {
			if _, has := cs[alt]; has {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	for c := range cs {
		if strings.HasPrefix(c, "counts-") {
			continue
		}
		if !in.accepts(c) {
			return false
		}
	}
	if in.counted == "nodes" {
		if _, ok := cs["counts-events"]; ok {
			return false
		}
	}
	if in.counted == "events" {
		if _, ok := cs["counts-nodes"]; ok {
			return false
		}
	}
	return true
}

// choose picks the intent whose concepts the question holds and whose
// slots it fills, and builds the reading.
func (x *extractor) choose(text string) (*Reading, error) {
	cs := x.s.concepts
	if _, bad := cs[cUnsupported]; bad {
		w := x.wordOf(cUnsupported)
		return nil, &Refusal{Problem: fmt.Sprintf("I cannot answer questions that ask for %q: no question shape I know uses it", w),
			Suggestions: suggestions(x, nil, x.env, 3)}
	}
	if x.s.eventKind != "" {
		return nil, &Refusal{Problem: fmt.Sprintf("which relation does %q mean? the store has %d relation types (%s) and these question shapes count edges of all of them; ask about \"edges\" or \"events\" to count them all",
			x.s.eventKind, len(x.env.RelTypes), strings.Join(x.env.RelTypes, ", ")), Suggestions: suggestions(x, nil, x.env, 3)}
	}
	var fit []*intent
	for _, in := range intents {
		if in.fits(x) {
			fit = append(fit, in)
		}
	}
	if len(fit) == 0 {
		return nil, &Refusal{Problem: "no question shape I know fits " + x.conceptText(), Suggestions: suggestions(x, nil, x.env, 3)}
	}
	// Among the shapes the words fit, keep those whose slots the question fills.
	var readings []*Reading
	var problems []string
	var near []*intent
	for _, in := range fit {
		r, prob := x.fill(in, text)
		if prob != "" {
			problems = append(problems, prob)
			near = append(near, in)
			continue
		}
		readings = append(readings, r)
	}
	switch len(readings) {
	case 1:
		return readings[0], nil
	case 0:
		return nil, &Refusal{Problem: strings.Join(unique(problems), "; "), Missing: missingOf(problems), Suggestions: suggestions(x, near, x.env, 3)}
	}
	names := make([]string, len(readings))
	var fits []*intent
	for i, r := range readings {
		names[i] = r.Intent
		fits = append(fits, byName(r.Intent))
	}
	return nil, &Refusal{Problem: "the question fits more than one shape equally (" + strings.Join(names, ", ") + ")", Suggestions: suggestions(x, fits, x.env, 3)}
}

func byName(n string) *intent {
	for _, in := range intents {
		if in.name == n {
			return in
		}
	}
	return nil
}

func unique(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

func missingOf(problems []string) []string {
	var out []string
	for _, p := range problems {
		for _, m := range []string{"node", "window", "time", "bucket", "duration"} {
			if strings.Contains(p, "which "+m) || strings.Contains(p, "no "+m) {
				out = append(out, m)
			}
		}
	}
	return unique(out)
}

func (x *extractor) wordOf(c string) string {
	if i, ok := x.s.concepts[c]; ok && i < len(x.toks) {
		return x.toks[i].text
	}
	return c
}

func (x *extractor) conceptText() string {
	var cs []string
	for c := range x.s.concepts {
		if !strings.HasPrefix(c, "counts-") {
			cs = append(cs, c)
		}
	}
	sort.Strings(cs)
	if len(cs) == 0 {
		return "the question: it names no quantity I can compute"
	}
	return "the words read as " + strings.Join(cs, ", ")
}

func parseFloat(s string) float64 { f, _ := strconv.ParseFloat(s, 64); return f }
func parseInt(s string) int64     { n, _ := strconv.ParseInt(s, 10, 64); return n }

func (r *Reading) node(role string) Node {
	for _, n := range r.Nodes {
		if n.Role == role {
			return n
		}
	}
	return Node{}
}

func (r *Reading) maxHops() int64 {
	if r.Options["max_hops"] != "" {
		return parseInt(r.Options["max_hops"])
	}
	return 4
}

// namedLength reports whether the period word at i names a window's
// length from the time that follows it ("the day after D", "a week
// starting D"): the window filler reads that form, or refuses a period
// of no fixed length (a month starting on a day).
func (x *extractor) namedLength(i int, rel string) bool {
	if _, ok := periodLength[x.tok(i).low]; !ok || !startPreps[rel] || i == 0 {
		return false
	}
	a := x.tok(i - 1).low
	return a == "the" || a == "a" || a == "one"
}
