#!/usr/bin/env python3
"""List irregular inflections of the reader's lexicon words (WordNet exceptions).

usage:
  TGMS_LEXICON_DUMP=/tmp/lexicon.txt go test -count=1 -run TestLexiconDump ./agent/reader/
  scripts/wordnet-inflections.py /tmp/lexicon.txt [WORDNET_DIR]   (default /usr/share/wordnet)

WordNet's exception lists (verb.exc, noun.exc, adj.exc) pair each irregular
form with its base ("went go", "told tell", "travelled travel"). A line is
printed for every form whose base is a lexicon word, whose own spelling is
not, and whose Snowball stem differs from the base's (the stemmer already
reads the rest). agent/reader/inflect.go holds the reviewed subset: a form
is dropped when it has a sense of its own that the base's concept would
misread ("left": remaining; "found": established; "binned": thrown away).

It then prints every lexicon word of six letters or more, with a concept,
that one swap of two adjacent letters turns into another English word
(a WordNet lemma or exception form): the reader's respelling would read
that word as the lexicon word, so each such line must name a harmless
pair (today only "cerate"/"create" and "medina"/"median", both read as
refusals).
"""
import os, sys

lexicon = {}
for line in open(sys.argv[1], encoding="utf-8"):
    w, c = line.rstrip("\n").split("\t")
    lexicon.setdefault(w, c)
WN = sys.argv[2] if len(sys.argv) > 2 else "/usr/share/wordnet"

for f in ("verb.exc", "noun.exc", "adj.exc"):
    for line in open(os.path.join(WN, f), encoding="latin-1"):
        p = line.split()
        if len(p) < 2 or "_" in p[0]:
            continue
        form, base = p[0], p[1]
        if base in lexicon and form not in lexicon:
            print(f"{f}\t{form}\t{base}\t{lexicon[base] or '(filler)'}")

english = set()
for pos in ("noun", "verb", "adj", "adv"):
    for line in open(os.path.join(WN, "index." + pos), encoding="latin-1"):
        if not line.startswith(" "):
            english.add(line.split()[0])
    for line in open(os.path.join(WN, pos + ".exc"), encoding="latin-1"):
        english.add(line.split()[0])
for w, c in sorted(lexicon.items()):
    if len(w) < 6 or c in ("", "(discourse)"):
        continue
    for i in range(len(w) - 1):
        s = w[:i] + w[i + 1] + w[i] + w[i + 2:]
        if w[i] != w[i + 1] and s in english and s not in lexicon:
            print(f"swap\t{s}\t{w}\t{c}")
