package engine

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"unsafe"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/eventlog"
	"github.com/tgms-go/tgms/internal/fault"
	"github.com/tgms-go/tgms/internal/vfs"
)

// The checkpoint file format is described in doc.go.

var ckptMagic = [8]byte{'T', 'G', 'M', 'S', 'C', 'K', 'P', 0}

// ckptVersion is the version this build writes: 3 adds the log's record
// chain at the last covered record, 4 the batches' provenance. Versions 2
// and 3 are still read.
const ckptVersion = 4

// CheckpointTempPattern is the os.CreateTemp pattern of the temporary file
// a checkpoint is written to before it is renamed into place; a store
// removes leftovers of it (from a crash) when it opens.
const CheckpointTempPattern = ".checkpoint-*"

// CheckpointInfo ties a checkpoint to the event log it was taken from:
// the log's store id, and the last log record the checkpoint covers (its
// offsets, batch number, transaction time and checksum). Last is the zero
// Frame except for End (the log's first record offset) when it covers no
// records.
type CheckpointInfo struct {
	StoreID eventlog.StoreID
	Last    eventlog.Frame
	// Chain is the log's record chain at Last (eventlog.Chain): it ties
	// the checkpoint to every record it covers, not only the last one.
	// A version 2 checkpoint has none (HasChain false).
	Chain    eventlog.Chain
	HasChain bool
	// HasProvenance says the checkpoint holds its batches' provenance
	// (version 4). An older one loads with every batch at the system
	// default; the caller sets the right defaults from the log records
	// (Store.SetBatchProvenance).
	HasProvenance bool
}

// LogEnd is the log offset after which replay resumes.
func (ci CheckpointInfo) LogEnd() int64 { return ci.Last.End }

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// CheckpointError reports a checkpoint file that cannot be used.
type CheckpointError struct {
	Path   string
	Reason string
}

func (e *CheckpointError) Error() string {
	return fmt.Sprintf("checkpoint %s: %s; delete it to rebuild the store from its event log", e.Path, e.Reason)
}

type ckptWriter struct {
	w   *bufio.Writer
	crc uint32
	n   int64
	b   []byte // encoded, not yet checksummed and written (see flush)
	err error
}

// flush checksums and writes the staged bytes: the checksum runs over
// large blocks, not over each varint.
func (c *ckptWriter) flush() {
	if len(c.b) == 0 || c.err != nil {
		return
	}
	c.crc = crc32.Update(c.crc, castagnoli, c.b)
	c.n += int64(len(c.b))
	_, c.err = c.w.Write(c.b)
	c.b = c.b[:0]
}

func (c *ckptWriter) staged() {
	if len(c.b) >= 64<<10 {
		c.flush()
	}
}

func (c *ckptWriter) write(b []byte) { c.b = append(c.b, b...); c.staged() }
func (c *ckptWriter) uvarint(x uint64) {
	c.b = binary.AppendUvarint(c.b, x)
	c.staged()
}
func (c *ckptWriter) varint(x int64) { c.b = binary.AppendVarint(c.b, x); c.staged() }
func (c *ckptWriter) byte1(b byte)   { c.b = append(c.b, b); c.staged() }
func (c *ckptWriter) str(s string) {
	c.b = binary.AppendUvarint(c.b, uint64(len(s)))
	c.b = append(c.b, s...)
	c.staged()
}

func (c *ckptWriter) strings(ss []string) {
	c.uvarint(uint64(len(ss)))
	for _, s := range ss {
		c.str(s)
	}
}

// WriteCheckpoint writes the whole store to path atomically (a new
// temporary file, fsync, rename, fsync of the directory). info names the
// log and its last record the checkpoint covers; ReadCheckpoint returns
// it so that opening checks it against the log and replays only the log
// after it.
func (s *Store) WriteCheckpoint(path string, info CheckpointInfo) (size int64, err error) {
	if got := uint64(s.Batches()); got != info.Last.Seq {
		return 0, fmt.Errorf("checkpoint %s: the store has %d batches but the checkpoint would cover %d", path, got, info.Last.Seq)
	}
	fault.Point("ckpt.create")
	fs := vfs.Get()
	tmp, err := fs.CreateTemp(filepath.Dir(path), CheckpointTempPattern)
	if err != nil {
		return 0, err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			fs.Remove(tmp.Name())
		}
	}()
	c := &ckptWriter{w: bufio.NewWriterSize(fault.Writer(tmp), 1<<20)}
	var head [16]byte
	copy(head[:], ckptMagic[:])
	version := uint32(ckptVersion)
	if s.hasErased() {
		version = ckptVersionErased
	}
	binary.LittleEndian.PutUint32(head[8:], version)
	if _, err = c.w.Write(head[:]); err != nil {
		return 0, err
	}
	s.encode(c, info)
	if c.err != nil {
		return 0, c.err
	}
	var trailer [12]byte
	binary.LittleEndian.PutUint64(trailer[:], uint64(c.n))
	binary.LittleEndian.PutUint32(trailer[8:], c.crc)
	if _, err = c.w.Write(trailer[:]); err != nil {
		return 0, err
	}
	if err = c.w.Flush(); err != nil {
		return 0, err
	}
	fault.Point("ckpt.fsync")
	if err = tmp.Sync(); err != nil {
		return 0, err
	}
	if err = tmp.Close(); err != nil {
		return 0, err
	}
	fault.Point("ckpt.rename")
	if err = fs.Rename(tmp.Name(), path); err != nil {
		return 0, err
	}
	fault.Point("ckpt.dirsync")
	err = fs.SyncDir(filepath.Dir(path))
	return 16 + c.n + 12, err
}

func (s *Store) encode(c *ckptWriter, info CheckpointInfo) {
	c.write(info.StoreID[:])
	c.uvarint(uint64(info.Last.End))
	c.uvarint(uint64(info.Last.Start))
	c.uvarint(info.Last.Seq)
	c.varint(info.Last.TT)
	var crc [4]byte
	binary.LittleEndian.PutUint32(crc[:], info.Last.CRC)
	c.write(crc[:])
	c.write(info.Chain[:])
	c.strings(s.uids.s)
	c.strings(s.labels.s)
	c.strings(s.rels.s)
	c.strings(s.discs.s)
	c.strings(s.props.s)
	for _, seq := range s.uidSeq {
		c.uvarint(uint64(seq))
	}
	nb := len(s.batchTT) - 1
	c.uvarint(uint64(nb))
	for seq := 1; seq <= nb; seq++ {
		c.uvarint(uint64(s.batchTT[seq] - s.batchTT[seq-1]))
		c.uvarint(uint64(s.batchAuto[seq+1] - s.batchAuto[seq]))
		c.uvarint(uint64(s.edgeEnd[seq] - s.edgeEnd[seq-1]))
	}
	c.uvarint(uint64(len(s.nodes)))
	for i := range s.nodes {
		n := &s.nodes[i]
		c.uvarint(uint64(n.uid))
		c.uvarint(uint64(n.label))
		c.uvarint(uint64(n.props))
		c.uvarint(uint64(n.valid.Start))
		c.uvarint(encodeEnd(n.valid))
		c.uvarint(uint64(n.tts))
		c.uvarint(encodeTTe(n.tts, n.tte))
		c.byte1(uint8(n.created) | uint8(n.closed)<<4)
	}
	ne := s.eVtS.Len()
	c.uvarint(uint64(ne))
	var prevS int64
	var prevG uint32
	tts := uint32(0)
	for i := 0; i < ne; i++ {
		v := uint32(i)
		c.uvarint(uint64(s.eSrc.At(v)))
		c.uvarint(uint64(s.eDst.At(v)))
		c.uvarint(uint64(s.eRel.At(v)))
		for s.edgeEnd[tts] <= v {
			tts++
		}
		if d := s.discIn(v, tts); d&autoBit != 0 {
			g := d &^ autoBit
			c.uvarint(uint64(zigzag(int64(g)-int64(prevG)))<<1 | 1)
			prevG = g
		} else {
			c.uvarint(uint64(d) << 1)
		}
		vs := s.eVtS.At(v)
		c.varint(vs - prevS)
		prevS = vs
		c.uvarint(encodeEnd(bt.Interval{Start: vs, End: s.end(v, vs)}))
		c.uvarint(encodeTTe(tts, s.eTTe.At(v)))
		c.uvarint(uint64(s.propsOf(v)))
		c.byte1(s.eOps.At(v))
	}
	s.prov.encode(c)
	if s.hasErased() {
		s.encodeErased(c)
	}
	c.flush()
}

func zigzag(x int64) uint64   { return uint64(x<<1) ^ uint64(x>>63) }
func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// encodeEnd stores an interval end as 0 for OpenEnd, else the duration.
func encodeEnd(iv bt.Interval) uint64 {
	if iv.End == bt.OpenEnd {
		return 0
	}
	return uint64(iv.End - iv.Start)
}

func decodeEnd(start int64, x uint64) int64 {
	if x == 0 {
		return bt.OpenEnd
	}
	return start + int64(x)
}

// encodeTTe stores a closing batch as 0 while open, else tte - tts.
func encodeTTe(tts, tte uint32) uint64 {
	if tte == openSeq {
		return 0
	}
	return uint64(tte - tts)
}

type ckptReader struct {
	b   []byte
	off int
	err error
	// budget is what the load may still allocate for counts read from
	// the file (ReopenMultiple times its size plus ReopenOverhead).
	budget int64
}

// charge accounts n elements of size bytes each, read from a count in
// the file, against the load's memory budget; it fails the load (and
// returns false) before the allocation when the budget would be passed.
func (r *ckptReader) charge(n, size int64, what string) bool {
	if r.err != nil {
		return false
	}
	if n > 0 && size > 0 && n > r.budget/size {
		r.fail("%d %s would need more than the %d bytes a checkpoint of %d bytes may take to load (%dx its size plus %d MiB): it was not written by this store",
			n, what, r.limit(), len(r.b)+28, ReopenMultiple, ReopenOverhead>>20)
		return false
	}
	r.budget -= n * size
	return true
}

// limit is the load's whole budget.
func (r *ckptReader) limit() int64 { return ReopenMultiple*int64(len(r.b)+28) + ReopenOverhead }

func (r *ckptReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("offset %d: "+format, append([]any{r.off + 16}, args...)...)
	}
}

func (r *ckptReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	x, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		r.fail("bad varint")
		return 0
	}
	r.off += n
	return x
}

func (r *ckptReader) varint() int64 {
	if r.err != nil {
		return 0
	}
	x, n := binary.Varint(r.b[r.off:])
	if n <= 0 {
		r.fail("bad varint")
		return 0
	}
	r.off += n
	return x
}

func (r *ckptReader) byte1() byte {
	if r.err != nil || r.off >= len(r.b) {
		r.fail("truncated")
		return 0
	}
	r.off++
	return r.b[r.off-1]
}

// count reads a length and checks it against the bytes left, each element
// taking at least minBytes.
func (r *ckptReader) count(minBytes int) int {
	n := r.uvarint()
	if n > uint64((len(r.b)-r.off)/minBytes) {
		r.fail("count %d exceeds the data", n)
		return 0
	}
	return int(n)
}

func (r *ckptReader) strings() []string {
	n := r.count(1)
	// A slice entry, a map entry and the text's allocation.
	if !r.charge(int64(n), 16+48+8, "strings") {
		return nil
	}
	out := make([]string, 0, n)
	for range n {
		l := r.uvarint()
		if r.err != nil {
			return nil
		}
		if l > uint64(len(r.b)-r.off) {
			r.fail("string length %d exceeds the data", l)
			return nil
		}
		out = append(out, string(r.b[r.off:r.off+int(l)]))
		r.off += int(l)
	}
	return out
}

func (r *ckptReader) index(x uint64, n int, what string) uint32 {
	if x >= uint64(n) {
		r.fail("%s index %d out of range (%d entries)", what, x, n)
		return 0
	}
	return uint32(x)
}

// ReadCheckpoint loads a store from a checkpoint file and returns what it
// covers of its event log. A missing file returns an error satisfying
// errors.Is(err, os.ErrNotExist); any damage, and a checkpoint of an older
// format, returns *CheckpointError. The file is opened with O_NOFOLLOW
// where available: a checkpoint that is a symbolic link is refused.
func ReadCheckpoint(path string) (*Store, CheckpointInfo, error) {
	data, err := readNoFollow(path)
	if err != nil {
		return nil, CheckpointInfo{}, err
	}
	s, info, err := decodeCheckpoint(path, data)
	return s, info, err
}

func decodeCheckpoint(path string, data []byte) (*Store, CheckpointInfo, error) {
	bad := func(format string, args ...any) error {
		return &CheckpointError{Path: path, Reason: fmt.Sprintf(format, args...)}
	}
	if len(data) < 28 || [8]byte(data[:8]) != ckptMagic {
		return nil, CheckpointInfo{}, bad("not a TGMS checkpoint")
	}
	v := binary.LittleEndian.Uint32(data[8:])
	if v == 1 {
		return nil, CheckpointInfo{}, bad("format version 1 (written by an earlier build, not tied to its log)")
	} else if v < 2 || v > ckptVersionErased {
		return nil, CheckpointInfo{}, bad("format version %d, this build reads versions 2 to %d", v, ckptVersionErased)
	}
	body := data[16 : len(data)-12]
	trailer := data[len(data)-12:]
	if binary.LittleEndian.Uint64(trailer) != uint64(len(body)) {
		return nil, CheckpointInfo{}, bad("length mismatch: trailer says %d bytes, file has %d (truncated?)", binary.LittleEndian.Uint64(trailer), len(body))
	}
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(trailer[8:]) {
		return nil, CheckpointInfo{}, bad("checksum mismatch")
	}
	r := &ckptReader{b: body}
	r.budget = r.limit()
	s, info := decodeStore(r, v >= 3)
	if s != nil && r.err == nil {
		if v >= 4 {
			s.prov = decodeProv(r, int(s.Batches()))
			info.HasProvenance = true
		} else {
			s.prov.batch = make([]uint32, s.Batches()+1)
		}
	}
	if v >= ckptVersionErased && r.err == nil {
		s.decodeErased(r)
	}
	if r.err == nil && r.off != len(body) {
		r.fail("%d trailing bytes", len(body)-r.off)
	}
	if r.err != nil {
		return nil, CheckpointInfo{}, bad("%v", r.err)
	}
	if uint64(s.Batches()) != info.Last.Seq || (info.Last.Seq > 0 && s.LastTT() != info.Last.TT) {
		return nil, CheckpointInfo{}, bad("it holds %d batches up to tt %d, but says it covers batch %d at tt %d", s.Batches(), s.LastTT(), info.Last.Seq, info.Last.TT)
	}
	return s, info, nil
}

func decodeStore(r *ckptReader, chained bool) (*Store, CheckpointInfo) {
	s := New()
	var info CheckpointInfo
	if len(r.b) < len(info.StoreID) {
		r.fail("truncated store id")
		return nil, info
	}
	copy(info.StoreID[:], r.b)
	r.off += len(info.StoreID)
	info.Last.End = int64(r.uvarint())
	info.Last.Start = int64(r.uvarint())
	info.Last.Seq = r.uvarint()
	info.Last.TT = r.varint()
	if r.err == nil && r.off+4 > len(r.b) {
		r.fail("truncated checksum of the last covered record")
	}
	if r.err != nil {
		return nil, info
	}
	info.Last.CRC = binary.LittleEndian.Uint32(r.b[r.off:])
	r.off += 4
	if chained {
		if r.off+eventlog.ChainSize > len(r.b) {
			r.fail("truncated record chain")
			return nil, info
		}
		copy(info.Chain[:], r.b[r.off:])
		r.off += eventlog.ChainSize
		info.HasChain = true
	}
	if info.Last.End < 0 || info.Last.Start < 0 || info.Last.Start > info.Last.End || info.Last.Seq > 1<<40 {
		r.fail("covered record [%d, %d) seq %d out of range", info.Last.Start, info.Last.End, info.Last.Seq)
		return nil, info
	}
	for _, t := range []*strTable{&s.uids, &s.labels, &s.rels, &s.discs, &s.props} {
		*t = strTableOf(r.strings())
	}
	if len(s.props.s) == 0 || s.props.s[0] != "" {
		r.fail("props table must start with the empty bag")
	}
	s.uidSeq = make([]uint32, 0, len(s.uids.s))
	for range s.uids.s {
		s.uidSeq = append(s.uidSeq, uint32(r.uvarint()))
	}
	nb := r.count(2)
	var autos, edges uint64
	for range nb {
		d := r.uvarint()
		if d == 0 || d > uint64(bt.OpenEnd-s.LastTT()) {
			r.fail("batch transaction times must strictly increase")
			return nil, info
		}
		s.batchTT = append(s.batchTT, s.LastTT()+int64(d))
		// Every store-assigned disc belongs to an edge version, which takes
		// at least 9 bytes further on; the bound is checked before adding,
		// so a count near 2^64 cannot wrap around it.
		room := uint64(len(r.b)-r.off) / 9
		if da := r.uvarint(); da > room-min(autos, room) {
			r.fail("auto-identity count %d + %d exceeds the data", autos, da)
			return nil, info
		} else {
			autos += da
		}
		s.batchAuto = append(s.batchAuto, uint32(autos))
		if de := r.uvarint(); de > room-min(edges, room) {
			r.fail("edge version count %d + %d exceeds the data", edges, de)
			return nil, info
		} else {
			edges += de
		}
		s.edgeEnd = append(s.edgeEnd, uint32(edges))
	}
	totalAuto := uint32(autos)
	if !r.charge(int64(nb), 16, "batches") || !r.charge(int64(totalAuto), 4, "store-assigned discs") {
		return nil, info
	}
	firsts := make([]uint32, totalAuto)
	for i := range firsts {
		firsts[i] = NoVersion
	}
	nu := len(s.uids.s)
	for _, seq := range s.uidSeq {
		if int(seq) > nb || seq == 0 {
			r.fail("uid registered by batch %d of %d", seq, nb)
			return nil, info
		}
	}
	// uidSeq, nodeHist, nodeOpen, out and in, and their first entries.
	if !r.charge(int64(nu), 4+24+4+24+24+3*8, "node uids") {
		return nil, info
	}
	s.nodeHist = make([][]uint32, nu)
	s.nodeOpen = make([]uint32, nu)
	s.out = make([][]uint32, nu)
	s.in = make([][]uint32, nu)
	nn := r.count(8)
	if !r.charge(int64(nn), int64(unsafe.Sizeof(nodeRow{})), "node versions") {
		return nil, info
	}
	s.nodes = make([]nodeRow, 0, nn)
	for i := range nn {
		var n nodeRow
		n.uid = r.index(r.uvarint(), nu, "uid")
		n.label = r.index(r.uvarint(), len(s.labels.s), "label")
		n.props = r.index(r.uvarint(), len(s.props.s), "props")
		n.valid.Start = int64(r.uvarint())
		n.valid.End = decodeEnd(n.valid.Start, r.uvarint())
		n.tts = r.index(r.uvarint(), nb+1, "batch")
		n.tte = decodeTTe(r, n.tts, nb)
		ops := r.byte1()
		n.created, n.closed = bt.OpKind(ops&0xf), bt.OpKind(ops>>4)
		if r.err != nil {
			return nil, info
		}
		s.nodes = append(s.nodes, n)
		s.nodeHist[n.uid] = append(s.nodeHist[n.uid], uint32(i))
		if n.tte == openSeq {
			s.nodeOpen[n.uid]++
		}
	}
	ne := r.count(9)
	if uint64(ne) != edges {
		r.fail("%d edge versions, the batch table says %d", ne, edges)
		return nil, info
	}
	var prevS int64
	var prevG uint32
	tts := uint32(0)
	var classes [numClasses][]uint32
	// Columns (src, dst, rel, vt_s, vt_e, tt_e, props, ops, disc), the
	// adjacency lists, the valid-time index and growth slack.
	if !r.charge(int64(ne), 2*(4+4+4+8+8+4+4+1+4+4+4+4), "edge versions") {
		return nil, info
	}
	discs := make([]uint32, ne) // stored once the batches' auto firsts are known
	for i := range ne {
		v := uint32(i)
		src := r.index(r.uvarint(), nu, "src")
		dst := r.index(r.uvarint(), nu, "dst")
		rel := r.index(r.uvarint(), len(s.rels.s), "rel_type")
		dx := r.uvarint()
		var disc uint32
		if dx&1 == 1 {
			g := int64(prevG) + unzigzag(dx>>1)
			prevG = r.index(uint64(g), int(totalAuto), "auto disc")
			if r.err != nil {
				return nil, info // with no auto discs at all, firsts is empty
			}
			disc = autoBit | prevG
			if firsts[prevG] == NoVersion {
				firsts[prevG] = v
			} else {
				s.autoMore[prevG] = append(s.autoMore[prevG], v)
			}
		} else {
			disc = r.index(dx>>1, len(s.discs.s), "disc")
			k := identKey{src, dst, rel, disc}
			s.explicit[k] = append(s.explicit[k], v)
		}
		vs := prevS + r.varint()
		prevS = vs
		ve := decodeEnd(vs, r.uvarint())
		for s.edgeEnd[tts] <= v {
			tts++
		}
		tte := decodeTTe(r, tts, nb)
		props := r.index(r.uvarint(), len(s.props.s), "props")
		ops := r.byte1()
		if r.err != nil {
			return nil, info
		}
		if vs < 0 || ve <= vs || ve > bt.OpenEnd {
			r.fail("edge version %d has invalid interval [%d, %d)", i, vs, ve)
			return nil, info
		}
		s.eSrc.Append(src)
		s.eDst.Append(dst)
		s.eRel.Append(rel)
		discs[i] = disc
		s.eVtS.Append(vs)
		s.eVtE.Append(vs, ve)
		s.eTTe.Append(tte)
		if props == 0 {
			s.eProps.AppendDefault()
		} else {
			s.eProps.Append(props)
		}
		s.eOps.Append(ops)
		s.noteExtent(bt.Interval{Start: vs, End: ve})
		c := durationClass(ve - vs)
		classes[c] = append(classes[c], v)
	}
	s.buildAdjacency()
	s.autoBase = s.autoBase[:1]
	for seq := 1; seq <= nb; seq++ {
		a, b := s.batchAuto[seq], s.batchAuto[seq+1]
		s.setAutoFirsts(a, firsts[a:b])
		s.appendDiscs(uint32(seq), discs[s.edgeEnd[seq-1]:s.edgeEnd[seq]])
	}
	discs = nil
	// Rebuild the time orders: lists are mostly sorted already.
	less := func(a, b uint32) int {
		if s.edgeLess(a, b) {
			return -1
		}
		if a == b {
			return 0
		}
		return 1
	}
	sortIfNeeded := func(l []uint32) {
		if !slices.IsSortedFunc(l, less) {
			slices.SortFunc(l, less)
		}
	}
	for c := range classes {
		sortIfNeeded(classes[c])
		s.byStart.classes[c].main = slices.Clip(classes[c])
	}
	s.refineFollowing()
	s.Compact()
	return s, info
}

func decodeTTe(r *ckptReader, tts uint32, nb int) uint32 {
	x := r.uvarint()
	if x == 0 {
		return openSeq
	}
	return r.index(uint64(tts)+x, nb+1, "closing batch")
}

// readNoFollow reads a whole file, refusing a symbolic link.
func readNoFollow(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|eventlog.NoFollow, 0)
	if err != nil {
		if st, lerr := os.Lstat(path); lerr == nil && st.Mode()&os.ModeSymlink != 0 {
			return nil, &CheckpointError{Path: path, Reason: "it is a symbolic link; a store's files must be regular files"}
		}
		return nil, err
	}
	defer f.Close()
	// Read into a buffer of the file's size, as os.ReadFile does: growing
	// one by doubling would hold up to twice a large checkpoint at once.
	var size int64
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	data := make([]byte, 0, size+1)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			data = slices.Grow(data, len(data)/4+512)
		}
	}
}

// DecodeImage loads a store from the bytes of a checkpoint file held in a
// log's store image record (eventlog.Record.Image), checking everything
// ReadCheckpoint checks; the checkpoint's tie to the log it was taken from
// is returned but belongs to that older log.
func DecodeImage(data []byte) (*Store, CheckpointInfo, error) {
	return decodeCheckpoint("(store image in the event log)", data)
}

// ReopenMultiple bounds the memory a checkpoint's load allocates: at most
// this many bytes per byte of the checkpoint file (its bytes included),
// plus ReopenOverhead.
// Every count read from the file is checked against the bytes left before
// anything is allocated for it, and the decoder also stops a load whose
// allocations would pass the bound (see engine/doc.go).
const ReopenMultiple = 16

// ReopenOverhead is the fixed part of that bound: the first chunks of the
// columns and the indexes, whatever the store's size.
const ReopenOverhead = 4 << 20
