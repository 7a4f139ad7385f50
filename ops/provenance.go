package ops

import bt "github.com/tgms-go/tgms/bitemporal"

// Provenance columns and the authority filter, shared by entity_history,
// version_history and aggregate_events.
//
// A row carries provenance (the batch that wrote the version) and, in
// version_history, closed_provenance (the batch that closed it, when it
// was closed as of as_of_tt) whenever that batch stated a provenance of
// its own. A batch that stated none has its default (authority import,
// with the ingest's source, for a bulk load; system otherwise); with the
// argument provenance: true rows carry that default too, marked
// "derived": true. Rows of stores written before provenance existed are
// therefore unchanged unless asked, and the authority filter reads every
// version by its batch's authority, stated or derived.

// AuthorityArg is the authority filter argument.
func AuthorityArg() *Schema {
	return Arr("keep only versions written by batches of these authorities (user: a person asserted it; model: an agent inferred it; import: a bulk load; system); a batch that stated none is import when it bulk-loads events, else system; null means all",
		Enum("an authority", bt.AuthorityNames()...)).OrNull()
}

// ProvenanceArg asks for provenance on every row.
func ProvenanceArg() *Schema {
	return Bool("put provenance on every row, also the defaults of batches that stated none (marked derived); without it rows carry only provenance a batch stated")
}

// ProvenanceSchema is the provenance object of a row.
func ProvenanceSchema(desc string) *Schema {
	return Obj(desc, map[string]*Schema{
		"authority": Enum("who stands behind the fact", bt.AuthorityNames()...),
		"source":    Str("where the fact came from (for a bulk load: sha256=<hex> part=<k>/<n> name=<name>)"),
		"actor":     Str("the agent or person that wrote it"),
		"ref":       Str("the evidence: a message id, document URI or episode id"),
		"note":      Str("a free remark of the writer"),
		"derived":   Bool("true: the batch stated no provenance and this is its default"),
	})
}

// authorityFilter is the set of authorities a call keeps (nil: all).
type authorityFilter map[bt.Authority]bool

func authorities(c *Call) authorityFilter {
	if !c.Has("authority") {
		return nil
	}
	f := authorityFilter{}
	for _, s := range c.Strings("authority") {
		if a, ok := bt.ParseAuthority(s); ok {
			f[a] = true
		}
	}
	return f
}

// keeps reports whether a version written with provenance p passes.
func (f authorityFilter) keeps(p *bt.Provenance) bool {
	if f == nil {
		return true
	}
	if p == nil {
		p = bt.SystemProvenance
	}
	return f[p.Authority]
}

// putProvenance adds the provenance columns to a row: p as provenance and,
// when not nil, closed as closed_provenance; derived ones only with all.
func putProvenance(row map[string]any, p, closed *bt.Provenance, all bool) {
	if p == nil {
		p = bt.SystemProvenance
	}
	if !p.Derived || all {
		row["provenance"] = p.Map()
	}
	if closed != nil && (!closed.Derived || all) {
		row["closed_provenance"] = closed.Map()
	}
}
