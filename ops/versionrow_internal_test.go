package ops

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
)

// awkward strings: escapes, control characters, quotes, multi-byte and
// astral code points, the empty string.
var awkward = []string{"", "n1", "a\"b", `back\slash`, "tab\tnew\nline\r", "\x00\x01\x1f\x7f", "é", "日本語", "😀 emoji", "<&>", "\u2028\u2029", strings.Repeat("x", 300)}

var awkwardInts = []int64{0, 1, -1, math.MaxInt64, math.MinInt64, 1 << 53, -(1 << 53) - 1, bt.OpenEnd, 1_700_000_000_000_000}

func randString(rng *rand.Rand) string {
	if rng.IntN(3) == 0 {
		return awkward[rng.IntN(len(awkward))]
	}
	var b strings.Builder
	for range rng.IntN(6) {
		switch rng.IntN(3) {
		case 0:
			b.WriteString(awkward[rng.IntN(len(awkward))])
		case 1:
			b.WriteRune(rune(rng.IntN(0x3000)))
		default:
			b.WriteRune(rune(0x10000 + rng.IntN(0x100000)))
		}
	}
	return b.String()
}

// randValue is a random value of the canonical model, floats included
// when floats.
func randValue(rng *rand.Rand, depth int, floats bool) any {
	k := rng.IntN(9)
	if depth > 3 {
		k = rng.IntN(6)
	}
	switch k {
	case 0:
		return nil
	case 1:
		return rng.IntN(2) == 0
	case 2:
		return awkwardInts[rng.IntN(len(awkwardInts))]
	case 3:
		return rng.Int64N(1000) - 500
	case 4:
		if floats {
			return []float64{0.5, 1.0 / 3, -2.25e-7, 1e21, 123456.789012345}[rng.IntN(5)]
		}
		return int64(7)
	case 5:
		return randString(rng)
	case 6:
		a := make([]any, rng.IntN(4))
		for i := range a {
			a[i] = randValue(rng, depth+1, floats)
		}
		return a
	default:
		m := map[string]any{}
		for range rng.IntN(5) {
			m[randString(rng)] = randValue(rng, depth+1, floats)
		}
		return m
	}
}

func randProps(t *testing.T, rng *rand.Rand, floats bool) bt.Props {
	m := map[string]any{}
	for range rng.IntN(5) {
		m[randString(rng)] = randValue(rng, 0, floats)
	}
	if len(m) == 0 && rng.IntN(2) == 0 {
		return "" // no bag at all: {}
	}
	b, err := canon.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return bt.Props(b)
}

func randProv(rng *rand.Rand) map[string]any {
	if rng.IntN(3) == 0 {
		return nil
	}
	p := &bt.Provenance{Source: randString(rng), Actor: randString(rng), Derived: rng.IntN(2) == 0}
	return p.Map()
}

// sameEncoding checks that a typed row and its map form encode, size and
// digest alike, alone and in a payload.
func sameEncoding(t *testing.T, i int, typed canon.Sized, plain map[string]any) {
	t.Helper()
	got, err := canon.Marshal(typed)
	if err != nil {
		t.Fatalf("case %d: typed: %v", i, err)
	}
	want, err := canon.Marshal(plain)
	if err != nil {
		t.Fatalf("case %d: map: %v", i, err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("case %d: typed row encodes\n%s\nits map\n%s", i, got, want)
	}
	if f, g := typed.Footprint(), canon.Footprint(plain); f != g {
		t.Fatalf("case %d: typed footprint %d, map %d (%s)", i, f, g, want)
	}
	s1, err1 := canon.Summarize(map[string]any{"rows": []any{typed, typed}, "rows_total": int64(2)}, math.MaxInt64)
	s2, err2 := canon.Summarize(map[string]any{"rows": []any{plain, plain}, "rows_total": int64(2)}, math.MaxInt64)
	if err1 != nil || err2 != nil || s1 != s2 {
		t.Fatalf("case %d: summaries %+v (%v) and %+v (%v)", i, s1, err1, s2, err2)
	}
}

// TestVersionRowsEncodeAsTheirMaps compares the typed version rows'
// canonical encoding with the generic encoder's over their map forms, on
// random rows with awkward values.
func TestVersionRowsEncodeAsTheirMaps(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 2))
	ops := []bt.OpKind{bt.OpAssertNode, bt.OpRetract, bt.OpCorrect, bt.OpIngest}
	floatRows := 0
	for i := range 3000 {
		v := bt.NodeVersion{UID: randString(rng), Label: randString(rng), Props: randProps(t, rng, i%4 == 0),
			Valid: bt.Interval{Start: awkwardInts[rng.IntN(len(awkwardInts))], End: awkwardInts[rng.IntN(len(awkwardInts))]},
			TTs:   awkwardInts[rng.IntN(len(awkwardInts))], CreatedBy: ops[rng.IntN(len(ops))]}
		nr := newNodeVersionRow(v, "0123456789abcdef01234567")
		if nr == nil {
			// Only a bag holding a float keeps the map row.
			if _, floats := canon.TextFootprint(v.Props.JSON()); !floats {
				t.Fatalf("case %d: no typed row for a float-free bag %s", i, v.Props.JSON())
			}
			floatRows++
			continue
		}
		nr.prov = randProv(rng)
		var old nodeRows
		want := old.row(v, nr.vid)
		if nr.prov != nil {
			want["provenance"] = nr.prov
		}
		sameEncoding(t, i, nr, want)
		sameEncoding(t, i, nr, nr.Map())

		er := &edgeVersionRow{eid: "abcdefabcdefabcdefabcdef", vid: "0123456789abcdef01234567",
			src: randString(rng), dst: randString(rng), rel: randString(rng),
			vts: awkwardInts[rng.IntN(len(awkwardInts))], vte: awkwardInts[rng.IntN(len(awkwardInts))], prov: randProv(rng)}
		sameEncoding(t, i, er, er.Map())
	}
	if floatRows == 0 {
		t.Fatal("no bag with a float was drawn: the fallback is untested")
	}
}

// TestVersionRowsRefuseBadUTF8 checks that a typed row with a string that
// is not UTF-8 fails to encode, as its map form does.
func TestVersionRowsRefuseBadUTF8(t *testing.T) {
	for _, r := range []canon.Sized{
		&nodeVersionRow{uid: "n\xff", vid: "v"},
		&nodeVersionRow{uid: "n", label: "\xc3", vid: "v"},
		&edgeVersionRow{src: "a", dst: "b\xfe", rel: "r"},
		&edgeVersionRow{src: "a", dst: "b", rel: "\xed\xa0\x80"},
	} {
		if _, err := canon.Marshal(r); err == nil {
			t.Errorf("%+v encoded", r)
		}
	}
}
