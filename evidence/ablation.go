package evidence

// Ablation switches verifier checks off, one bit per check: the fault
// experiment's ablations, which show that each fault class is caught by
// the check it is meant to measure (with the check off its detection
// drops to about zero). Never set one in production.
type Ablation uint16

const (
	// AblateValues accepts any value a count, value or belief claim states.
	AblateValues Ablation = 1 << iota
	// AblateMembership accepts claimed uids the evidence does not hold
	// (entity and complete-set claims).
	AblateMembership
	// AblateOrdering accepts any ordering of two rows both present.
	AblateOrdering
	// AblateCitation accepts a claim whose path does not resolve on the
	// cited step.
	AblateCitation
	// AblateOverlap accepts a burst claim when any bucket is flagged,
	// whether it overlaps the claim or not.
	AblateOverlap
)

func (o Options) off(a Ablation) bool { return o.Ablate&a != 0 }
