package bitemporal

// NodeVersion is one node fact: uid had label and props over Valid, and the
// store believed so over [TTs, TTe).
type NodeVersion struct {
	UID       string
	Label     string
	Props     Props
	Valid     Interval
	TTs, TTe  Time
	CreatedBy OpKind // the op that wrote this version
	ClosedBy  OpKind // the op that closed it (OpNone while believed)
	// Prov is the provenance of the batch that wrote the version and
	// ClosedProv of the batch that closed it (nil while believed). Both
	// point into a per-batch table: versions share them. A nil Prov reads
	// as the default of a batch that stated none (system).
	Prov, ClosedProv *Provenance
}

// EdgeVersion is one edge fact, like NodeVersion.
type EdgeVersion struct {
	Key              EdgeKey
	Props            Props
	Valid            Interval
	TTs, TTe         Time
	CreatedBy        OpKind
	ClosedBy         OpKind
	Prov, ClosedProv *Provenance // as on NodeVersion
}

// BelievedAt reports whether a version with transaction interval
// [tts, tte) is believed by a read pinned at asOf.
func BelievedAt(tts, tte, asOf Time) bool {
	c := ClampTT(asOf)
	return tts <= c && c < tte
}

// Visible is the visibility rule: a version is visible at valid time t as
// of transaction time asOf iff vt_s <= t < vt_e and tt_s <= asOf < tt_e
// (asOf clamped to MaxBelief).
func Visible(valid Interval, tts, tte, t, asOf Time) bool {
	return valid.Contains(t) && BelievedAt(tts, tte, asOf)
}

// Handle identifies a stored version inside one View. Handles are only
// meaningful to the View that produced them.
type Handle uint64

// NodeHit is a stored, currently believed node version found by a View.
type NodeHit struct {
	H Handle
	V NodeVersion
}

// EdgeHit is a stored, currently believed edge version found by a View.
type EdgeHit struct {
	H Handle
	V EdgeVersion
}
