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
// are marked as the review's own additions. "forward" (v.1, "send
// onward") was dropped: "how many messages did n5 forward" counts
// forwarded messages, which the store does not record, and must not be
// read as reach.
var synonyms = map[string]string{
	cNodeNoun:   "colleague colleagues co-worker co-workers coworker coworkers workfellow employee employees staff confrere individual member",
	cSenders:    "sender",
	cRecipients: "addressee addressees recipient",
	cPartner:    "counterpart counterparty counterparties",                                   // counterparty: the review's addition (WordNet lacks it)
	cSend:       "mailed emailed netmailed gave given outbound address addressed addressing", // give (v. 1, "transfer possession"): the review's addition; outbound: similar to outgoing (adj. 1); address v.3, "put an address on (an envelope)", as in "address a mail to"
	cReceive:    "receive getting",                                                           // get v.1, "come into the possession of something concrete or abstract"
	cNew:        "appear join",
	cBurst:      "upsurge upsurges spate spates",
	cCorrect:    "rectify rectified rectification",
	cPeak:       "busy",
	cBucket:     "block blocks", // block n.4, "a quantity of related things dealt with as a unit"
	cReach:      "attain attained propagate hit",
	cEvent:      "mail mails email emails e-mail e-mails netmail interaction message trade trades traded trading", // trade v.4, "exchange"
	// Filler: the synonyms of "start" (v.5, "bring into being"), a word
	// that carries no concept of its own here.
	"": "initiate initiates initiated initiating originate originates originated originating",
}

// synonymPhrases are the reviewed multi-word lemmas of the same synsets
// (WordNet writes them with an underscore: "hand_out"), read as phrases.
var synonymPhrases = []struct{ words, cpt string }{
	{"hand out", cSend}, {"handed out", cSend}, {"hands out", cSend}, {"handing out", cSend}, // hand_out v.1, "distribute"
	{"give out", cSend}, {"gave out", cSend}, {"gives out", cSend}, {"given out", cSend}, // give_out v.2
	{"turn up", cNew}, {"turned up", cNew}, {"turns up", cNew}, // turn_up v.1, "show up"
	{"set off", ""}, {"sets off", ""}, // set_off v.1, "trigger", a kind of "initiate": as "start"
	{"pick up", cGained}, {"picked up", cGained}, {"picks up", cGained}, // pick_up v.6, a kind of "acquire"
	{"kick off", ""}, {"kicked off", ""}, {"kicks off", ""}, // kick_off v.1, "commence": as "start", no concept
	{"get through to", cReach}, {"got through to", cReach}, {"gets through to", cReach}, {"getting through to", cReach}, // get_through v.3, "reach"
	{"getting to", cReach}, // "get to" (reach), whose "getting" is not receiving
}

func init() {
	// "addresses" is a noun (an e-mail address, a node) or a verb (sends):
	// refused, so that neither reading is guessed.
	words["addresses"] = cUnsupported
	for _, p := range synonymPhrases {
		phrases = append(phrases, struct {
			words string
			cpt   string
		}{p.words, p.cpt})
	}
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
