package reader

// midnightOrigin reads "from midnight" (or "counted from midnight")
// after a bucket at i, the token "midnight": an origin of buckets with
// no date, which restates that buckets are counted from the window's
// start when that start is a midnight the buckets align to
// (midnightAligned, checked once the window is known). It returns the
// index after it.
func (x *extractor) midnightOrigin(i int) (int, bool) {
	if x.tok(i).low != "midnight" || x.tok(i-1).low != "from" {
		return i, false
	}
	bucket := false
	for k := i - 2; k >= 0; k-- {
		t := x.tok(k)
		if t.kind == tPunct && (t.text == "." || t.text == "?" || t.text == ";") {
			break
		}
		c := concept(t.low)
		bucket = bucket || c == cBucket || x.inBucket(k) || adverbDur[t.low] > 0
	}
	if !bucket || !x.clauseEnd(i+1) {
		return i, false
	}
	start := i - 1
	if l := x.tok(i - 2).low; l == "counted" || l == "counting" || l == "measured" {
		start--
	}
	x.ignore(start, i+1)
	x.originMidnight = x.span(start, i+1)
	return i + 1, true
}

// midnightAligned reports whether a reading's buckets, counted from its
// window's start, are the buckets counted from midnight: the window
// starts at a UTC midnight and lasts at most a day, or its buckets
// divide a day and its start is a bucket boundary counted from the
// midnight before it, so that every midnight starts a bucket.
func midnightAligned(r *Reading) bool {
	w, b := r.Window, r.Bucket
	if w == nil || b == nil || b.Micros <= 0 {
		return false
	}
	if w.Start%usDay == 0 && w.End-w.Start <= usDay {
		return true
	}
	return usDay%b.Micros == 0 && (w.Start%usDay)%b.Micros == 0
}
