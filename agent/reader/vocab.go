package reader

import (
	"strings"
	"sync"

	"github.com/kljensen/snowball/english"
)

// stem is the Snowball (Porter 2) English stem of a lower-case word.
func stem(w string) string {
	if w == "" || strings.ContainsAny(w, "0123456789") {
		return w
	}
	return english.Stem(w, true)
}

var (
	stemOnce sync.Once
	stems    map[string]string // stem → concept, for stems whose words all agree
)

// buildStems indexes the lexicon by stem. A stem that two words of
// different concepts share ("rate": filler, "rated": send) is left out,
// so only the exact words read it.
func buildStems() {
	stems = map[string]string{}
	bad := map[string]bool{}
	for w, c := range words {
		if c == cPeriod {
			continue // "hour", "day": only as written, never "hours" by stem
		}
		s := stem(w)
		if old, ok := stems[s]; ok && old != c {
			bad[s] = true
		}
		stems[s] = c
	}
	for s := range bad {
		delete(stems, s)
	}
}

// lookup is the concept of a lower-case word: its own lexicon entry, an
// abbreviation's, the entry of its stem (an inflection: "emailing",
// "correspondents", "neighboured"), or of the word an irregular form
// inflects ("went", "told").
func lookup(w string) (string, bool) {
	if c, ok := words[w]; ok {
		return c, true
	}
	if a, ok := abbreviations[w]; ok {
		if c, ok := words[a]; ok {
			return c, true
		}
		w = a
	}
	stemOnce.Do(buildStems)
	if c, ok := stems[stem(w)]; ok {
		return c, true
	}
	if b, ok := irregular[w]; ok {
		if c, ok := words[b]; ok {
			return c, true
		}
	}
	return roleNoun(w)
}

// concept is lookup without the presence flag.
func concept(w string) string { c, _ := lookup(w); return c }

// sameWord reports whether a question word reads as a lexicon word: the
// same spelling, the abbreviation's expansion, or the same stem.
func sameWord(tok, lex string) bool {
	if tok == lex || abbreviations[tok] == lex {
		return true
	}
	return len(tok) > 3 && len(lex) > 3 && stem(tok) == stem(lex)
}

// abbreviations are common shortenings, read as the word they stand for.
var abbreviations = map[string]string{
	"msg": "message", "msgs": "messages", "pls": "please", "plz": "please", "thx": "thanks",
	"nbr": "neighbour", "nbrs": "neighbours", "acct": "account", "accts": "accounts",
	"deg": "degree", "ppl": "people", "excl": "exclusive", "incl": "inclusive", "approx": "roughly",
	"info": "information", "w": "with", "wrt": "regarding", "yr": "year",
	"accnt": "account", "accnts": "accounts", "acc": "account", "accs": "accounts", "usr": "user", "usrs": "users",
	"corr": "correction", "corrs": "corrections", "txn": "transaction", "ts": "timestamp", "recv": "received", "rcvd": "received",
}

// discourse lists words that cannot change which intent or slot a
// question reads: greetings and thanks, politeness, hedges, intensifiers
// of certainty and speech-act verbs ("tell me", "pull up", "look at"),
// and nouns that only point at the data as a whole ("whole", "entire",
// "things", "archive"). They are ignored, and the reading lists them.
var discourse = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`hi hello hey hiya morning afternoon evening greetings dear folks team all
		thanks thank cheers please kindly appreciate appreciated grateful
		wonder wondering curious curiosity quick quickly question questions query ask asking asked
		roughly approximately about around-about basically actually simply literally honestly
		precisely exactly really truly indeed certainly surely definitely likewise
		whole entire entirety full thing things stuff lot lots bunch
		pull pulled look looking check checking see seeing figure figured tell telling show showing
		need needed want wanted like would could might can possible possibly able
		archive log logs file files register registry corpus institution institutions organisation organization
		specifically
		perhaps maybe probably presumably apparently
		okay ok so well now then anyway also too
		speaking practically principle theory
		which-is i.e e.g eg ie
		whoever whichever whatever he she him his her hers its
		entry entries
		saw seen sees carried carries carry came come comes filed`) {
		discourse[w] = true
	}
}

// isDiscourse reports whether a word, or the word an irregular form of it
// inflects ("told"), is a discourse word. Discourse words are matched by
// spelling, never by stem: "likes" is not "like".
func isDiscourse(w string) bool { return discourse[w] || discourse[irregular[w]] }

// Meaning-changing word classes: a word of one of these classes changes
// what a question asks, so it is read only where an intent honours it
// and refused everywhere else. They are the closed classes English uses
// to restrict or transform a request: negation and exclusion, comparison
// and thresholds, aggregates, conditions, calendar cycles, ordinals and
// extrema, and future or counterfactual time.
var changers = map[string]string{}

func init() {
	for cls, ws := range map[string]string{
		"negation":  "not no never without except excluding exclude excludes excluded besides nor neither unlike",
		"threshold": "more fewer less least greater smaller above below exceed exceeds exceeding over-threshold than",
		"aggregate": "average mean median sum minimum maximum min max percentile variance deviation",
		"condition": "if only unless whenever provided assuming suppose supposing",
		"ordinal":   "second third fourth fifth runner runners-up penultimate",
		"future":    "will predict prediction forecast expect expected tomorrow next",
		"calendar":  "mon tue tues wed thu thur thurs fri sat sun monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays thursdays fridays saturdays sundays weekday weekdays weekend weekends",
	} {
		for _, w := range strings.Fields(ws) {
			changers[w] = cls
		}
	}
}
