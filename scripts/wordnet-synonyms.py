#!/usr/bin/env python3
"""Derive the reader's synonym candidates from WordNet (Debian wordnet-base).

usage: scripts/wordnet-synonyms.py [WORDNET_DIR]   (default /usr/share/wordnet)

For each concept the reader knows, HEADS names a head word, its part of
speech and the WordNet sense numbers that carry the concept's meaning in a
temporal graph of interactions. The candidates are the lemmas of those
synsets (WordNet's synonym sets). The output is one
line per concept; agent/reader/synonyms.go holds the reviewed subset (a
candidate is dropped when another sense of it changes the question, as
"rating" for the score of an edge, or when it is rare in questions).
"""
import os, sys

WN = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/wordnet"

# concept: [(lemma, pos, [sense numbers, 1-based])]
HEADS = {
    "node-noun": [("person", "n", [1]), ("colleague", "n", [1, 2]), ("participant", "n", [1]), ("employee", "n", [1]),
                  ("correspondent", "n", [1]), ("staff", "n", [1]), ("user", "n", [1]), ("member", "n", [1])],
    "senders": [("sender", "n", [1]), ("rater", "n", [1])],
    "recipients": [("recipient", "n", [1]), ("addressee", "n", [1])],
    "partner": [("partner", "n", [1]), ("counterpart", "n", [1]), ("contact", "n", [3]), ("counterparty", "n", [1])],
    "event": [("message", "n", [2]), ("e-mail", "n", [1]), ("mail", "n", [1, 3]), ("interaction", "n", [1])],
    "send": [("send", "v", [1]), ("rate", "v", [1]), ("e-mail", "v", [1]), ("write", "v", [4])],
    "receive": [("receive", "v", [1]), ("get", "v", [1])],
    "reach": [("reach", "v", [1]), ("propagate", "v", [2]), ("arrive", "v", [1])],
    "new": [("appear", "v", [1]), ("join", "v", [1])],
    "burst": [("burst", "n", [1]), ("spike", "n", [3]), ("surge", "n", [1])],
    "correction": [("correction", "n", [1]), ("correct", "v", [1])],
    "peak": [("busy", "a", [1])],
    "bucket": [("bucket", "n", [1]), ("block", "n", [4])],
    "start (filler)": [("start", "v", [5]), ("kick off", "v", [1]), ("set off", "v", [1])],
    "send (phrases)": [("hand out", "v", [1]), ("give out", "v", [2])],
    "new (phrases)": [("turn up", "v", [1])],
    "reach (more)": [("get through", "v", [3])],
    "event (more)": [("trade", "v", [4])],
    "send (adjective)": [("outgoing", "a", [1])],
    "gained (phrases)": [("pick up", "v", [6]), ("acquire", "v", [1])],
}

POS = {"n": "noun", "v": "verb", "a": "adj"}


def index(pos):
    out = {}
    with open(os.path.join(WN, "index." + POS[pos]), encoding="latin-1") as f:
        for line in f:
            if line.startswith(" "):
                continue
            p = line.split()
            lemma, n_syn, n_ptr = p[0], int(p[2]), int(p[3])
            out[lemma] = p[4 + n_ptr + 2:4 + n_ptr + 2 + n_syn]
    return out


def synset(pos, off):
    with open(os.path.join(WN, "data." + POS[pos]), encoding="latin-1") as f:
        f.seek(int(off))
        p = f.readline().split()
    n_w = int(p[3], 16)
    lemmas = [p[4 + 2 * k].split("(")[0].lower() for k in range(n_w)]
    k = 4 + 2 * n_w
    n_ptr = int(p[k])
    hypo = []
    for q in range(n_ptr):
        sym, o, ps = p[k + 1 + 4 * q], p[k + 2 + 4 * q], p[k + 3 + 4 * q]
        if sym == "~" and ps == pos or sym == "&" and pos == "a":
            hypo.append(o)  # hyponyms; for adjectives, "similar to" satellites
    return lemmas, hypo


def main():
    idx = {p: index(p) for p in POS}
    for cpt, heads in HEADS.items():
        words = set()
        for lemma, pos, senses in heads:
            offs = idx[pos].get(lemma.replace(" ", "_"), [])
            for s in senses:
                if s - 1 >= len(offs):
                    continue
                lemmas, near = synset(pos, offs[s - 1])
                words.update(lemmas)
                if pos == "a":  # an adjective's satellites ("outbound" for "outgoing")
                    for o in near:
                        words.update(synset(pos, o)[0])
        print(cpt + ": " + " ".join(sorted(w.replace("_", " ") for w in words)))


if __name__ == "__main__":
    main()
