package reader_test

import (
	"strings"
	"testing"
	"time"

	"github.com/tgms-go/tgms/agent/reader"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/plan"
)

func us(s string) int64 {
	for _, l := range []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00", "2006-01-02"} {
		if t, err := time.Parse(l, s); err == nil {
			return t.UnixMicro()
		}
	}
	panic(s)
}

// Date forms, each read as the window of a count of messages.
func TestTimeForms(t *testing.T) {
	cases := []struct{ q, a, b string }{
		{"How many messages were sent from 2004-05-03 to 2004-06-10?", "2004-05-03", "2004-06-10"},
		{"How many messages were sent between May 3, 2004 and June 10, 2004?", "2004-05-03", "2004-06-10"},
		{"How many messages were sent from 3 May 2004 to 10 June 2004?", "2004-05-03", "2004-06-10"},
		{"How many messages were sent from the 3rd of May 2004 to the 10th of June 2004?", "2004-05-03", "2004-06-10"},
		{"How many messages were sent from 2004/05/03 to 2004/06/10?", "2004-05-03", "2004-06-10"},
		{"How many messages were sent from May 3, 2004 through June 10, 2004?", "2004-05-03", "2004-06-11"},
		{"How many messages were sent from May 3, 2004 to June 10, 2004 inclusive?", "2004-05-03", "2004-06-11"},
		{"How many messages were sent 2004-05-03 .. 2004-06-10?", "2004-05-03", "2004-06-10"},
		{"How many messages were sent during May 2004?", "2004-05-01", "2004-06-01"},
		{"How many messages were sent in June?", "2004-06-01", "2004-07-01"},
		{"How many messages were sent in the first week of June 2004?", "2004-06-01", "2004-06-08"},
		{"How many messages were sent in the last week of June 2004?", "2004-06-24", "2004-07-01"},
		{"How many messages were sent in the week of May 3, 2004?", "2004-05-03", "2004-05-10"},
		{"How many messages were sent in 2004-W19?", "2004-05-03", "2004-05-10"},
		{"How many messages were sent in week 19 of 2004?", "2004-05-03", "2004-05-10"},
		{"How many messages were sent in Q3 2004?", "2004-07-01", "2004-10-01"},
		{"How many messages were sent in 2004-Q2?", "2004-04-01", "2004-07-01"},
		{"How many messages were sent in the third quarter of 2004?", "2004-07-01", "2004-10-01"},
		{"How many messages were sent in 2004?", "2004-01-01", "2005-01-01"},
		{"How many messages were sent on May 3, 2004?", "2004-05-03", "2004-05-04"},
		{"How many messages were sent in the 10 days starting May 3, 2004?", "2004-05-03", "2004-05-13"},
		{"How many messages were sent from noon UTC on May 3, 2004 to 15:30 UTC on May 4, 2004?", "2004-05-03T12:00:00Z", "2004-05-04T15:30:00Z"},
		{"How many messages were sent from May 3, 2004 at 3pm UTC to May 4, 2004 at 9:15 am?", "2004-05-03T15:00:00Z", "2004-05-04T09:15:00Z"},
		{"How many messages were sent from 2004-05-03T12:00:00+02:00 to 2004-05-03T18:00:00Z?", "2004-05-03T10:00:00Z", "2004-05-03T18:00:00Z"},
		{"How many messages were sent from 2004-05-03 14:00 UTC+2 to 2004-05-04 00:00 UTC?", "2004-05-03T12:00:00Z", "2004-05-04T00:00:00Z"},
		{"How many messages were sent from 1083585600000000 to 1083672000000000?", "2004-05-03T12:00:00Z", "2004-05-04T12:00:00Z"},
		{"How many messages were sent from 2004-05-03 12:00 UTC (1083585600000001) to 2004-05-04 12:00 UTC (1083672000000000)?", "2004-05-03T12:00:00.000001Z", "2004-05-04T12:00:00Z"},
		{"How many messages were sent from 15/05/2004 to 2004-06-10?", "2004-05-15", "2004-06-10"},
	}
	r, err := reader.Read("How many messages were sent from 0 to 100?", collegeEnv)
	if err != nil || r.Window.Start != 0 || r.Window.End != 100 {
		t.Errorf("small raw microseconds: %v %v", r, err)
	}
	for _, c := range cases {
		r, err := reader.Read(c.q, collegeEnv)
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		if r.Window == nil || r.Window.Start != us(c.a) || r.Window.End != us(c.b) {
			t.Errorf("%q: %s, want [%s, %s)", c.q, r.Line(), c.a, c.b)
		}
	}
}

// Unreadable, ambiguous or incomplete questions are refused with a
// reason naming the problem and, where a shape is near, suggested forms.
func TestRefusals(t *testing.T) {
	cases := []struct{ q, want string }{
		{"How many messages were sent on Mayy 3, 2004?", `I could not read the date "Mayy 3"`},
		{"How many messages were sent on 2004-02-30?", "no such day"},
		{"How many messages were sent on 03/05/2004?", "3 May 2004 or 5 March 2004"},
		{"How many messages were sent at 12:00 EST on May 3, 2004?", "time zone EST"},
		{"How many nodes can reach?", "which node?"},
		{"Which nodes were neighbours of n42 on May 3, 2004?", "which instant?"},
		{"How many messages did n42 send to n17 and n18 in May 2004?", "names 3 nodes"},
		{"Which node is the most influential one?", `"influential"`},
		{"How many messages did n5 send in a wibble?", `"wibble"`},
		{"How many messages did n99999 send in May 2004?", "n99999 is not a node"},
		{"How many bursts were there in May 2004?", "which bucket size?"},
		{"How many cyclic triangles were there in May 2004?", "which duration?"},
		{"How many messages were sent in May?", ""}, // one May in the extent: read
		{"How many messages were sent between 2004-06-10 and 2004-05-03?", "ends before it starts"},
		{"How many messages did n42 send in 1.5 µs buckets?", "not a whole number"},
		{"", "empty"},
	}
	for _, c := range cases {
		_, err := reader.Read(c.q, collegeEnv)
		if c.want == "" {
			if err != nil {
				t.Errorf("%q: %v", c.q, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want a refusal mentioning %q", c.q, err, c.want)
		}
	}
	// A year that the extent does not decide is asked for.
	wide := reader.Env{VtMin: us("2004-01-01"), VtMax: us("2006-01-01"), IsNode: uidBelow(10)}
	if _, err := reader.Read("How many messages were sent in June?", wide); err == nil || !strings.Contains(err.Error(), "which year?") {
		t.Errorf("June over two years: %v", err)
	}
	// Suggestions carry the question's own slots.
	_, err := reader.Read("What is the average number of messages n42 sent in May 2004?", collegeEnv)
	rf, ok := err.(*reader.Refusal)
	if !ok || len(rf.Suggestions) == 0 || !strings.Contains(strings.Join(rf.Suggestions, "|"), "n42") {
		t.Errorf("suggestions %v (%v)", rf, err)
	}
}

// Durations are read exactly; a rounded figure is pinned by its µs.
func TestDurations(t *testing.T) {
	cases := []struct {
		q      string
		bucket int64
	}{
		{"In buckets of 3 days during May 2004, which bucket had the most messages?", 3 * 86_400_000_000},
		{"Which 10-day bucket had the most messages in Q3 2004?", 10 * 86_400_000_000},
		{"With weekly buckets in Q3 2004, when were messages at their peak?", 7 * 86_400_000_000},
		{"In 1.5 hour buckets during May 2004, which bucket had the most messages?", 5_400_000_000},
		{"In buckets of 4.3 days (371520000000 µs) during Q3 2004, which bucket was busiest?", 371_520_000_000},
		{"Which day in May 2004 had the most messages?", 86_400_000_000},
	}
	for _, c := range cases {
		r, err := reader.Read(c.q, collegeEnv)
		if err != nil || r.Bucket == nil || r.Bucket.Micros != c.bucket {
			t.Errorf("%q: %v %v, want bucket %d", c.q, r, err, c.bucket)
		}
	}
	if _, err := reader.Read("In buckets of 4.3 days (360000000000 µs) during Q3 2004, which bucket was busiest?", collegeEnv); err == nil {
		t.Error("a µs value that does not round to the figure was accepted")
	}
}

// Belief-time phrases.
func TestBelief(t *testing.T) {
	cases := []struct {
		q   string
		tt  int64
		now bool
	}{
		{"How many versions of n3 did the store believe as of transaction time 1700000005000000?", 1700000005000000, false},
		{"As of belief time 2023-11-14T22:13:20Z, how many versions did n3 have?", us("2023-11-14T22:13:20Z"), false},
		{"How many versions did n3 have as the store believed on 2023-11-14?", us("2023-11-15") - 1, false},
		{"Before the correction at 1700000005000000, how many versions did n3 have?", 1700000004999999, false},
		{"How many versions does n3 have now?", 0, true},
		{"Under current belief, how many versions does n3 have?", 0, true},
	}
	for _, c := range cases {
		r, err := reader.Read(c.q, collegeEnv)
		if err != nil || r.Belief.Now != c.now || (!c.now && r.Belief.AsOfTT != c.tt) {
			t.Errorf("%q: %+v %v, want tt %d now %v", c.q, r, err, c.tt, c.now)
		}
	}
}

// Word order does not change the reading.
func TestWordOrder(t *testing.T) {
	qs := []string{
		"How many messages did n42 send in May 2004?",
		"In May 2004, how many messages did n42 send?",
		"How many messages did n42 send during May 2004?",
		"n42: how many messages sent, May 2004?",
	}
	var first []byte
	for _, q := range qs {
		r, err := reader.Read(q, collegeEnv)
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		p, _ := canon.Parse(r.Plan())
		steps := p.(map[string]any)["steps"]
		b, _ := canon.Marshal(steps)
		if first == nil {
			first = b
		} else if string(b) != string(first) {
			t.Errorf("%q: plan steps %s, want %s", q, b, first)
		}
	}
}

// Every intent's example, filled in, is read as that intent, and its plan
// passes the plan contract.
func TestExamplesReadAsTheirIntent(t *testing.T) {
	fill := strings.NewReplacer("{x}", "n42", "{y}", "n17", "{W}", "in May 2004", "{t}", "2004-05-03 12:00 UTC",
		"{t1}", "2004-05-03", "{t2}", "2004-05-10", "{D}", "2 hours", "{k}", "5")
	for _, in := range reader.Intents() {
		q := fill.Replace(in[1])
		if in[0] == "busiest-bucket" || in[0] == "burst-count" || in[0] == "first-burst" {
			q = strings.ReplaceAll(q, "2 hours", "2-day")
		}
		r, err := reader.Read(q, collegeEnv)
		if err != nil {
			t.Errorf("%s: %q: %v", in[0], q, err)
			continue
		}
		if r.Intent != in[0] {
			t.Errorf("%q: read as %s, want %s", q, r.Intent, in[0])
		}
		if v := plan.ValidateJSON(r.Plan(), plan.Options{UIDs: []string{"n42", "n17"}}); !v.Valid {
			t.Errorf("%s: plan rejected: %+v\n%s", in[0], v.Violations, r.Plan())
		}
	}
}

// No two intents claim the same corpus question: every question the
// corpus expects read is claimed by its intent alone, and every question
// it expects refused by at most one (a refusal for another reason).
func TestNoTwoIntentsClaimAQuestion(t *testing.T) {
	for _, it := range loadCorpus(t, "all") {
		env := collegeEnv
		if it.store == "S" {
			env = synthEnv
		}
		c := reader.Claims(it.question, env)
		if len(c) > 1 {
			t.Errorf("line %d: claimed by %v: %q", it.line, c, it.question)
		}
	}
}

// The reader never panics, and on random text refuses rather than
// answers: whatever it does read has a plan that passes the contract.
func FuzzRead(f *testing.F) {
	for _, it := range []string{
		"How many nodes can n42 reach between May 3, 2004 and June 10, 2004?",
		"In buckets of 4.3 days (371520000000 µs) during Q3 2004, which bucket was busiest?",
		"Before the correction at 1700000005000000, how many versions did n3 have?",
		"Which nodes were neighbours of n7 at 2004-06-15 09:00 UTC but not at 2004-06-01 09:00 UTC?",
		"\"Alice\" \"\" ((( .. → ≥ 2004-W99 Q5 99/99/9999 25:61",
		"",
	} {
		f.Add(it)
	}
	f.Fuzz(func(t *testing.T, text string) {
		r, err := reader.Read(text, collegeEnv)
		if err != nil {
			if _, ok := err.(*reader.Refusal); !ok {
				t.Fatalf("%q: error %T %v is not a refusal", text, err, err)
			}
			return
		}
		v := plan.ValidateJSON(r.Plan(), plan.Options{UIDs: uidsIn(r)})
		if !v.Valid {
			t.Fatalf("%q: read as %s with a plan the contract rejects: %+v", text, r.Intent, v.Violations)
		}
	})
}

func uidsIn(r *reader.Reading) []string {
	var out []string
	for _, n := range r.Nodes {
		if !n.ByName {
			out = append(out, n.UID)
		}
	}
	return out
}

// Random word salad built from the lexicon is refused, not answered.
func TestRandomTextRefused(t *testing.T) {
	vocab := strings.Fields("how many which nodes messages reach first n42 n17 sent received between and from to May 2004 June " +
		"the of in at noon UTC buckets days bursts triangles within hours versions now most top 5 neighbours degree not")
	seed := uint64(1)
	next := func(n int) int {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int((seed >> 33) % uint64(n))
	}
	answered := 0
	const trials = 3000
	for range trials {
		var ws []string
		for range 4 + next(10) {
			ws = append(ws, vocab[next(len(vocab))])
		}
		q := strings.Join(ws, " ")
		r, err := reader.Read(q, collegeEnv)
		if err != nil {
			continue
		}
		answered++
		if v := plan.ValidateJSON(r.Plan(), plan.Options{UIDs: uidsIn(r)}); !v.Valid {
			t.Errorf("%q: plan rejected: %+v", q, v.Violations)
		}
	}
	t.Logf("%d of %d random word sequences were read (each with an admitted plan)", answered, trials)
	// The rate the reader has (6 of 3000, 0.2%): more means a rule began
	// reading words it should refuse.
	if answered*500 > trials {
		t.Errorf("%d of %d random word sequences were read, over 0.2%%: random text must be refused", answered, trials)
	}
}
