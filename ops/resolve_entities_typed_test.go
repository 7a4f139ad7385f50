package ops_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"math/rand/v2"
	"reflect"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

// resolveTypedNames are property bags whose name is of every JSON type:
// strings (empty, mixed case, non-ASCII), an integer, floats (which the
// digest rounds), a boolean, null, an object and an array holding a
// float; and bags without a name, with a float elsewhere or none.
var resolveTypedNames = []bt.Props{
	"", `{}`, `{"name":"N1 the first"}`, `{"name":""}`, `{"name":"ȺN1ß"}`, `{"name":12}`,
	`{"name":1.5}`, `{"name":0.30000000000000004}`, `{"name":true}`, `{"name":null}`,
	`{"name":{"first":"n1","w":2.5}}`, `{"name":["n1",0.1]}`, `{"w":2.5}`, `{"name":"x1","w":0.7}`, `{"name":"n12","w":3}`,
}

// TestResolveEntitiesTypedPages checks resolve_entities' typed rows on
// random stores (uids and names of every JSON type that share short
// fragments, uids and labels that need escapes or are not ASCII, several
// versions per uid, corrections and retractions):
// every page of the whole result, walked with its cursor, must encode to
// the same canonical envelope, digest and size with typed rows as with
// map rows; the pages must concatenate to the whole result, which must be
// the oracle's; and a cursor holding any key, one of no row included,
// must start the page at the first row after that key.
func TestResolveEntitiesTypedPages(t *testing.T) {
	spec, _ := ops.Lookup("resolve_entities")
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(26, 11))
	uidPool := []string{"n1", "n10", "N12", "n2", "xn1", "a1", "b", "n1b", "Ab1", "k", "n", "1", `n1"q`, `N1\`, "ñ1", "n1\t\u007f"}
	pages, floatRows := 0, 0
	for i := range 800 {
		var hist []oracle.Batch
		for b := range 1 + rng.IntN(5) {
			var batch []bt.Op
			for range 2 + rng.IntN(8) {
				uid := uidPool[rng.IntN(len(uidPool))]
				props := resolveTypedNames[rng.IntN(len(resolveTypedNames))]
				s := bt.Time(rng.IntN(40))
				iv := bt.Interval{Start: s, End: s + 1 + bt.Time(rng.IntN(40))}
				switch rng.IntN(5) {
				case 0:
					batch = append(batch, bt.Correct(bt.NodeRef(uid), props, iv))
				case 1:
					batch = append(batch, bt.Retract(bt.NodeRef(uid), s))
				default:
					batch = append(batch, bt.AssertNode(uid, []string{"P", "Q", `P"1`, "Ñ"}[rng.IntN(4)], props, iv))
				}
			}
			hist = append(hist, oracle.Batch{TT: bt.Time(10 * (b + 1)), Ops: batch})
		}
		m, e := build(t, hist)
		src := storeSource{e}
		args := map[string]any{"query": []string{"n", "1", "n1", "N1", "b", "x", "ß"}[rng.IntN(7)]}
		if rng.IntN(4) == 0 {
			args["label"] = "P"
		}
		if rng.IntN(5) == 0 {
			args["prop"] = map[string]any{"prop": "name", "value": "1"}
		}
		if rng.IntN(4) == 0 {
			args["as_of_tt"] = bt.Time(10 * (1 + rng.IntN(len(hist))))
		}
		compareOne(t, i, spec, m, e, args)
		whole, err := ops.ExecuteWith(ctx, src, "resolve_entities", clone(args), ops.ExecOptions{Whole: true})
		if err != nil {
			t.Fatalf("case %d %v: %v", i, args, err)
		}
		want := whole.Result["rows"].([]any)
		for _, r := range want {
			if _, floats := canon.TextFootprint(string(mustMarshal(t, r.(map[string]any)["name"]))); floats {
				floatRows++
			}
		}

		// Every page, both ways.
		a := clone(args)
		a["limit"] = int64(1 + rng.IntN(3))
		var got []any
		for {
			plain, _ := resolveBothWays(t, i, a)(src)
			if plain.Result["rows_total"] != int64(len(want)) {
				t.Fatalf("case %d %v: rows_total %v, want %d", i, a, plain.Result["rows_total"], len(want))
			}
			got = append(got, plain.Result["rows"].([]any)...)
			pages++
			cur, _ := plain.Result["cursor"].(string)
			if cur == "" {
				break
			}
			if len(got) > len(want) {
				t.Fatalf("case %d %v: the pages hold more rows than the whole result's %d", i, args, len(want))
			}
			a["cursor"] = cur
		}
		if !reflect.DeepEqual(got, want) && len(want) > 0 {
			t.Fatalf("case %d %v: pages\n%v\nwant\n%v", i, args, got, want)
		}

		// A cursor after any key: match 0..3 and a uid from the pool or
		// not in it.
		key := []any{int64(rng.IntN(4)), []string{"", "n1", "n10", "n11", "b", "zz", "N12"}[rng.IntN(7)]}
		a = clone(args)
		delete(a, "as_of_tt")
		a["cursor"] = resolveCursor(t, whole.AsOfTT, key)
		a["limit"] = int64(1 + rng.IntN(4))
		plain, _ := resolveBothWays(t, i, a)(src)
		var after []any
		for _, r := range want {
			row := r.(map[string]any)
			if m := row["match"].(int64); m > key[0].(int64) || m == key[0].(int64) && row["uid"].(string) > key[1].(string) {
				after = append(after, r)
			}
		}
		after = after[:min(len(after), int(a["limit"].(int64)))]
		if rows := plain.Result["rows"].([]any); !reflect.DeepEqual(rows, after) && len(after)+len(rows) > 0 {
			t.Fatalf("case %d %v after %v: rows\n%v\nwant\n%v", i, args, key, rows, after)
		}
	}
	if pages < 700 || floatRows < 30 {
		t.Fatalf("only %d pages compared, %d rows with a float name", pages, floatRows)
	}
}

// resolveBothWays runs resolve_entities(args) with map rows and with typed
// rows and checks that the envelopes are the same bytes, digests and
// sizes, and that the map rows are maps.
func resolveBothWays(t *testing.T, i int, args map[string]any) func(storeSource) (*ops.Envelope, *ops.Envelope) {
	return func(src storeSource) (*ops.Envelope, *ops.Envelope) {
		t.Helper()
		ctx := context.Background()
		plain, err := ops.Execute(ctx, src, "resolve_entities", clone(args))
		if err != nil {
			t.Fatalf("case %d %v: %v", i, args, err)
		}
		typed, err := ops.ExecuteWith(ctx, src, "resolve_entities", clone(args), ops.ExecOptions{Typed: true})
		if err != nil {
			t.Fatalf("case %d %v (typed): %v", i, args, err)
		}
		a, errA := plain.Canonical()
		b, errB := typed.Canonical()
		if errA != nil || errB != nil {
			t.Fatal(errA, errB)
		}
		if !bytes.Equal(a, b) || plain.ResultDigest != typed.ResultDigest || plain.Bytes != typed.Bytes {
			t.Fatalf("case %d %v: map and typed envelopes differ (%d and %d bytes):\n%s\n%s", i, args, plain.Bytes, typed.Bytes, a, b)
		}
		checkMapSummary(t, plain, typed)
		for _, r := range plain.Result["rows"].([]any) {
			if _, ok := r.(map[string]any); !ok {
				t.Fatalf("case %d: a row of the default envelope is %T, not a map", i, r)
			}
		}
		return plain, typed
	}
}

// resolveCursor is a cursor after key at belief time tt, as the pager
// writes one.
func resolveCursor(t *testing.T, tt bt.Time, key []any) string {
	b, err := canon.Marshal(map[string]any{"tt": tt, "after": key})
	if err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

func mustMarshal(t *testing.T, v any) []byte {
	b, err := canon.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
