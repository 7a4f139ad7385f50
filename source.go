package tgms

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
)

// Source names the content a bulk ingest loads: what it is called (a
// dataset name or a file name) and the SHA-256 of the content, which is
// what makes two ingests the same.
type Source struct {
	Name   string
	SHA256 string // lowercase hex
}

var sha256Hex = regexp.MustCompile(`^[0-9a-f]{64}$`)

// text is the source text stored in each batch of an ingest (see the
// eventlog documentation): "sha256=<hex> part=<k>/<n> name=<name>".
func (s Source) text(k, n int) string {
	return fmt.Sprintf("sha256=%s part=%d/%d name=%s", s.SHA256, k+1, n, s.Name)
}

// parseSource reads back a source text; ok is false for other texts.
func parseSource(text string) (sha, name string, part int, ok bool) {
	var parts int
	rest, found := strings.CutPrefix(text, "sha256=")
	if !found || len(rest) < 64 {
		return "", "", 0, false
	}
	sha, rest = rest[:64], rest[64:]
	if _, err := fmt.Sscanf(rest, " part=%d/%d", &part, &parts); err != nil {
		return "", "", 0, false
	}
	if i := strings.Index(rest, " name="); i >= 0 {
		name = rest[i+len(" name="):]
	}
	return sha, name, part, true
}

// ErrRepeatIngest is matched (errors.Is) by the *RepeatIngestError of an
// ingest whose content the store already holds.
var ErrRepeatIngest = errors.New("the store already holds this content")

// RepeatIngestError refuses to load content a second time.
type RepeatIngestError struct {
	Source   Source
	Earlier  string // the earlier ingest's name
	FirstSeq uint64 // its first batch
	FirstTT  bt.Time
	Batches  int
}

func (e *RepeatIngestError) Error() string {
	return fmt.Sprintf("%s (sha256 %s) was already ingested as %s in %d batches from batch %d (tt %s); ingesting it again would store every event twice. Nothing was written; pass --again (allowRepeat) if a second copy is what you want",
		e.Source.Name, e.Source.SHA256, e.Earlier, e.Batches, e.FirstSeq, bt.FormatBoth(e.FirstTT))
}

// Is makes errors.Is(err, ErrRepeatIngest) true.
func (e *RepeatIngestError) Is(target error) bool { return target == ErrRepeatIngest }

// IngestFrom is Ingest for content from a known source: every batch records
// src in the event log, and unless allowRepeat the ingest is refused (with
// a *RepeatIngestError, nothing written) when the store already holds an
// ingest of the same SHA-256.
func (db *DB) IngestFrom(src Source, allowRepeat bool, events []bt.Event, nodeLabel string, ack func(done int, tt bt.Time)) (IngestResult, error) {
	return db.IngestFromContext(context.Background(), src, allowRepeat, events, nodeLabel, ack)
}

// IngestFromContext is IngestFrom that stops between group commits once
// ctx is done (an interrupted load): the batches committed so far stay and
// are counted in the result, and the error wraps ctx.Err(). Such a partial
// load still records its source, so loading the same content again needs
// allowRepeat.
func (db *DB) IngestFromContext(ctx context.Context, src Source, allowRepeat bool, events []bt.Event, nodeLabel string, ack func(done int, tt bt.Time)) (IngestResult, error) {
	if !sha256Hex.MatchString(src.SHA256) {
		return IngestResult{}, fmt.Errorf("ingest source %q: SHA-256 %q is not 64 lowercase hex digits", src.Name, src.SHA256)
	}
	if strings.ContainsAny(src.Name, "\n\x00") {
		return IngestResult{}, fmt.Errorf("ingest source name %q has a newline or NUL", src.Name)
	}
	if db.opt.ReadOnly {
		return IngestResult{}, ErrReadOnly
	}
	if !allowRepeat {
		if err := db.repeated(src); err != nil {
			return IngestResult{}, err
		}
	}
	return db.ingest(ctx, events, nodeLabel, src.text, ack)
}

// repeated returns a *RepeatIngestError if the log holds an ingest of the
// same content.
func (db *DB) repeated(src Source) error {
	var e *RepeatIngestError
	for _, s := range db.log.Sources() {
		sha, name, _, ok := parseSource(s.Text)
		if !ok || sha != src.SHA256 {
			continue
		}
		if e == nil {
			e = &RepeatIngestError{Source: src, Earlier: name, FirstSeq: s.Seq, FirstTT: s.TT}
		}
		if s.Seq == e.FirstSeq+uint64(e.Batches) {
			e.Batches++
		}
	}
	if e != nil {
		return e
	}
	return nil
}

// Sources lists the bulk ingests recorded in the log: one entry per
// ingest (its first batch), in log order.
func (db *DB) Sources() []IngestRecord {
	var out []IngestRecord
	for _, s := range db.log.Sources() {
		sha, name, part, ok := parseSource(s.Text)
		if !ok {
			continue
		}
		if part == 1 || len(out) == 0 || out[len(out)-1].SHA256 != sha {
			out = append(out, IngestRecord{Source: Source{Name: name, SHA256: sha}, FirstSeq: s.Seq, FirstTT: s.TT})
		}
		out[len(out)-1].Batches++
	}
	return out
}

// IngestRecord is one bulk ingest recorded in the log.
type IngestRecord struct {
	Source
	FirstSeq uint64
	FirstTT  bt.Time
	Batches  int
}

// IngestCheck returns the *RepeatIngestError an ingest of src would get,
// or nil.
func (db *DB) IngestCheck(src Source) error { return db.repeated(src) }
