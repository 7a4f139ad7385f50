package ops_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

// resolveTextRunes mixes ASCII with runes whose lower case has another
// byte length (İ, K Kelvin sign, ẞ) or folds onto ASCII.
var resolveTextRunes = []rune("abkAKİiKẞßΣσ_1")

func resolveText(rng *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteRune(resolveTextRunes[rng.IntN(len(resolveTextRunes))])
	}
	return b.String()
}

// TestResolveEntitiesTextIndexMatchesOracle runs resolve_entities against
// its brute-force oracle on stores with long mixed-case Unicode uids and
// names that change across versions (asserts, corrections, retractions),
// with queries cut from those texts (most of them long enough for the
// trigram index), re-cased, or absent from every text; it also checks
// pinned reads, so the index built at a later belief must still answer an
// earlier one exactly.
func TestResolveEntitiesTextIndexMatchesOracle(t *testing.T) {
	spec, ok := ops.Lookup("resolve_entities")
	if !ok {
		t.Fatal("resolve_entities is not registered")
	}
	rng := rand.New(rand.NewPCG(16, 3))
	for i := range casesPerOp() {
		var uids, texts []string
		for range 2 + rng.IntN(6) {
			u := resolveText(rng, 1+rng.IntN(8))
			uids = append(uids, u)
			texts = append(texts, u)
		}
		props := func() bt.Props {
			if rng.IntN(4) == 0 {
				return `{"name":7}`
			}
			name := resolveText(rng, rng.IntN(9))
			texts = append(texts, name)
			return bt.Props(`{"name":` + string(canon.AppendString(nil, name)) + `}`)
		}
		var hist []oracle.Batch
		for b := range 1 + rng.IntN(5) {
			var batch []bt.Op
			for range 1 + rng.IntN(3) {
				uid := uids[rng.IntN(len(uids))]
				s := bt.Time(rng.IntN(50))
				iv := bt.Interval{Start: s, End: s + 1 + bt.Time(rng.IntN(50))}
				switch rng.IntN(4) {
				case 0:
					batch = append(batch, bt.Correct(bt.NodeRef(uid), props(), iv))
				case 1:
					batch = append(batch, bt.Retract(bt.NodeRef(uid), s))
				default:
					batch = append(batch, bt.AssertNode(uid, []string{"P", "Q"}[rng.IntN(2)], props(), iv))
				}
			}
			hist = append(hist, oracle.Batch{TT: bt.Time(10 * (b + 1)), Ops: batch})
		}
		m, e := build(t, hist)
		q := texts[rng.IntN(len(texts))]
		switch rng.IntN(5) {
		case 0:
			q = strings.ToUpper(q)
		case 1:
			q = resolveText(rng, 3+rng.IntN(3))
		default:
			rs := []rune(q)
			lo := rng.IntN(len(rs) + 1)
			q = string(rs[lo : lo+rng.IntN(len(rs)-lo+1)])
		}
		if q == "" {
			q = "ab"
		}
		args := map[string]any{"query": q}
		if rng.IntN(4) == 0 {
			args["label"] = "P"
		}
		if rng.IntN(4) == 0 {
			args["prop"] = map[string]any{"prop": "name", "value": resolveText(rng, 1)}
		}
		if len(m.UIDs) > 0 && rng.IntN(3) == 0 {
			args["as_of_tt"] = bt.Time(10 * (1 + rng.IntN(len(hist))))
		}
		compareOne(t, i, spec, m, e, args)
		checkPinned(t, i, spec, hist, e, args)
	}
}

// Only the first page's rows are built: pages of every size, walked with
// their cursors, concatenate to the whole result, with the same
// rows_total, and a first page is the whole result's prefix.
func TestResolveEntitiesPagesConcatenateToWhole(t *testing.T) {
	var batch []bt.Op
	for i := range 40 {
		name := bt.Props(fmt.Sprintf(`{"name":"x%d"}`, i%7))
		batch = append(batch, bt.AssertNode(fmt.Sprintf("n%d", (i*17)%40), "P", name, bt.Interval{Start: 0, End: 10}))
	}
	_, e := build(t, []oracle.Batch{{TT: 10, Ops: batch}})
	src := storeSource{e}
	for _, q := range []string{"n1", "1", "x3", "n"} {
		args := map[string]any{"query": q}
		whole, err := ops.ExecuteWith(context.Background(), src, "resolve_entities", args, ops.ExecOptions{Whole: true})
		if err != nil {
			t.Fatal(err)
		}
		want := whole.Result["rows"].([]any)
		for _, limit := range []int64{1, 2, 3, 7, 100} {
			var got []any
			cursor := any(nil)
			for {
				env, err := ops.Execute(context.Background(), src, "resolve_entities", map[string]any{"query": q, "limit": limit, "cursor": cursor})
				if err != nil {
					t.Fatal(err)
				}
				if env.Result["rows_total"] != int64(len(want)) {
					t.Fatalf("%q limit %d: rows_total %v, want %d", q, limit, env.Result["rows_total"], len(want))
				}
				got = append(got, env.Result["rows"].([]any)...)
				if cursor = env.Result["cursor"]; cursor == nil {
					break
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%q limit %d: pages\n%v\nwant\n%v", q, limit, got, want)
			}
		}
	}
}
