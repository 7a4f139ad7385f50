package readerdev_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/eval/readerdev"
)

// corporaDir finds the independently written corpora: $TGMS_READER_DEV, or
// shared/reader-dev in a folder above this one.
func corporaDir(t *testing.T) string {
	if d := os.Getenv("TGMS_READER_DEV"); d != "" {
		return d
	}
	wd, _ := os.Getwd()
	for d := wd; ; d = filepath.Dir(d) {
		c := filepath.Join(d, "shared", "reader-dev")
		if fi, err := os.Stat(c); err == nil && fi.IsDir() {
			return c
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("CI=true: the reader corpora (shared/reader-dev) are missing; set TGMS_READER_DEV")
	}
	t.Skip("shared/reader-dev not found; set TGMS_READER_DEV")
	return ""
}

// TestIndependentCorpora runs the reader over every independently written
// corpus and fails on any wrong answer: a certified answer that differs
// from the gold or whose reading differs from the interpretation.
func TestIndependentCorpora(t *testing.T) {
	root := corporaDir(t)
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		dir := filepath.Join(root, e.Name())
		if _, err := os.Stat(filepath.Join(dir, "questions.json")); !e.IsDir() || err != nil {
			continue
		}
		n++
		t.Run(e.Name(), func(t *testing.T) {
			qs, err := readerdev.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			db, err := readerdev.Replay(dir, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			rep, err := readerdev.Score(context.Background(), e.Name(), db, qs)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			rep.Write(&b)
			t.Log("\n" + b.String())
			if os.Getenv("TGMS_READER_DEV_ALL") != "" {
				for _, r := range rep.Results {
					t.Logf("%s %s %s | %s", r.ID, r.Outcome, r.Why, r.Reading)
				}
			}
			if w := rep.Tallies()["ALL"].Wrong; w > 0 {
				t.Errorf("%s: %d wrong answers (see the table)", e.Name(), w)
			}
		})
	}
	if n == 0 {
		t.Fatalf("no corpus (a folder with questions.json) under %s", root)
	}
}

func TestMatches(t *testing.T) {
	for _, c := range []struct {
		kind      string
		gold, got any
		want      bool
	}{
		{"count", num("3"), num("3"), true},
		{"count", num("3"), num("4"), false},
		{"value", num("0.5"), num("0.5000000000001"), true},
		{"value", num("0.5"), num("0.5001"), false},
		{"value", "n9", "n9", true},
		{"value", "n9", "n90", false},
		{"entity_set", []any{"n1", "n2"}, []any{"n2", "n1"}, true},
		{"entity_set", []any{"n1", "n2"}, []any{"n1"}, false},
		{"interval", map[string]any{"t_a": num("0"), "t_b": num("10")}, map[string]any{"t_a": num("0"), "t_b": num("10")}, true},
		{"interval", map[string]any{"t_a": num("0"), "t_b": num("10")}, map[string]any{"t_a": num("10"), "t_b": num("20")}, false},
		{"count", num("3"), nil, false},
	} {
		if got := readerdev.Matches(c.kind, c.gold, c.got); got != c.want {
			t.Errorf("Matches(%s, %v, %v) = %v, want %v", c.kind, c.gold, c.got, got, c.want)
		}
	}
}

func num(s string) any { return jsonNumber(s) }
