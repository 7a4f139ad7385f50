package reader

import (
	"fmt"
	"slices"
	"strings"
)

// Node slots: uids and names, with the direction the words before them
// cue.

// isNode reports whether a token names a node the task supplied or the
// store knows ("n42's" included).
func (x *extractor) isNode(low, text string) bool {
	if i := strings.IndexAny(text, "'’"); i > 0 {
		text = text[:i]
	}
	if slices.Contains(x.env.UIDs, text) {
		return true
	}
	return x.env.IsNode != nil && x.env.IsNode(text)
}

func (x *extractor) uidOf(t *token) string {
	if i := strings.IndexAny(t.text, "'’"); i > 0 {
		return t.text[:i]
	}
	return t.text
}

var srcCue = map[string]bool{"from": true, "by": true, "starting": true, "leaves": true, "source": true, "sender": true}
var dstCue = map[string]bool{"to": true, "reach": true, "reaches": true, "reached": true, "arrive": true, "arrives": true, "at": true,
	"reaching": true, "towards": true, "toward": true, "target": true, "into": true}

func (x *extractor) addNode(written, uid string, i int) {
	if i := strings.IndexAny(written, "'’"); i > 0 && uid != "" {
		written = written[:i]
	}
	for _, n := range x.s.nodes {
		if n.written == written {
			// "did n5 send to n5": written again in the same clause, right
			// after "to" or "from", the node is its own partner (a message
			// to itself), which no count of the node's events reads.
			if p, _ := x.prevWord(i); (p == "to" || p == "from") && i-n.i <= 4 && !x.punctBetween(n.i, i) {
				x.mark(cUnsupported, i)
				x.s.notes = append(x.s.notes, fmt.Sprintf("%s is written again after %q: its messages to itself?", written, p))
			}
			return
		}
	}
	cue := ""
	p, _ := x.prevWord(i)
	if p == "node" || p == "user" || p == "account" || p == "member" || p == "student" || p == "person" {
		_, k := x.prevWord(i)
		p, _ = x.prevWord(k)
	}
	if p == "at" {
		if _, k := x.prevWord(i); k > 0 {
			if q, _ := x.prevWord(k); q == "starting" || q == "beginning" || q == "leaving" || q == "start" || q == "begins" || q == "starts" {
				p = "starting"
			}
		}
	}
	switch {
	case srcCue[p]:
		cue = "src"
	case dstCue[p]:
		cue = "dst"
	}
	x.s.nodes = append(x.s.nodes, nodeSlot{written: written, uid: uid, cue: cue, i: i})
}

// punctBetween reports a punctuation token strictly between a and b.
func (x *extractor) punctBetween(a, b int) bool {
	for k := a + 1; k < b; k++ {
		if x.tok(k).kind == tPunct {
			return true
		}
	}
	return false
}
