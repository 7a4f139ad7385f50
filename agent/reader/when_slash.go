package reader

// beliefOrder settles a slashed date a/b/y read as a belief time: a
// reading whose whole day is before the store's first transaction is a
// belief of nothing, so the other reading is meant when it is a day the
// store could believe something at.
func (p *timeParser) beliefOrder(a, b, y int) int {
	if !p.asBelief || p.firstTT <= 0 {
		return orderUnknown
	}
	possible := func(m, d int) bool { return validDay(y, m, d) && utc(y, m, d)+usDay > p.firstTT }
	switch dm, md := possible(b, a), possible(a, b); {
	case dm && !md:
		return dayFirst
	case md && !dm:
		return monthFirst
	}
	return orderUnknown
}
