package tgms

import (
	"context"
	"errors"
	"fmt"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// OnePass is what content holds, known before it is read (from a fast
// look at its bytes, say): the SHA-256 of its bytes and its number of
// events.
type OnePass struct {
	SHA256 string
	Events int
}

// ErrNotOnePass is matched (errors.Is) by the error of a one-pass ingest
// whose content was not as its OnePass said, or had events out of vt_s
// order across batches, or explicit discriminators: the store must be
// discarded and the content ingested again without OnePass.
var ErrNotOnePass = errors.New("the content cannot be written in one pass")

// ingestOnePass is IngestStream with opt.OnePass into a store that has
// no batches: a single pass reads the content and writes each batch as
// soon as it is read and validated, so reading overlaps writing.
// Batches before a bad event or row are written, so the caller must
// discard the store when the ingest fails (as a command that builds a
// new store does); nothing else differs from IngestStream: the same
// batches, source texts and digest.
func (db *DB) ingestOnePass(ctx context.Context, name string, pass EventPass, opt StreamOptions) (IngestResult, error) {
	want := opt.OnePass
	if !sha256Hex.MatchString(want.SHA256) {
		return IngestResult{}, fmt.Errorf("ingest source %q: SHA-256 %q is not 64 lowercase hex digits", name, want.SHA256)
	}
	src := Source{Name: name, SHA256: want.SHA256}
	discs := func(fn func([]bt.Event) error) (string, error) {
		return pass(func(evs []bt.Event) error {
			for i := range evs {
				if evs[i].Disc != "" {
					return fmt.Errorf("%w: the events have explicit discriminators", ErrNotOnePass)
				}
			}
			return fn(evs)
		})
	}
	db.wmu.Lock()
	defer db.wmu.Unlock()
	res, err := db.writePass(ctx, src, discs, want.Events, opt)
	var pe *passError
	if errors.As(err, &pe) {
		if pe.cause != nil {
			return res, pe.cause // a bad event or row
		}
		return res, fmt.Errorf("%w: %s", ErrNotOnePass, pe.msg)
	}
	return res, err
}
