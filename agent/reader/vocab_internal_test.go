package reader

import (
	"os"
	"sort"
	"strings"
	"testing"
)

// TestLexiconDump writes every lexicon word with its concept to
// $TGMS_LEXICON_DUMP (one "word<TAB>concept" a line), the input of
// scripts/wordnet-inflections.py; without the variable it only checks
// that the lexicon is not empty.
func TestLexiconDump(t *testing.T) {
	var lines []string
	for w, c := range words {
		lines = append(lines, w+"\t"+c)
	}
	for w := range discourse {
		if _, ok := words[w]; !ok {
			lines = append(lines, w+"\t(discourse)")
		}
	}
	if len(lines) < 500 {
		t.Fatalf("the lexicon has %d words", len(lines))
	}
	sort.Strings(lines)
	if p := os.Getenv("TGMS_LEXICON_DUMP"); p != "" {
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Every irregular form inflects a lexicon or discourse word, is not
// itself one, and is one the stemmer cannot relate to its base (the
// table holds no entry the stemmer already reads).
func TestIrregularForms(t *testing.T) {
	for form, base := range irregular {
		_, inLex := words[base]
		if !inLex && !discourse[base] {
			t.Errorf("%q inflects %q, which the lexicon lacks", form, base)
		}
		if _, ok := words[form]; ok || discourse[form] {
			t.Errorf("%q is a lexicon word of its own", form)
		}
		if stem(form) == stem(base) {
			t.Errorf("%q: the stemmer already reads it as %q", form, base)
		}
	}
	for _, c := range []struct{ w, want string }{{"went", ""}, {"travelled", cReach}, {"tallied", cHowMany}} {
		if got, ok := lookup(c.w); !ok || got != c.want {
			t.Errorf("lookup(%q) = %q, %v; want %q", c.w, got, ok, c.want)
		}
	}
	if !isDiscourse("corpora") || isDiscourse("likes") {
		t.Errorf("isDiscourse: corpora %v, likes %v", isDiscourse("corpora"), isDiscourse("likes"))
	}
}

// A swap of two adjacent letters is read as the one lexicon word it
// misspells; short words, words two concepts could mean, and swaps that
// produce a meaning-changing word are not.
func TestRespell(t *testing.T) {
	for _, c := range []struct{ w, want string }{
		{"recieved", "received"}, {"mesasges", "messages"}, {"neighbuors", "neighbours"},
		{"sned", ""},     // under six letters
		{"revieced", ""}, // two swaps
		{"average", ""},  // a word, not a misspelling
		{"avreage", ""},  // would produce a meaning-changing word
		{"recieving", "receiving"},
	} {
		got, _, _ := respell(c.w)
		if got != c.want {
			t.Errorf("respell(%q) = %q, want %q", c.w, got, c.want)
		}
	}
}
