package reader

// A time of day written in words on a twelve-hour clock with no part of
// the day ("ten past eight", "nine o'clock") is morning or evening: it
// is read only when the range it starts settles which ("between eight
// o'clock and noon" cannot start in the evening), and refused otherwise.

// halfDayOnly reports whether the time of day at i is written in words
// on a twelve-hour clock without a part of the day.
func (p *timeParser) halfDayOnly(i int) bool {
	_, _, _, part, ok := p.wordClockPart(i)
	return ok && !part
}

// halfDayErr is the refusal of a time that could be morning or evening.
func (p *timeParser) halfDayErr(i, j int) error {
	return &dateErr{p.span(i, j), "in the morning or the evening? write \"in the morning\" or \"in the evening\" after the hour, or a 24-hour time"}
}

// settleHalfDay picks the reading of a twelve-hour start time (off µs
// after midnight as written, clock hour h) that comes before the range's
// end off2 on the same day; ok is false when both or neither do.
func settleHalfDay(off int64, h int, off2 int64) (int64, bool) {
	am := off
	if h == 12 {
		am -= 12 * usHour
	}
	pm := am + 12*usHour
	switch {
	case am < off2 && pm >= off2:
		return am, true
	case pm < off2 && am >= off2:
		return pm, true
	}
	return 0, false
}
