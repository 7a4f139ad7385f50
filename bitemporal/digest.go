package bitemporal

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"strconv"
	"strings"

	"github.com/tgms-go/tgms/canon"
)

// The store digest is the SHA-256 of the canonical JSON object
//
//	{"edges":[edge rows...],"nodes":[node rows...]}
//
// over every version ever believed (closed ones included), node rows sorted
// by (uid, tt_s, vt_s) and edge rows by (src, dst, rel_type, disc, tt_s,
// vt_s), strings compared as bytes and integers numerically, except that
// store-assigned discriminators (#<batch>.<n>) come before explicit ones and
// compare numerically by (batch, n) (see CompareEdgeKeys). A node row is
//
//	{"closed_by":OP|null,["closed_provenance":P,]"created_by":OP,"label":S,"props":{...},["provenance":P,]"tt_e":N,"tt_s":N,"uid":S,"vt_e":N,"vt_s":N}
//
// and an edge row
//
//	{"closed_by":OP|null,["closed_provenance":P,]"created_by":OP,"disc":S,"dst":S,"props":{...},["provenance":P,]"rel_type":S,"src":S,"tt_e":N,"tt_s":N,"vt_e":N,"vt_s":N}
//
// provenance is that of the batch that wrote the version and
// closed_provenance that of the batch that closed it, each written only
// when the batch stated a provenance other than its default (see
// Provenance): P is {"actor":S,"authority":S,"note":S,"ref":S,"source":S}
// with the empty text fields left out. A store whose batches state no
// provenance, which includes every store written before provenance
// existed, therefore keeps the digest it had, and two batches that differ
// only in spelling out their default hash the same.
//
// Derived identifiers (edge ids, version ids) are functions of these fields
// and are not hashed. Two stores with the same digest hold the same beliefs
// with the same history, whatever backend or checkpoint produced them.

// Digester computes a store digest from rows fed in canonical order: all
// edges first, then all nodes.
type Digester struct {
	h     hash.Hash
	buf   []byte
	state int // 0 nothing, 1 in edges, 2 in nodes
	n     int
}

// NewDigester starts a store digest.
func NewDigester() *Digester {
	d := &Digester{h: sha256.New(), buf: make([]byte, 0, 64<<10)}
	d.buf = append(d.buf, `{"edges":[`...)
	return d
}

func (d *Digester) sep() {
	if d.n > 0 {
		d.buf = append(d.buf, ',')
	}
	d.n++
	if len(d.buf) > 60<<10 {
		d.h.Write(d.buf)
		d.buf = d.buf[:0]
	}
}

func appendOp(b []byte, k OpKind) []byte {
	if k == OpNone {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = append(b, k.String()...)
	return append(b, '"')
}

func appendProv(b []byte, name string, p *Provenance) []byte {
	if p == nil || p.Derived {
		return b
	}
	b = append(b, name...)
	return p.appendDigest(b)
}

func appendIntField(b []byte, name string, v int64) []byte {
	b = append(b, name...)
	return strconv.AppendInt(b, v, 10)
}

// Edge adds one edge row. Rows must come in canonical order.
func (d *Digester) Edge(v *EdgeVersion) {
	if d.state > 1 {
		panic("bitemporal: Digester.Edge after Digester.Node")
	}
	d.state = 1
	d.sep()
	b := append(d.buf, `{"closed_by":`...)
	b = appendOp(b, v.ClosedBy)
	b = appendProv(b, `,"closed_provenance":`, v.ClosedProv)
	b = append(b, `,"created_by":`...)
	b = appendOp(b, v.CreatedBy)
	b = append(b, `,"disc":`...)
	b = canon.AppendString(b, v.Key.Disc)
	b = append(b, `,"dst":`...)
	b = canon.AppendString(b, v.Key.Dst)
	b = append(b, `,"props":`...)
	b = append(b, v.Props.JSON()...)
	b = appendProv(b, `,"provenance":`, v.Prov)
	b = append(b, `,"rel_type":`...)
	b = canon.AppendString(b, v.Key.RelType)
	b = append(b, `,"src":`...)
	b = canon.AppendString(b, v.Key.Src)
	b = appendIntField(b, `,"tt_e":`, v.TTe)
	b = appendIntField(b, `,"tt_s":`, v.TTs)
	b = appendIntField(b, `,"vt_e":`, v.Valid.End)
	b = appendIntField(b, `,"vt_s":`, v.Valid.Start)
	d.buf = append(b, '}')
}

// Node adds one node row. Rows must come in canonical order.
func (d *Digester) Node(v *NodeVersion) {
	if d.state < 2 {
		d.buf = append(d.buf, `],"nodes":[`...)
		d.state, d.n = 2, 0
	}
	d.sep()
	b := append(d.buf, `{"closed_by":`...)
	b = appendOp(b, v.ClosedBy)
	b = appendProv(b, `,"closed_provenance":`, v.ClosedProv)
	b = append(b, `,"created_by":`...)
	b = appendOp(b, v.CreatedBy)
	b = append(b, `,"label":`...)
	b = canon.AppendString(b, v.Label)
	b = append(b, `,"props":`...)
	b = append(b, v.Props.JSON()...)
	b = appendProv(b, `,"provenance":`, v.Prov)
	b = appendIntField(b, `,"tt_e":`, v.TTe)
	b = appendIntField(b, `,"tt_s":`, v.TTs)
	b = append(b, `,"uid":`...)
	b = canon.AppendString(b, v.UID)
	b = appendIntField(b, `,"vt_e":`, v.Valid.End)
	b = appendIntField(b, `,"vt_s":`, v.Valid.Start)
	d.buf = append(b, '}')
}

// Sum finishes the digest and returns it as lowercase hex.
func (d *Digester) Sum() string {
	if d.state < 2 {
		d.buf = append(d.buf, `],"nodes":[`...)
	}
	d.buf = append(d.buf, "]}"...)
	d.h.Write(d.buf)
	d.buf = d.buf[:0]
	return hex.EncodeToString(d.h.Sum(nil))
}

// CompareNodes orders node versions canonically: (uid, tt_s, vt_s).
func CompareNodes(a, b *NodeVersion) int {
	if a.UID != b.UID {
		if a.UID < b.UID {
			return -1
		}
		return 1
	}
	if c := cmp.Compare(a.TTs, b.TTs); c != 0 {
		return c
	}
	return cmp.Compare(a.Valid.Start, b.Valid.Start)
}

// CompareEdgeKeys orders edge identities by (src, dst, rel_type, disc),
// strings by bytes, except that store-assigned discriminators (#<batch>.<n>)
// come before explicit ones and compare numerically by (batch, n).
func CompareEdgeKeys(a, b EdgeKey) int {
	if c := cmp.Or(strings.Compare(a.Src, b.Src), strings.Compare(a.Dst, b.Dst), strings.Compare(a.RelType, b.RelType)); c != 0 {
		return c
	}
	return compareDiscs(a.Disc, b.Disc)
}

func compareDiscs(a, b string) int {
	sa, ia, autoA := ParseAutoDisc(a)
	sb, ib, autoB := ParseAutoDisc(b)
	switch {
	case autoA && autoB:
		return cmp.Or(cmp.Compare(sa, sb), cmp.Compare(ia, ib))
	case autoA:
		return -1
	case autoB:
		return 1
	}
	return strings.Compare(a, b)
}

// CompareEdges orders edge versions canonically: (identity, tt_s, vt_s).
func CompareEdges(a, b *EdgeVersion) int {
	if c := CompareEdgeKeys(a.Key, b.Key); c != 0 {
		return c
	}
	if c := cmp.Compare(a.TTs, b.TTs); c != 0 {
		return c
	}
	return cmp.Compare(a.Valid.Start, b.Valid.Start)
}
