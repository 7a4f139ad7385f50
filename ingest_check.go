package tgms

import (
	"errors"
	"fmt"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// streamCheck is what the first pass of IngestStream keeps: the count,
// whether the events are in vt_s order, the explicit discriminators (an
// ingest only creates identities) and, up to hold, the events, in
// chunks of ChunkEvents. It copies the events it is given into chunks
// and validates each full chunk on a goroutine of its own while the pass
// reads the next (validation is per event, so chunk boundaries do not
// change what it finds).
type streamCheck struct {
	label  string
	hold   int
	total  int
	sorted bool
	last   bt.Time
	keep   bool         // the chunks are kept: the content fits in hold
	held   [][]bt.Event // the full chunks kept, then the last one
	cur    []bt.Event   // the chunk being filled
	discs  map[bt.EdgeKey]int

	todo  chan checkChunk // chunks to validate, in order
	free  chan []bt.Event // validated chunks not kept, for reuse
	found chan error      // the validator's first error (nil: none), once todo is closed
	bad   chan struct{}   // closed when the validator finds an error
	err   error           // the validator's error, once finish has run
}

type checkChunk struct {
	evs  []bt.Event
	from int // index of the first in the whole content
	keep bool
}

func newStreamCheck(label string, hold int) *streamCheck {
	c := &streamCheck{label: label, hold: hold, keep: hold > 0, sorted: true,
		todo: make(chan checkChunk, 2), free: make(chan []bt.Event, 3), found: make(chan error, 1), bad: make(chan struct{})}
	go c.validate(c.todo)
	return c
}

// validate validates the chunks of todo in order and stops at the first
// error.
func (c *streamCheck) validate(todo <-chan checkChunk) {
	var first error
	for ch := range todo {
		if first != nil {
			continue
		}
		if first = validateEvents(ch.evs, c.label, ch.from); first != nil {
			close(c.bad)
			continue
		}
		if !ch.keep {
			select {
			case c.free <- ch.evs[:0]:
			default:
			}
		}
	}
	c.found <- first
}

// add takes the next events of the pass.
func (c *streamCheck) add(evs []bt.Event) error {
	select {
	case <-c.bad:
		return c.finish()
	default:
	}
	for i := range evs {
		e := &evs[i]
		if c.total > 0 && e.VtS < c.last {
			c.sorted = false
		}
		c.last = e.VtS
		if e.Disc != "" {
			if err := c.disc(e); err != nil {
				if verr := c.finish(); verr != nil {
					return verr // an invalid event before it
				}
				return err
			}
		}
		if c.cur == nil {
			c.cur = c.chunk()
		}
		c.cur = append(c.cur, *e)
		c.total++
		if len(c.cur) == ChunkEvents {
			c.send()
		}
	}
	return nil
}

// disc records an explicit discriminator, refusing a repeat.
func (c *streamCheck) disc(e *bt.Event) error {
	if c.discs == nil {
		c.discs = map[bt.EdgeKey]int{}
	}
	k := bt.EdgeKey{Src: e.Src, Dst: e.Dst, RelType: e.RelType, Disc: e.Disc}
	if j, dup := c.discs[k]; dup {
		return &bt.OpError{Code: bt.CodeConflict, Kind: bt.OpIngest, Event: c.total, Field: "disc", Msg: fmt.Sprintf("edge %s→%s %s disc %q repeats event %d; each event must be a new edge", e.Src, e.Dst, e.RelType, e.Disc, j)}
	}
	c.discs[k] = c.total
	return nil
}

// chunk is an empty chunk: a reused one when the chunks are not kept.
func (c *streamCheck) chunk() []bt.Event {
	if !c.keep {
		select {
		case b := <-c.free:
			return b
		default:
		}
	}
	return make([]bt.Event, 0, ChunkEvents)
}

// send hands the current chunk to the validator, keeping it while the
// content fits in hold.
func (c *streamCheck) send() {
	if c.keep && c.total > c.hold {
		c.keep, c.held = false, nil // too many to keep: a second pass writes them
	}
	if c.keep {
		c.held = append(c.held, c.cur)
	}
	c.todo <- checkChunk{evs: c.cur, from: c.total - len(c.cur), keep: c.keep}
	c.cur = nil
}

// finish validates what is left and returns the first invalid event's
// error, if any. It must be called once, at the end of the pass (also
// when the pass failed).
func (c *streamCheck) finish() error {
	if c.todo == nil {
		return c.err
	}
	if len(c.cur) > 0 {
		c.send()
	}
	close(c.todo)
	c.todo = nil
	c.err = <-c.found
	return c.err
}

// kept returns the content's events in chunks when the pass kept them
// all (nil when it did not, or when there were none).
func (c *streamCheck) kept() [][]bt.Event {
	if !c.keep || c.total == 0 {
		return nil
	}
	return c.held
}

// validateEvents checks events as one ingest op; from is the index of
// the first in the whole input, for the error.
func validateEvents(evs []bt.Event, label string, from int) error {
	op := bt.Ingest(evs, label)
	if err := op.Validate(0); err != nil {
		if oe := (*bt.OpError)(nil); errors.As(err, &oe) && oe.Event >= 0 {
			oe.Event += from
		}
		return err
	}
	return nil
}
