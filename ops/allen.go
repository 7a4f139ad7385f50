package ops

// allenRelation names the Allen relation of half-open intervals [as, ae)
// and [bs, be) (as < ae, bs < be): exactly one of the thirteen holds.
// compute's interval_relation reports it and co_active matches on it.
func allenRelation(as, ae, bs, be int64) string {
	switch {
	case ae < bs:
		return "before"
	case ae == bs:
		return "meets"
	case be < as:
		return "after"
	case be == as:
		return "met_by"
	case as == bs && ae == be:
		return "equals"
	case as == bs:
		if ae < be {
			return "starts"
		}
		return "started_by"
	case ae == be:
		if as > bs {
			return "finishes"
		}
		return "finished_by"
	case bs < as && ae < be:
		return "during"
	case as < bs && be < ae:
		return "contains"
	case as < bs:
		return "overlaps"
	}
	return "overlapped_by"
}
