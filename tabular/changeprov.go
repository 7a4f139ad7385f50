package tabular

import (
	"fmt"
	"strings"
	"unicode/utf8"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// The provenance columns of a change log (the names tgms export writes).
// They are read when the header has them; every row of one batch (one
// recorded_at time) must carry the same values.
const (
	ColProvAuthority = "prov_authority"
	ColProvSource    = "prov_source"
	ColProvActor     = "prov_actor"
	ColProvRef       = "prov_ref"
	ColProvNote      = "prov_note"
	ColOverride      = "override"
)

// provCols are the bound provenance columns (unbound when absent).
type provCols struct {
	auth, source, actor, ref, note, override col
}

func (p *provCols) any() bool {
	return p.auth.ok() || p.source.ok() || p.actor.ok() || p.ref.ok() || p.note.ok() || p.override.ok()
}

// bindProv binds the provenance columns present in the header.
func (b *binder) bindProv(p *provCols) error {
	for _, bd := range []struct {
		dst  *col
		name string
		what string
	}{
		{&p.auth, ColProvAuthority, "the batch's authority"},
		{&p.source, ColProvSource, "the batch's provenance source"},
		{&p.actor, ColProvActor, "the batch's actor"},
		{&p.ref, ColProvRef, "the batch's evidence reference"},
		{&p.note, ColProvNote, "the batch's note"},
		{&p.override, ColOverride, "whether the batch may replace users' facts"},
	} {
		c, err := b.optional("", bd.name, bd.what)
		if err != nil {
			return err
		}
		*bd.dst = c
	}
	return nil
}

// rowProv is the provenance a row states for its batch.
type rowProv struct {
	prov     *bt.Provenance // nil: none stated
	override bool
}

func (x rowProv) equal(y rowProv) bool {
	if x.override != y.override || (x.prov == nil) != (y.prov == nil) {
		return false
	}
	return x.prov == nil || *x.prov == *y.prov
}

// text renders a row's provenance for an error message.
func (x rowProv) text() string {
	s := "none"
	if x.prov != nil {
		s = fmt.Sprintf("authority %q source %q actor %q ref %q note %q", x.prov.Authority.String(), x.prov.Source, x.prov.Actor, x.prov.Ref, x.prov.Note)
	}
	return fmt.Sprintf("%s, override %t", s, x.override)
}

// readProv reads a row's provenance cells: an authority (user, model,
// import, system) when any text field is given, and override true or
// false (empty: false).
func (b *binder) readProv(r *Row, p *provCols) (rowProv, *CellError) {
	var out rowProv
	if !p.any() {
		return out, nil
	}
	var pv bt.Provenance
	texts := []struct {
		c   col
		dst *string
	}{{p.source, &pv.Source}, {p.actor, &pv.Actor}, {p.ref, &pv.Ref}, {p.note, &pv.Note}}
	stated := false
	for _, f := range texts {
		if !f.c.ok() {
			continue
		}
		text, val, isText, null := b.cell(r, f.c)
		if null {
			continue
		}
		s := text
		if !isText {
			v, ok := val.(string)
			if !ok {
				return out, b.bad(r, f.c, text, val, isText, "a "+typeOf(val), "text")
			}
			s = v
		}
		if len(s) > bt.MaxProvenanceText {
			return out, b.bad(r, f.c, s, nil, true, fmt.Sprintf("%d bytes, over the limit of %d", len(s), bt.MaxProvenanceText), "shorter text")
		}
		if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
			return out, b.bad(r, f.c, s, nil, true, "not UTF-8 text without NUL", "UTF-8 text without NUL")
		}
		*f.dst = s
		stated = stated || s != ""
	}
	want := strings.Join(bt.AuthorityNames(), ", ")
	auth, e := b.optStr(r, p.auth, "one of "+want)
	if e != nil {
		return out, e
	}
	switch {
	case auth != "":
		a, ok := bt.ParseAuthority(auth)
		if !ok {
			return out, b.bad(r, p.auth, auth, nil, true, "unknown authority", "one of "+want+" (empty: no provenance stated)")
		}
		pv.Authority = a
		out.prov = &pv
	case stated:
		return out, &CellError{Pos: r.Pos, Column: ColProvAuthority, Msg: "provenance text without an authority", Expected: "one of " + want + " in " + ColProvAuthority + " when prov_source, prov_actor, prov_ref or prov_note is given"}
	}
	if p.override.ok() {
		text, val, isText, null := b.cell(r, p.override)
		if !null {
			switch v := val.(type) {
			case bool:
				out.override = v
			case string:
				text, isText = v, true
			}
			if isText {
				switch strings.ToLower(text) {
				case "true":
					out.override = true
				case "false":
				default:
					return out, b.bad(r, p.override, text, nil, true, "not a boolean", "true or false (empty: false)")
				}
			} else if _, ok := val.(bool); !ok {
				return out, b.bad(r, p.override, text, val, isText, "a "+typeOf(val), "true or false (empty: false)")
			}
		}
	}
	return out, nil
}
