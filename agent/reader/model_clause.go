package reader

// modelOpeners open a clause that states how messages travel.
var modelOpeners = [][]string{{"on", "the", "assumption", "that"}, {"assuming", "that"}, {"assuming"}, {"provided", "that"}, {"given", "that"}}

// Words of a clause saying that each node passes on only what it has
// already received ("each recipient only passes on what they have
// already received").
var (
	modelForward  = map[string]bool{"passes": true, "pass": true, "forwards": true, "forward": true, "relays": true, "relay": true}
	modelReceived = map[string]bool{"received": true, "got": true, "gotten": true}
	modelPerfect  = map[string]bool{"already": true, "previously": true, "have": true, "has": true, "had": true}
	modelFiller   = map[string]bool{"each": true, "every": true, "only": true, "on": true, "what": true, "they": true, "it": true,
		"he": true, "she": true, "or": true, "already": true, "previously": true, "have": true, "has": true, "had": true, "messages": true, "mail": true,
		"recipient": true, "recipients": true, "receiver": true, "receivers": true, "everyone": true, "everybody": true}
)

// modelClause reads a clause of a reach or path question that states the
// time-respecting model itself: every node passes on only what it has
// already received, so a path's hops happen in time order. It restates
// the model the question's paths follow, and is ignored and listed. A
// clause with any other word (a negation, a time, a node, a gap, a
// receipt not yet made: "what it will receive") is left unread.
func (x *extractor) modelClause() {
	for i := range x.toks {
		if i > 0 && x.tok(i-1).text != "," && x.tok(i-1).text != "(" {
			continue
		}
		n := 0
		for _, op := range modelOpeners {
			ok := true
			for k, w := range op {
				if x.tok(i+k).low != w || x.tok(i+k).used {
					ok = false
					break
				}
			}
			if ok {
				n = len(op)
				break
			}
		}
		if n == 0 {
			continue
		}
		end, fwd, recv, perfect, ok := i+n, false, false, false, true
		for ; ok && !x.clauseEnd(end); end++ {
			t := x.toks[end]
			switch {
			case t.used || t.kind != tWord:
				ok = false
			case modelForward[t.low]:
				fwd = true
			case modelReceived[t.low]:
				recv = fwd
			case isNodeNoun(t.low) || modelFiller[t.low]:
				perfect = perfect || modelPerfect[t.low] && fwd
			default:
				ok = false
			}
		}
		if !ok || !fwd || !recv || !perfect || !x.reachOutside(i, end) {
			continue
		}
		x.ignore(i, end)
		x.s.notes = append(x.s.notes, "passing on only what was already received is the time-respecting model")
	}
}
