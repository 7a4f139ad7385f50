package oracle

import bt "github.com/tgms-go/tgms/bitemporal"

// The provenance columns and authority filter of entity_history and
// version_history, read from the operator documentation: a row shows the
// provenance of the batch that wrote it (and in version_history, once
// closed as of the read, of the batch that closed it) when that batch
// stated one, or always with provenance: true; authority keeps the
// versions whose writing batch has one of the listed authorities, a
// version without provenance counting as system.

func authorityKeeps(args map[string]any, p *bt.Provenance) bool {
	list, ok := args["authority"].([]any)
	if !ok {
		return true
	}
	a := "system"
	if p != nil {
		a = p.Authority.String()
	}
	for _, x := range list {
		if x == a {
			return true
		}
	}
	return false
}

func provColumn(p *bt.Provenance, all bool) (map[string]any, bool) {
	if p == nil {
		p = &bt.Provenance{Authority: bt.AuthSystem, Derived: true}
	}
	if p.Derived && !all {
		return nil, false
	}
	m := map[string]any{"authority": p.Authority.String()}
	for k, v := range map[string]string{"source": p.Source, "actor": p.Actor, "ref": p.Ref, "note": p.Note} {
		if v != "" {
			m[k] = v
		}
	}
	if p.Derived {
		m["derived"] = true
	}
	return m, true
}

// addProvenance puts the provenance columns on a row; closed is nil
// unless the row was closed as of the read.
func addProvenance(row map[string]any, args map[string]any, p, closed *bt.Provenance, isClosed bool) {
	all, _ := args["provenance"].(bool)
	if m, ok := provColumn(p, all); ok {
		row["provenance"] = m
	}
	if isClosed {
		if m, ok := provColumn(closed, all); ok {
			row["closed_provenance"] = m
		}
	}
}
