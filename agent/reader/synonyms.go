package reader

import "strings"

// synonyms is the reviewed synonym table. Its candidates come from
// WordNet 3.0 (Debian's wordnet-base): scripts/wordnet-synonyms.py prints
// the members of the synsets of each concept's head words in the sense a
// temporal graph of interactions gives them ("colleague" n.1, "mail" n.1,
// "propagate" v.2, …). A candidate is kept when every sense of it leaves
// the question's meaning unchanged here, and dropped when another sense
// would change it ("gain" reads as gaining neighbours, "fellow" and
// "content" are too loose, "rank" is an ordering). Terms WordNet lacks
// are marked as the review's own additions.
var synonyms = map[string]string{
	cNodeNoun:   "colleague colleagues co-worker co-workers coworker coworkers workfellow employee employees staff confrere individual member",
	cSenders:    "sender",
	cRecipients: "addressee addressees recipient",
	cPartner:    "counterpart counterparty counterparties", // counterparty: the review's addition (WordNet lacks it)
	cEvent:      "mail mails email emails e-mail e-mails netmail interaction message",
	cSend:       "mailed emailed netmailed gave given", // give (v. 1, "transfer possession"): the review's addition
	cReceive:    "receive",
	cReach:      "attain attained propagate hit",
	cNew:        "appear join",
	cBurst:      "upsurge upsurges spate spates",
	cCorrect:    "rectify rectified rectification",
	cPeak:       "busy",
}

func init() {
	for c, ws := range synonyms {
		for _, w := range strings.Fields(ws) {
			if _, ok := words[w]; !ok {
				words[w] = c
			}
		}
	}
}

// roleNoun reads an agent or patient noun of a sending verb by its
// English suffix: "rater", "mailer" name who sent; "ratee", "addressee"
// who received.
func roleNoun(w string) (string, bool) {
	w = strings.TrimSuffix(w, "s")
	for _, suf := range []struct{ s, c string }{{"er", cSenders}, {"ee", cRecipients}} {
		base, ok := strings.CutSuffix(w, suf.s)
		if !ok || len(base) < 3 {
			continue
		}
		for _, v := range []string{base, base + "e"} {
			if words[v] == cSend || words[v+"d"] == cSend || words[v+"ed"] == cSend {
				return suf.c, true
			}
		}
	}
	return "", false
}
