package reader

// lengthStart is the first token of a length lengthBefore read (a
// duration slot, or "the week" before a preposition).
func (x *extractor) lengthStart(d *durSlot) int {
	if d.j > d.i {
		return d.i
	}
	return -1
}

// spanLead reports whether the words before a length at i make it a span:
// "the", "in the", "for", "within", "over", "during", "throughout", "next".
func (x *extractor) spanLead(i int) bool {
	if i < 0 {
		return true // "the week after D": read with its article
	}
	switch x.tok(i - 1).low {
	case "the", "for", "within", "over", "during", "throughout", "next", "first", "those", "these":
		return true
	}
	return false
}
