package engine

import (
	"slices"
	"sync"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
)

// provTable interns the provenance of every batch: batch seq → an index
// into a table of distinct provenances, so versions carry none of their
// own (a version's batch is its tt_s, and its closer's is its tt_e).
type provTable struct {
	list  []*bt.Provenance // distinct provenances; list[0] is the system default
	m     map[bt.Provenance]uint32
	batch []uint32 // batch[seq]: index into list; batch[0] unused
}

func newProvTable() provTable {
	return provTable{list: []*bt.Provenance{bt.SystemProvenance}, m: map[bt.Provenance]uint32{*bt.SystemProvenance: 0}, batch: []uint32{0}}
}

func (t *provTable) intern(p *bt.Provenance) uint32 {
	if i, ok := t.m[*p]; ok {
		return i
	}
	i := uint32(len(t.list))
	c := *p
	t.list = append(t.list, &c)
	t.m[c] = i
	return i
}

// add records the provenance of the next batch.
func (t *provTable) add(p *bt.Provenance) { t.batch = append(t.batch, t.intern(p)) }

// of returns the provenance of batch seq (nil for openSeq or an unknown seq).
func (t *provTable) of(seq uint32) *bt.Provenance {
	if seq == openSeq || int(seq) >= len(t.batch) || seq == 0 {
		return nil
	}
	return t.list[t.batch[seq]]
}

// BatchProvenance returns the provenance of batch seq (nil when there is
// no such batch).
func (s *Store) BatchProvenance(seq uint64) *bt.Provenance {
	if seq > uint64(len(s.prov.batch)) {
		return nil
	}
	return s.prov.of(uint32(seq))
}

func (t *provTable) bytes() int64 {
	n := int64(cap(t.batch)) * 4
	for _, p := range t.list {
		n += 96 + int64(len(p.Source)+len(p.Actor)+len(p.Ref)+len(p.Note))
	}
	return n
}

// encodeProv writes the checkpoint's provenance section (version 4): the
// distinct provenances after the system default, then each batch's index.
func (t *provTable) encode(c *ckptWriter) {
	c.uvarint(uint64(len(t.list) - 1))
	for _, p := range t.list[1:] {
		var flags byte
		if p.Derived {
			flags = 1
		}
		c.byte1(flags)
		c.byte1(byte(p.Authority))
		c.str(p.Source)
		c.str(p.Actor)
		c.str(p.Ref)
		c.str(p.Note)
	}
	for _, i := range t.batch[1:] {
		c.uvarint(uint64(i))
	}
}

// decodeProv reads the provenance section of a checkpoint holding nb
// batches.
func decodeProv(r *ckptReader, nb int) provTable {
	t := newProvTable()
	n := r.count(6)
	for range n {
		flags, a := r.byte1(), bt.Authority(r.byte1())
		if r.err == nil && (flags > 1 || a == bt.AuthNone || a > bt.AuthSystem) {
			r.fail("provenance flags %d authority %d out of range", flags, a)
		}
		f := r.strings4()
		if r.err != nil {
			return t
		}
		p := bt.Provenance{Derived: flags == 1, Authority: a, Source: f[0], Actor: f[1], Ref: f[2], Note: f[3]}
		if _, dup := t.m[p]; dup {
			r.fail("provenance %v listed twice", p.Map())
			return t
		}
		t.intern(&p)
	}
	if nb > len(r.b)-r.off {
		r.fail("provenance of %d batches exceeds the data", nb)
		return t
	}
	t.batch = make([]uint32, 1, nb+1)
	for range nb {
		t.batch = append(t.batch, r.index(r.uvarint(), len(t.list), "provenance"))
	}
	return t
}

func (r *ckptReader) strings4() [4]string {
	var out [4]string
	for i := range out {
		l := r.uvarint()
		if r.err != nil {
			return out
		}
		if l > uint64(len(r.b)-r.off) {
			r.fail("string length %d exceeds the data", l)
			return out
		}
		out[i] = string(r.b[r.off : r.off+int(l)])
		r.off += int(l)
	}
	return out
}

// SetBatchProvenance replaces the provenance of batch seq (1 to
// Batches()): a store loaded from a checkpoint written before provenance
// existed learns its batches' defaults from the log records.
func (s *Store) SetBatchProvenance(seq uint64, p *bt.Provenance) {
	if seq == 0 || seq >= uint64(len(s.prov.batch)) {
		return
	}
	s.prov.batch[seq] = s.prov.intern(p)
}

// propKinds caches, per property key, the JSON types its stored values
// have; it folds in the props table (append-only) as it grows.
type propKinds struct {
	mu    sync.Mutex
	upto  int
	kinds map[string][]string
}

// PropKinds lists the JSON types ("string", "int", "float", "bool",
// "array", "object") that stored values of property key have, on any
// version. It is safe to call from concurrent readers.
func (s *Store) PropKinds(key string) []string {
	c := &s.kinds
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.kinds == nil {
		c.kinds = map[string][]string{}
	}
	for ; c.upto < len(s.props.s); c.upto++ {
		v, err := canon.ParseString(s.props.s[c.upto])
		if err != nil {
			continue
		}
		m, _ := v.(map[string]any)
		for k, x := range m {
			t := canon.TypeName(x)
			if t != "null" && !slices.Contains(c.kinds[k], t) {
				c.kinds[k] = append(c.kinds[k], t)
				slices.Sort(c.kinds[k])
			}
		}
	}
	return slices.Clone(c.kinds[key])
}

// EdgeProvenance returns the provenance of the batch that wrote edge
// version v, without materializing the version.
func (s *Store) EdgeProvenance(v uint32) *bt.Provenance { return s.prov.of(s.edgeSeq(v)) }
