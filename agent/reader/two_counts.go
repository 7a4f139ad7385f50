package reader

import "fmt"

// twoCounts refuses a question that asks "how many" twice ("how many
// did n5 send, and how many did n7 send to n5?"): two questions, whose
// words would be read as one. "and if so how many" after a yes/no
// question is one count (record_words.go).
func (x *extractor) twoCounts() {
	first := -1
	for i, t := range x.toks {
		if t.low != "how" || (x.tok(i+1).low != "many" && x.tok(i+1).low != "much") {
			continue
		}
		if x.tok(i-1).low == "so" && x.tok(i-2).low == "if" {
			continue
		}
		if first >= 0 {
			x.mark(cUnsupported, i)
			x.s.notes = append(x.s.notes, fmt.Sprintf("%q is asked twice: ask one question at a time", x.span(i, i+2)))
			return
		}
		first = i
	}
}
