package reader

import "strings"

// irregular maps irregular inflections to the lexicon word they inflect,
// for forms the Snowball stemmer cannot relate to their base ("went" is
// not stemmed to "go"). The candidates come from WordNet 3.0's exception
// lists (verb.exc, noun.exc): scripts/wordnet-inflections.py prints every
// form whose base is a lexicon word. A candidate was kept when the form
// has no sense of its own that its base's concept would misread; "left"
// (remaining), "found" (established), "meant" (not an average),
// "binned" (thrown away), "topped" and "spelt" were dropped.
var irregular = map[string]string{
	"am": "be", "begun": "begin", "gotten": "get", "went": "go", "told": "tell",
	"corpora": "corpus", "maxima": "maximum", "minima": "minimum",
}

// respell reads a word written with two adjacent letters swapped
// ("recieved") as the lexicon word it misspells, when the word has at
// least six letters and exactly one concept is reachable by one swap.
// Words of the meaning-changing classes are never produced this way, so
// a misspelling can only be read as a word the question could have held.
// Transposing two letters is the commonest typing slip. Of the lexicon's
// words of six letters or more, only "create" and "median" are one swap
// from another English word ("cerate", "medina"), and both are refused
// anyway; scripts/wordnet-inflections.py repeats that check against
// WordNet's lemmas and exception forms when the lexicon changes. The
// reading notes every respelling.
func respell(w string) (string, string, bool) {
	if len([]rune(w)) < 6 || strings.ContainsAny(w, "0123456789_") {
		return "", "", false
	}
	r := []rune(w)
	found, cpt := "", ""
	for i := 0; i+1 < len(r); i++ {
		if r[i] == r[i+1] {
			continue
		}
		s := make([]rune, len(r))
		copy(s, r)
		s[i], s[i+1] = s[i+1], s[i]
		cand := string(s)
		if changers[cand] != "" || isDiscourse(cand) {
			continue
		}
		c, ok := lookup(cand)
		if !ok || c == "" {
			continue
		}
		if found != "" && c != cpt {
			return "", "", false
		}
		found, cpt = cand, c
	}
	return found, cpt, found != ""
}
