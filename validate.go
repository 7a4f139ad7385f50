package tgms

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// validateChunks validates the ingest op of each chunk of a bulk ingest
// (ChunkEvents events each), on every processor at once, and returns the
// error of the first bad chunk, with its event numbered within the whole
// ingest: the error a check in input order would stop at.
func validateChunks(chunks [][]bt.Op) error {
	errs := make([]error, len(chunks))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(chunks)) {
		wg.Go(func() {
			for {
				k := int(next.Add(1) - 1)
				if k >= len(chunks) {
					return
				}
				errs[k] = chunks[k][0].Validate(0)
			}
		})
	}
	wg.Wait()
	for k, err := range errs {
		if err == nil {
			continue
		}
		if oe := (*bt.OpError)(nil); errors.As(err, &oe) && oe.Event >= 0 {
			oe.Event += k * ChunkEvents
		}
		return err
	}
	return nil
}
