package tgms

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/eventlog"
)

// Severity grades a Finding of Check.
type Severity string

// Severities, from worst.
const (
	SevError   Severity = "error"   // data is damaged or the files do not belong together
	SevWarning Severity = "warning" // an open would repair or ignore something, with a warning
	SevInfo    Severity = "info"    // worth knowing, nothing wrong
	// SevData: the files are sound, but the data breaks a modelling rule
	// (an edge outside its endpoints' validity). Not damage: the store
	// opens and answers as written; correcting the data is the user's call.
	SevData Severity = "data"
)

// Finding is one result of Check.
type Finding struct {
	File     string   `json:"file"`
	Offset   int64    `json:"offset"` // byte offset in File; -1 when not about one place
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
}

func (f Finding) String() string {
	at := ""
	if f.Offset >= 0 {
		at = fmt.Sprintf(" @%d", f.Offset)
	}
	return fmt.Sprintf("%-7s %s%s: %s", f.Severity, f.File, at, f.Message)
}

// CheckResult is what Check found.
type CheckResult struct {
	Findings []Finding `json:"findings"`
	Batches  uint64    `json:"batches"`
	Digest   string    `json:"digest,omitempty"`
	// ReplayDigest is the digest of a replay of the whole log (full only).
	ReplayDigest string `json:"replay_digest,omitempty"`
}

// Clean reports whether the files are sound (only SevInfo and SevData
// findings).
func (r *CheckResult) Clean() bool {
	for _, f := range r.Findings {
		if f.Severity != SevInfo && f.Severity != SevData {
			return false
		}
	}
	return true
}

// DataFindings counts the SevData findings.
func (r *CheckResult) DataFindings() int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == SevData {
			n++
		}
	}
	return n
}

// Check verifies a store without changing it, under a shared lock like a
// read-only open (opt.Wait and opt.AllowSymlinks apply): the log's framing
// and checksums, its store id, whether the checkpoint and seal belong to it
// and agree with it, and whether a read-only open succeeds and with which
// warnings. With full it also replays the whole log into a fresh engine and
// compares that digest with the digest the store opens with (checkpoint
// plus the log after it), and warns about every believed edge that lies
// outside its endpoints' validity (engine.Reader.UncoveredEdges).
//
// A damaged store is reported as findings (an error finding for every
// damaged state, a missing log beside a checkpoint or seal included); the
// error return is for a directory that holds no store at all and for
// internal errors, a panic included.
func Check(dir string, full bool, opt *Options) (res *CheckResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, fmt.Errorf("check %s: internal error (a bug, please report it): %v", dir, p)
		}
	}()
	return check(dir, full, opt)
}

func check(dir string, full bool, opt *Options) (*CheckResult, error) {
	o := Options{}
	if opt != nil {
		o = *opt
	}
	res := &CheckResult{}
	add := func(file string, off int64, sev Severity, format string, args ...any) {
		res.Findings = append(res.Findings, Finding{File: file, Offset: off, Severity: sev, Message: fmt.Sprintf(format, args...)})
	}
	logPath := filepath.Join(dir, LogFile)
	if _, err := os.Lstat(logPath); err != nil {
		for _, w := range []string{CheckpointFile, SealFile} {
			if _, serr := os.Lstat(filepath.Join(dir, w)); serr == nil {
				add(logPath, -1, SevError, "the event log is missing, but %s is there: the store had acknowledged batches; restore the log from a backup", w)
				return res, nil
			}
		}
		return nil, fmt.Errorf("check %s: %w (not a TGMS store?)", dir, err)
	}
	lock, err := lockStore(dir, false, o.Wait, o.AllowSymlinks)
	if err != nil {
		return nil, err
	}
	defer lock.release()

	// The log on its own.
	var lastSeq uint64
	err = eventlog.ReadFileImages(logPath, func(r *eventlog.Record, _ int64) error { lastSeq = r.Seq; return nil })
	var ce *eventlog.CorruptionError
	var torn *eventlog.TornTailError
	switch {
	case errors.As(err, &ce) && afterAck(logPath, ce.Offset, o.AllowSymlinks):
		add(logPath, ce.Offset, SevWarning, "%s; this is after the last acknowledged record, so it was never acknowledged: a writable open keeps the bytes aside and drops them", ce.Reason)
	case errors.As(err, &ce):
		add(logPath, ce.Offset, SevError, "%s", ce.Reason)
	case errors.As(err, &torn):
		add(logPath, torn.Offset, SevWarning, "torn final record (%d bytes: %s); a writable open keeps it in %s.broken-%d and drops it, unless acknowledged batches were there", torn.Dropped, torn.Reason, LogFile, torn.Offset)
	case err != nil:
		add(logPath, -1, SevError, "%v", err)
	}
	res.Batches = lastSeq
	id, version, herr := eventlog.ReadHeader(logPath, o.AllowSymlinks)
	if herr == nil {
		add(logPath, 0, SevInfo, "store id %s, format version %d, %d batches read", id, version, lastSeq)
	}
	// The checkpoint and the seal on their own.
	ckptPath := filepath.Join(dir, CheckpointFile)
	if _, info, err := engine.ReadCheckpoint(ckptPath); err == nil {
		add(ckptPath, -1, SevInfo, "store id %s, covers batches 1..%d (log up to byte %d)", info.StoreID, info.Last.Seq, info.Last.End)
	} else if errors.Is(err, os.ErrNotExist) {
		add(ckptPath, -1, SevInfo, "no checkpoint: an open replays the whole log")
	} else {
		add(ckptPath, -1, SevWarning, "%v", err)
	}
	res.witnessFindings(logPath, id, version, lastSeq, herr == nil, o.AllowSymlinks)
	if m, _ := filepath.Glob(logPath + ".broken-*"); len(m) > 0 {
		for _, p := range m {
			if strings.HasSuffix(strings.SplitN(p[len(logPath):], ".", 3)[1], "Z") {
				add(p, -1, SevInfo, "the event log a repair (check --repair --use-checkpoint) replaced, kept for inspection")
				continue
			}
			add(p, -1, SevInfo, "bytes of a torn record an earlier open dropped, kept for inspection")
		}
	}
	// Together, as an open sees them.
	var warns []string
	o.ReadOnly = true
	o.Logf = func(format string, args ...any) { warns = append(warns, fmt.Sprintf(format, args...)) }
	db, err := Open(dir, &o)
	var de *DamageError
	switch {
	case errors.As(err, &de):
		if !res.has(de.File, de.Offset, SevError) {
			add(de.File, de.Offset, SevError, "%s", de.Reason)
		}
		return res, nil
	case err != nil:
		add(dir, -1, SevError, "the store does not open: %v", err)
		return res, nil
	}
	defer db.Close()
	for _, w := range warns {
		if torn != nil && strings.Contains(w, "torn final record") {
			continue // reported above
		}
		add(dir, -1, SevWarning, "an open warns: %s", w)
	}
	res.Digest = db.Digest()
	if !full {
		return res, nil
	}
	fresh := engine.New()
	err = db.log.Replay(db.log.Start(), func(r *eventlog.Record, end int64) error {
		if r.Image != nil {
			img, err := loadImage(r, fresh)
			fresh = img
			return err
		}
		eff, err := bt.Plan(fresh, r.TT, r.Seq, r.Ops)
		if err != nil {
			return fmt.Errorf("batch %d (ending at byte %d) does not apply: %w", r.Seq, end, err)
		}
		prov := r.Provenance()
		eff.Prov = &prov
		return fresh.Apply(eff)
	})
	if err != nil {
		add(logPath, -1, SevError, "replaying the whole log: %v", err)
		return res, nil
	}
	res.ReplayDigest = fresh.Digest()
	if res.ReplayDigest != res.Digest {
		add(ckptPath, -1, SevError, "the store opens with digest %s, but a replay of its whole log gives %s: the checkpoint does not hold what the log says; delete it to rebuild from the log", res.Digest, res.ReplayDigest)
	} else {
		add(dir, -1, SevInfo, "digest %s equals a replay of the whole log", res.Digest)
	}
	checkEndpoints(db, add)
	return res, nil
}

// checkEndpoints reports, as warnings, believed edges that lie outside
// their endpoints' validity (engine.Reader.UncoveredEdges): a few
// examples and the total.
func checkEndpoints(db *DB, add func(file string, off int64, sev Severity, format string, args ...any)) {
	const examples = 5
	var n int
	var list []engine.Uncovered
	db.Read(bt.OpenEnd, func(r engine.Reader) error {
		n, list = r.UncoveredEdges(examples)
		return nil
	})
	for _, u := range list {
		add(db.Dir(), -1, SevData, "edge %s→%s %s disc %q (valid %s) lies outside node %s's validity: no believed version of %s covers %s; correct the node over that interval",
			u.Edge.Src, u.Edge.Dst, u.Edge.RelType, u.Edge.Disc, u.Valid, u.Endpoint, u.Endpoint, spanBoth(u.Gap))
	}
	if n > len(list) {
		add(db.Dir(), -1, SevData, "%d edge endpoints in all lie outside their node's validity (%d shown)", n, len(list))
	} else if n == 0 {
		add(db.Dir(), -1, SevInfo, "every believed edge lies inside its endpoints' validity")
	}
}

func (r *CheckResult) has(file string, off int64, sev Severity) bool {
	for _, f := range r.Findings {
		if f.File == file && f.Offset == off && f.Severity == sev {
			return true
		}
	}
	return false
}

// spanBoth shows an interval with both forms of its times.
func spanBoth(iv bt.Interval) string {
	return "[" + bt.FormatBoth(iv.Start) + ", " + bt.FormatBoth(iv.End) + ")"
}

// witnessFindings reports what the seal, the ack witness, says: which
// batches it covers, batches beyond it, and a missing or damaged witness.
func (r *CheckResult) witnessFindings(logPath string, id eventlog.StoreID, version uint32, lastSeq uint64, haveLog, links bool) {
	sealPath := logPath + eventlog.SealSuffix
	add := func(sev Severity, format string, args ...any) {
		r.Findings = append(r.Findings, Finding{File: sealPath, Offset: -1, Severity: sev, Message: fmt.Sprintf(format, args...)})
	}
	witnessed := haveLog && version >= eventlog.WitnessVersion
	s, err := eventlog.ReadSeal(logPath, links)
	switch {
	case errors.Is(err, eventlog.ErrNoSeal) && witnessed:
		add(SevError, "missing: the log (format %d) keeps an ack witness, and without it no one can tell which of its %d batches were acknowledged", version, lastSeq)
		return
	case errors.Is(err, eventlog.ErrNoSeal) && lastSeq > 0:
		add(SevWarning, "no seal: all %d batches are guarded by the log alone (the store was written by an earlier build and never closed cleanly); a writable open adds an ack witness", lastSeq)
		return
	case errors.Is(err, eventlog.ErrNoSeal):
		return
	case err != nil && witnessed:
		add(SevError, "the ack witness is damaged: %v", err)
		return
	case err != nil:
		add(SevWarning, "%v", err)
		return
	}
	add(SevInfo, "store id %s, format %d, acknowledged up to batch %d (log byte %d)", s.StoreID, s.Version, s.Last.Seq, s.Last.End)
	if s.Damaged {
		add(SevWarning, "one of the seal's two slots is damaged; the other says batch %d, and nothing after it may be taken for a torn write", s.Last.Seq)
	}
	if haveLog && s.StoreID != id && s.Parent != id {
		add(SevError, "the seal names store %s, the log %s", s.StoreID, id)
	}
	if lastSeq > s.Last.Seq {
		if witnessed {
			add(SevInfo, "batches %d..%d follow the last acknowledgement: written, but the writer stopped before acknowledging them; an open keeps them", s.Last.Seq+1, lastSeq)
		} else {
			add(SevWarning, "batches %d..%d were acknowledged after the last seal and are guarded by the log alone (the store was written by an earlier build); a writable open makes the seal an ack witness", s.Last.Seq+1, lastSeq)
		}
	}
}

// afterAck reports whether off is after the last record the ack witness
// of a version 3 log says was acknowledged.
func afterAck(logPath string, off int64, links bool) bool {
	_, v, err := eventlog.ReadHeader(logPath, links)
	if err != nil || v < eventlog.WitnessVersion {
		return false
	}
	s, err := eventlog.ReadSeal(logPath, links)
	return err == nil && !s.Damaged && off >= s.Last.End && s.Last.End > 0
}
