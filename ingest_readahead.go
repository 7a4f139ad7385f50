package tgms

import (
	"errors"
	"sync"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// readAhead runs an EventPass on a goroutine of its own and hands its
// events over in batches of ChunkEvents (fresh slices the receiver
// keeps), up to two batches ahead of the receiver.
type readAhead struct {
	ch       chan []bt.Event
	quit     chan struct{}
	done     chan struct{}
	stopOnce sync.Once
	sha      string
	err      error
}

// errReadStopped ends a pass its receiver no longer reads.
var errReadStopped = errors.New("read stopped")

func startReadAhead(pass EventPass) *readAhead {
	ra := &readAhead{ch: make(chan []bt.Event, 2), quit: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(ra.done)
		defer close(ra.ch)
		chunk := make([]bt.Event, 0, ChunkEvents)
		send := func() error {
			select {
			case ra.ch <- chunk:
				chunk = make([]bt.Event, 0, ChunkEvents)
				return nil
			case <-ra.quit:
				return errReadStopped
			}
		}
		ra.sha, ra.err = pass(func(evs []bt.Event) error {
			for len(evs) > 0 {
				n := min(len(evs), ChunkEvents-len(chunk))
				chunk, evs = append(chunk, evs[:n]...), evs[n:]
				if len(chunk) == ChunkEvents {
					if err := send(); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if ra.err == nil && len(chunk) > 0 {
			ra.err = send()
		}
	}()
	return ra
}

// next returns the next batch, nil after the last (or once the pass
// failed: result then says why).
func (ra *readAhead) next() []bt.Event { return <-ra.ch }

// result waits for the pass to end and returns its SHA-256 and error.
func (ra *readAhead) result() (string, error) {
	<-ra.done
	return ra.sha, ra.err
}

// stop ends the pass if it is still reading and waits for it.
func (ra *readAhead) stop() {
	ra.stopOnce.Do(func() { close(ra.quit) })
	for range ra.ch {
	}
	<-ra.done
}
