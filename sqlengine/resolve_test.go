package sqlengine

import (
	"context"
	"strings"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/internal/pgtest"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/oracle"
)

// Texts whose lower case differs between Go's strings.ToLower and
// PostgreSQL's lower(): resolve_entities under --engine sql finds what
// the in-memory engine finds, and the test of non-ASCII texts in its
// candidate filter is what makes it so.
func TestResolveCaseFolding(t *testing.T) {
	c := pgtest.Shared(t)
	ctx := context.Background()
	url := schemaURL(c, "fold")
	iv := bt.Interval{Start: 0, End: 100}
	node := func(uid, name string) bt.Op {
		return bt.AssertNode(uid, "Person", bt.Props(`{"name":"`+name+`"}`), iv)
	}
	s := writeHistory(t, url, []oracle.Batch{{TT: 10, Ops: []bt.Op{
		node("n1", "\u212Aelvin"), // KELVIN SIGN: Go lowers it to an ASCII k
		node("n2", "KELVIN"),
		node("\u0130st", "x"), // LATIN CAPITAL LETTER I WITH DOT ABOVE: Go lowers it to i
		node("n4", "ΣΟΦΙΑ"),
		node("n5", "Åsa Ünal"),
		node("Ünal", "y"),
		node("n7", "straße"),
	}}})
	defer s.Close()
	e, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	queries := []string{"kel", "KEL", "\u212A", "k", "i", "İ", "ist", "σοφ", "ΣΟΦ", "å", "Å", "ü", "ünal", "UNAL", "ß", "SS", "n"}
	run := func(verbose bool) (answered, differ int) {
		for _, q := range queries {
			for _, at := range []any{nil, int64(50)} {
				args := map[string]any{"query": q}
				if at != nil {
					args["at"] = at
				}
				nonEmpty, err := compare(ctx, ops.NativeBackend{Src: native{s}}, e, map[string]any{"op": "resolve_entities", "args": args})
				if err != nil {
					differ++
					if verbose {
						t.Log(err)
					}
				}
				if nonEmpty {
					answered++
				}
			}
		}
		return answered, differ
	}
	answered, differ := run(true)
	if differ > 0 {
		t.Fatalf("%d calls differ", differ)
	}
	if answered < 20 {
		t.Fatalf("only %d calls found a node", answered)
	}
	// Without the non-ASCII test, lower() under COLLATE "C" misses what Go
	// folds to ASCII (n1 for "kel", İst for "i").
	orig := resolveFoldSQL
	resolveFoldSQL = strings.Replace(orig, "octet_length(%[1]s) <> char_length(%[1]s) OR ", "", 1)
	defer func() { resolveFoldSQL = orig }()
	if resolveFoldSQL == orig {
		t.Fatal("the non-ASCII test is not in the statement")
	}
	if _, differ := run(false); differ == 0 {
		t.Fatal("dropping the non-ASCII test went unnoticed")
	}
}
