package tgms

import (
	"bufio"
	"cmp"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// sortRuns sorts content larger than memory by vt_s, stably: a pass
// cuts it into runs of at most runEvents events, each sorted in memory
// and written to a temporary file; a merge of the runs then reads them
// in order. The files live in dir (the system's temporary directory, as
// $TMPDIR says, when "") and are removed by close.
type sortRuns struct {
	dir   string
	files []*os.File
}

// spill reads pass into sorted runs and returns its SHA-256 and how
// many events it read.
func (s *sortRuns) spill(pass EventPass, runEvents int) (string, int, error) {
	var (
		run  []bt.Event
		seen int
	)
	flush := func() error {
		if len(run) == 0 {
			return nil
		}
		slices.SortStableFunc(run, func(a, b bt.Event) int { return cmp.Compare(a.VtS, b.VtS) })
		f, err := os.CreateTemp(s.dir, "tgms-ingest-run-*")
		if err != nil {
			return fmt.Errorf("sorting the events by time: %w", err)
		}
		s.files = append(s.files, f)
		w := bufio.NewWriterSize(f, 1<<20)
		var buf []byte
		for i := range run {
			buf = appendEvent(buf[:0], &run[i])
			w.Write(buf)
		}
		if err := w.Flush(); err != nil {
			return fmt.Errorf("sorting the events by time: writing %s: %w", f.Name(), err)
		}
		run = run[:0]
		return nil
	}
	sha, err := pass(func(evs []bt.Event) error {
		for len(evs) > 0 {
			n := min(len(evs), runEvents-len(run))
			run = append(run, evs[:n]...)
			evs, seen = evs[n:], seen+n
			if len(run) == runEvents {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	return sha, seen, err
}

// merge is an EventPass over the runs in vt_s order (ties in input
// order) that reports sha as its content's SHA-256.
func (s *sortRuns) merge(sha string) EventPass {
	return func(fn func([]bt.Event) error) (string, error) {
		h := &runHeap{}
		for i, f := range s.files {
			if _, err := f.Seek(0, io.SeekStart); err != nil {
				return "", err
			}
			r := &runReader{r: bufio.NewReaderSize(f, 1<<16), idx: i}
			ok, err := r.next()
			if err != nil {
				return "", fmt.Errorf("sorting the events by time: reading %s: %w", f.Name(), err)
			}
			if ok {
				h.rs = append(h.rs, r)
			}
		}
		heap.Init(h)
		out := make([]bt.Event, 0, 4096)
		for len(h.rs) > 0 {
			r := h.rs[0]
			out = append(out, r.ev)
			ok, err := r.next()
			if err != nil {
				return "", fmt.Errorf("sorting the events by time: reading %s: %w", s.files[r.idx].Name(), err)
			}
			if ok {
				heap.Fix(h, 0)
			} else {
				heap.Pop(h)
			}
			if len(out) == cap(out) {
				if err := fn(out); err != nil {
					return "", err
				}
				out = out[:0]
			}
		}
		if len(out) > 0 {
			if err := fn(out); err != nil {
				return "", err
			}
		}
		return sha, nil
	}
}

func (s *sortRuns) close() {
	for _, f := range s.files {
		f.Close()
		os.Remove(f.Name())
	}
	s.files = nil
}

// appendEvent encodes an event for a run: its five strings, each
// length-prefixed, then vt_s and vt_e.
func appendEvent(b []byte, e *bt.Event) []byte {
	for _, s := range [...]string{e.Src, e.Dst, e.RelType, e.Disc, string(e.Props)} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = binary.AppendVarint(b, int64(e.VtS))
	return binary.AppendVarint(b, int64(e.VtE))
}

// runReader reads one run back, an event at a time.
type runReader struct {
	r   *bufio.Reader
	idx int // the run's place in the input, to break ties
	ev  bt.Event
	buf []byte
}

func (r *runReader) next() (bool, error) {
	var strs [5]string
	for i := range strs {
		n, err := binary.ReadUvarint(r.r)
		if err != nil {
			if i == 0 && errors.Is(err, io.EOF) {
				return false, nil
			}
			return false, err
		}
		if uint64(cap(r.buf)) < n {
			r.buf = make([]byte, n)
		}
		b := r.buf[:n]
		if _, err := io.ReadFull(r.r, b); err != nil {
			return false, err
		}
		strs[i] = string(b)
	}
	vs, err := binary.ReadVarint(r.r)
	if err != nil {
		return false, err
	}
	ve, err := binary.ReadVarint(r.r)
	if err != nil {
		return false, err
	}
	r.ev = bt.Event{Src: strs[0], Dst: strs[1], RelType: strs[2], Disc: strs[3], Props: bt.Props(strs[4]), VtS: bt.Time(vs), VtE: bt.Time(ve)}
	return true, nil
}

// runHeap orders run readers by their current event's vt_s, then by run.
type runHeap struct{ rs []*runReader }

func (h *runHeap) Len() int { return len(h.rs) }
func (h *runHeap) Less(i, j int) bool {
	a, b := h.rs[i], h.rs[j]
	if a.ev.VtS != b.ev.VtS {
		return a.ev.VtS < b.ev.VtS
	}
	return a.idx < b.idx
}
func (h *runHeap) Swap(i, j int) { h.rs[i], h.rs[j] = h.rs[j], h.rs[i] }
func (h *runHeap) Push(x any)    { h.rs = append(h.rs, x.(*runReader)) }
func (h *runHeap) Pop() any {
	r := h.rs[len(h.rs)-1]
	h.rs = h.rs[:len(h.rs)-1]
	return r
}
