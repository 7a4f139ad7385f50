package ops

import (
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
)

// historyRow is a version_history row (versionHistoryRowSchema), node or
// edge, encoded straight from the version's columns. Empty closedBy,
// change and props are null.
type historyRow struct {
	edge                     bool
	vid, uid, label          string // node rows
	eid, src, dst, rel, disc string // edge rows
	vts, vte, tts, tte       int64
	createdBy                string
	closedBy, change         string
	props                    bt.Props
	propsSize                int64 // Footprint of the decoded bag (16, null, when props is "")
	floats                   bool  // the bag holds a float: the row is kept as its map
	prov, closedProv         map[string]any
}

// newHistoryRow fills the columns every row has; closedBy and change
// are those versionHistoryClosure rendered (nil: null).
func newHistoryRow(vid string, valid bt.Interval, tts, tte bt.Time, created bt.OpKind, closedBy, change any, props bt.Props) *historyRow {
	r := &historyRow{vid: vid, vts: valid.Start, vte: valid.End, tts: tts, tte: tte, createdBy: created.String(), props: props, propsSize: 16}
	r.closedBy, _ = closedBy.(string)
	r.change, _ = change.(string)
	if props != "" {
		r.propsSize, r.floats = canon.TextFootprint(string(props))
	}
	return r
}

// provenance sets the row's provenance members as putProvenance would.
func (r *historyRow) provenance(p, closed *bt.Provenance, all bool) {
	r.prov = provMap(p, all)
	if closed != nil && (!closed.Derived || all) {
		r.closedProv = closed.Map()
	}
}

// compareHistoryRows orders rows by (tt_s, vid).
func compareHistoryRows(a, b *historyRow) int {
	if a.tts != b.tts {
		return cmpOrdered(a.tts, b.tts)
	}
	return strings.Compare(a.vid, b.vid)
}

// AppendCanonical appends the row's canonical JSON: its members in key
// byte order.
func (r *historyRow) AppendCanonical(b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"change":`...)
	b = appendNullable(b, r.change)
	b = append(b, `,"closed_by":`...)
	b = appendNullable(b, r.closedBy)
	if r.closedProv != nil {
		b = append(b, `,"closed_provenance":`...)
		if b, err = canon.AppendValue(b, r.closedProv); err != nil {
			return b, err
		}
	}
	b = append(b, `,"created_by":`...)
	b = canon.AppendString(b, r.createdBy)
	if r.edge {
		b = append(b, `,"disc":`...)
		b = appendText(b, r.disc, &err)
		b = append(b, `,"dst":`...)
		b = appendText(b, r.dst, &err)
		b = append(b, `,"eid":`...)
		b = canon.AppendString(b, r.eid)
	} else {
		b = append(b, `,"label":`...)
		b = appendText(b, r.label, &err)
	}
	b = append(b, `,"props":`...)
	if r.props == "" {
		b = append(b, "null"...)
	} else {
		b = append(b, r.props...)
	}
	if r.prov != nil {
		b = append(b, `,"provenance":`...)
		if b, err = canon.AppendValue(b, r.prov); err != nil {
			return b, err
		}
	}
	if r.edge {
		b = append(b, `,"rel_type":`...)
		b = appendText(b, r.rel, &err)
		b = append(b, `,"src":`...)
		b = appendText(b, r.src, &err)
	}
	b = append(b, `,"tt_e":`...)
	b = canon.AppendInt(b, r.tte)
	b = append(b, `,"tt_s":`...)
	b = canon.AppendInt(b, r.tts)
	if !r.edge {
		b = append(b, `,"uid":`...)
		b = appendText(b, r.uid, &err)
	}
	b = append(b, `,"vid":`...)
	b = canon.AppendString(b, r.vid)
	b = append(b, `,"vt_e":`...)
	b = canon.AppendInt(b, r.vte)
	b = append(b, `,"vt_s":`...)
	b = canon.AppendInt(b, r.vts)
	return append(b, '}'), err
}

// appendNullable appends s as a JSON string, or null when it is empty.
func appendNullable(b []byte, s string) []byte {
	if s == "" {
		return append(b, "null"...)
	}
	return canon.AppendString(b, s)
}

// nullableSize is the Footprint of s read as appendNullable writes it.
func nullableSize(s string) int64 {
	if s == "" {
		return 16
	}
	return 16 + int64(len(s))
}

// Footprint is canon.Footprint of the row's map form.
func (r *historyRow) Footprint() int64 {
	const common = "vidvt_svt_ett_stt_ecreated_byclosed_bychangeprops"
	n := int64(48) + 9*16 + int64(len(common))
	n += 16 + int64(len(r.vid)) + 4*16 + 16 + int64(len(r.createdBy))
	n += nullableSize(r.closedBy) + nullableSize(r.change) + r.propsSize
	if r.edge {
		n += 5*16 + int64(len("eidsrcdstrel_typedisc"))
		for _, s := range []string{r.eid, r.src, r.dst, r.rel, r.disc} {
			n += 16 + int64(len(s))
		}
	} else {
		n += 2*16 + int64(len("uidlabel")) + 16 + int64(len(r.uid)) + 16 + int64(len(r.label))
	}
	if r.prov != nil {
		n += 16 + int64(len("provenance")) + canon.Footprint(r.prov)
	}
	if r.closedProv != nil {
		n += 16 + int64(len("closed_provenance")) + canon.Footprint(r.closedProv)
	}
	return n
}

// Map is the row as a map, as version_history built it before rows were
// typed.
func (r *historyRow) Map() map[string]any {
	m := map[string]any{
		"vid": r.vid, "vt_s": r.vts, "vt_e": r.vte, "tt_s": r.tts, "tt_e": r.tte,
		"created_by": r.createdBy, "closed_by": nullable(r.closedBy), "change": nullable(r.change), "props": nil,
	}
	if r.props != "" {
		m["props"] = r.props.Map()
	}
	if r.edge {
		m["eid"], m["src"], m["dst"], m["rel_type"], m["disc"] = r.eid, r.src, r.dst, r.rel, r.disc
	} else {
		m["uid"], m["label"] = r.uid, r.label
	}
	if r.prov != nil {
		m["provenance"] = r.prov
	}
	if r.closedProv != nil {
		m["closed_provenance"] = r.closedProv
	}
	return m
}

// nullable is s, or nil when s is empty.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// historyRowsAny is the payload's row list: typed rows, and the map form
// of a row whose bag holds a float (which the digest rounds).
func historyRowsAny(rows []*historyRow) []any {
	out := make([]any, len(rows))
	for i, r := range rows {
		if r.floats {
			out[i] = r.Map()
			continue
		}
		out[i] = r
	}
	return out
}
