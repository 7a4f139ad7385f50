package campaign

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/eventlog"
)

// Verdicts of corruption trials.
const (
	Detected = "DETECTED" // the open was refused
	Repaired = "REPAIRED" // opened with a warning; digest unchanged
	Benign   = "BENIGN"   // opened without a warning; digest unchanged
	LostData = "LOST"     // opened with a warning; digest changed
	Silent   = "SILENT"   // opened without a warning; digest changed
)

// Verdicts lists the corruption verdicts in report order.
var Verdicts = []string{Detected, Repaired, Benign, LostData, Silent}

// Mutations of one file.
var Mutations = []string{"bitflip", "byte", "truncate", "truncate-boundary", "zero-span", "append-garbage", "append-zeros", "delete", "swap"}

// Opener opens a store after a mutation and returns its digest and the
// warnings it printed. Open (the store's own open) is the default; a test
// passes a weaker one to show that the campaign catches silent damage.
type Opener func(dir string) (digest string, warnings []string, err error)

// Open opens a store for writing, as a user would after the damage. The
// notice that a trial's directory is a copy (every trial works on one, so
// a writable open gives it its own store id) is not counted as a warning.
func Open(dir string) (string, []string, error) {
	var warns []string
	opt := StoreOptions(func(f string, a ...any) {
		if m := fmt.Sprintf(f, a...); !strings.Contains(m, "this directory is a copy of store") {
			warns = append(warns, m)
		}
	})
	db, err := tgms.Open(dir, &opt)
	if err != nil {
		return "", warns, err
	}
	d := db.Digest()
	return d, warns, db.Close()
}

// OpenReadOnly opens a store read-only.
func OpenReadOnly(dir string) (string, []string, error) {
	var warns []string
	opt := StoreOptions(func(f string, a ...any) { warns = append(warns, fmt.Sprintf(f, a...)) })
	opt.ReadOnly = true
	db, err := tgms.Open(dir, &opt)
	if err != nil {
		return "", warns, err
	}
	d := db.Digest()
	return d, warns, db.Close()
}

// CorruptConfig sets up a corruption campaign.
type CorruptConfig struct {
	Trials  int
	Seed    uint64
	Batches int // workload size; 0 means 24
	Dir     string
	// Open opens a damaged store for writing, ReadOnly for reading; nil
	// means the store's own (Open and OpenReadOnly). With only Open given,
	// there is no read-only open.
	Open     Opener
	ReadOnly Opener
	Progress func(done int)
	// Binary is the tgms binary. With it, the post-seal states are made
	// by killing real processes after their last acknowledgement (see
	// killedState); without it, by copying the files of a store while its
	// writer still has it open after its last acknowledgement.
	Binary string
}

// CorruptReport is what a corruption campaign found.
type CorruptReport struct {
	Trials   int              `json:"trials"`
	Verdicts Tally            `json:"verdicts"`
	ByFile   map[string]Tally `json:"by_file"`
	ByKind   map[string]Tally `json:"by_mutation"`
	ByState  map[string]Tally `json:"by_state"`
	Reader   Tally            `json:"read_only_verdicts"` // the same damage seen by a read-only open first
	// TwoFiles counts the trials that damaged two files.
	TwoFiles int      `json:"two_file_trials"`
	Failures []string `json:"failures,omitempty"`
	// Untyped counts refusals that do not match tgms.ErrStoreDamaged.
	Untyped int `json:"untyped_refusals"`
}

// States a corruption trial damages: a store closed cleanly; a writer
// killed right after acknowledging batches written since its last close
// (with checkpoints as usual); and a writing server killed mid-session
// (no checkpoint in the session, so every batch of it is past the
// checkpoint). The last two are the files as the killed process left
// them (CorruptConfig.Binary), or copies taken while the store was still
// open after its last ack.
var States = []string{"sealed", "killed-after-ack", "server-session"}

// Sources of swapped files: another store (another id), an older copy of
// the same store (fewer batches), and a copy of the directory (cp -r) that
// was then written to.
var Sources = []string{"other-store", "older-copy", "fork"}

// corpus is the set of stores a campaign damages and swaps from.
type corpus struct {
	states     map[string]string // state -> store directory
	wants      map[string]string // state -> the digest it must open with
	sources    map[string]string // source -> store directory
	boundaries map[string][]int64
}

// Corrupt runs the corruption campaign: stores of the workload in each
// state (see States) and stores to swap files from (see Sources); each
// trial copies a store, damages one of its files in one way (a third of
// the trials a second file too), opens it read-only and then for writing,
// and classifies both. Every state holds the whole workload, every batch
// acknowledged.
func Corrupt(ctx context.Context, c CorruptConfig) (*CorruptReport, error) {
	if c.Batches == 0 {
		c.Batches = 24
	}
	if c.Open == nil {
		c.Open = Open
		if c.ReadOnly == nil {
			c.ReadOnly = OpenReadOnly
		}
	}
	w, err := NewWorkload(c.Seed, c.Batches)
	if err != nil {
		return nil, err
	}
	cp, err := buildCorpus(ctx, w, c.Seed, c.Dir, c.Binary)
	if err != nil {
		return nil, err
	}
	files := []string{tgms.LogFile, tgms.LogFile, tgms.LogFile, tgms.CheckpointFile, tgms.CheckpointFile, tgms.SealFile, tgms.SealFile}
	rep := &CorruptReport{Trials: c.Trials, Verdicts: Tally{}, Reader: Tally{}, ByFile: map[string]Tally{}, ByKind: map[string]Tally{}, ByState: map[string]Tally{}}
	rng := rand.New(rand.NewPCG(c.Seed, 0xc0de))
	for i := range c.Trials {
		state := States[i%len(States)]
		dir := filepath.Join(c.Dir, fmt.Sprintf("t%d", i))
		if err := copyStore(cp.states[state], dir); err != nil {
			return nil, err
		}
		file := files[rng.IntN(len(files))]
		kind := Mutations[rng.IntN(len(Mutations))]
		src := Sources[rng.IntN(len(Sources))]
		desc, err := mutate(rng, filepath.Join(dir, file), filepath.Join(cp.sources[src], file), kind, cp.boundaries[state])
		if err != nil {
			return nil, err
		}
		if kind == "swap" {
			desc += " (" + src + ")"
		}
		label := file
		if rng.IntN(3) == 0 {
			file2 := files[rng.IntN(len(files))]
			for file2 == file {
				file2 = files[rng.IntN(len(files))]
			}
			kind2 := Mutations[rng.IntN(len(Mutations))]
			src2 := Sources[rng.IntN(len(Sources))]
			d2, err := mutate(rng, filepath.Join(dir, file2), filepath.Join(cp.sources[src2], file2), kind2, cp.boundaries[state])
			if err != nil {
				return nil, err
			}
			desc += "; " + file2 + " " + kind2 + " (" + d2 + ")"
			label = "two files"
			rep.TwoFiles++
		}
		// The reader comes first: it must not change anything the writer
		// then sees.
		v, rv := "", ""
		if c.ReadOnly != nil {
			rv = classify(c.ReadOnly, dir, cp.wants[state], rep)
		}
		v = classify(c.Open, dir, cp.wants[state], rep)
		if c.ReadOnly == nil {
			rv = v
		}
		rep.Reader.add(rv)
		rep.Verdicts.add(v)
		for _, by := range []struct {
			m map[string]Tally
			k string
		}{{rep.ByFile, label}, {rep.ByKind, kind}, {rep.ByState, state}} {
			if by.m[by.k] == nil {
				by.m[by.k] = Tally{}
			}
			by.m[by.k].add(worst(v, rv))
		}
		if (v == Silent || v == LostData || rv == Silent || rv == LostData) && len(rep.Failures) < 10 {
			rep.Failures = append(rep.Failures, fmt.Sprintf("trial %d: %s store, %s %s (%s): writer %s, reader %s", i, state, file, kind, desc, v, rv))
		}
		os.RemoveAll(dir)
		if c.Progress != nil {
			c.Progress(i + 1)
		}
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
	}
	return rep, nil
}

// worst is the worse of two verdicts (the writer's and the reader's).
func worst(a, b string) string {
	rank := map[string]int{Benign: 0, Repaired: 1, Detected: 2, LostData: 3, Silent: 4}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// buildCorpus writes the stores of every state and source under dir.
func buildCorpus(ctx context.Context, w *Workload, seed uint64, dir, binary string) (*corpus, error) {
	cp := &corpus{states: map[string]string{}, wants: map[string]string{}, sources: map[string]string{}, boundaries: map[string][]int64{}}
	sealed := filepath.Join(dir, "sealed")
	if err := w.Run(sealed, StoreOptions(nil), func(int) {}); err != nil {
		return nil, err
	}
	cp.states["sealed"] = sealed
	cp.wants["sealed"] = w.Digests[len(w.Batches)]
	half := 2 * len(w.Batches) / 3
	for _, st := range []string{"killed-after-ack", "server-session"} {
		d := filepath.Join(dir, st)
		opt := StoreOptions(nil)
		if err := w.writeUpTo(d, opt, half, ""); err != nil {
			return nil, err
		}
		if err := copyStore(d, d+".older"); err != nil {
			return nil, err
		}
		if binary != "" {
			want, err := killedState(ctx, binary, st, w, seed, d)
			if err != nil {
				return nil, fmt.Errorf("corruption campaign: %s state: %w", st, err)
			}
			cp.states[st], cp.wants[st] = d, want
			continue
		}
		cp.wants[st] = w.Digests[len(w.Batches)]
		if st == "server-session" {
			opt.CheckpointBytes = -1
		}
		if err := w.writeUpTo(d, opt, len(w.Batches), d+".killed"); err != nil {
			return nil, err
		}
		cp.states[st] = d + ".killed"
	}
	other, err := NewWorkload(seed+1, len(w.Batches))
	if err != nil {
		return nil, err
	}
	cp.sources["other-store"] = filepath.Join(dir, "other")
	if err := other.Run(cp.sources["other-store"], StoreOptions(nil), func(int) {}); err != nil {
		return nil, err
	}
	// The killed-after-ack store as it was at two thirds: an older copy
	// of the same store (same id, fewer batches).
	cp.sources["older-copy"] = filepath.Join(dir, "killed-after-ack.older")
	fork := filepath.Join(dir, "fork")
	if err := copyStore(sealed, fork); err != nil {
		return nil, err
	}
	db, err := tgms.Open(fork, ptr(StoreOptions(nil)))
	if err != nil {
		return nil, err
	}
	for k := range 3 {
		if _, err := db.Write(bt.AssertNode(fmt.Sprintf("fork%d", k), "Fork", "", bt.Always)); err != nil {
			db.Close()
			return nil, err
		}
	}
	if err := db.Close(); err != nil {
		return nil, err
	}
	cp.sources["fork"] = fork
	for st, d := range cp.states {
		eventlog.ReadFile(filepath.Join(d, tgms.LogFile), func(_ *eventlog.Record, end int64) error {
			cp.boundaries[st] = append(cp.boundaries[st], end)
			return nil
		})
	}
	return cp, nil
}

// classify opens dir and judges the result.
func classify(open Opener, dir, want string, rep *CorruptReport) string {
	d, warns, err := open(dir)
	switch {
	case err != nil:
		if !errors.Is(err, tgms.ErrStoreDamaged) {
			rep.Untyped++
			if len(rep.Failures) < 10 {
				rep.Failures = append(rep.Failures, "untyped refusal: "+err.Error())
			}
		}
		return Detected
	case d == want && len(warns) > 0:
		return Repaired
	case d == want:
		return Benign
	case len(warns) > 0:
		return LostData
	}
	return Silent
}

func copyStore(from, to string) error {
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	ents, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if e.Name() == "LOCK" || e.Name() == "LOCK.queue" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// mutate damages path in one way and describes what it did.
func mutate(rng *rand.Rand, path, other, kind string, boundaries []int64) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	n := int64(len(data))
	at := func() int64 { return rng.Int64N(max(n, 1)) }
	switch kind {
	case "bitflip":
		if n == 0 {
			return "empty file, unchanged", nil
		}
		p, bit := at(), rng.IntN(8)
		data[p] ^= 1 << bit
		return fmt.Sprintf("bit %d of byte %d", bit, p), os.WriteFile(path, data, 0o644)
	case "byte":
		if n == 0 {
			return "empty file, unchanged", nil
		}
		p := at()
		data[p] = byte(rng.IntN(256))
		return fmt.Sprintf("byte %d set", p), os.WriteFile(path, data, 0o644)
	case "truncate":
		l := at()
		return fmt.Sprintf("cut to %d of %d bytes", l, n), os.WriteFile(path, data[:l], 0o644)
	case "truncate-boundary":
		if filepath.Base(path) != tgms.LogFile || len(boundaries) < 2 {
			l := at()
			return fmt.Sprintf("cut to %d of %d bytes", l, n), os.WriteFile(path, data[:l], 0o644)
		}
		l := boundaries[rng.IntN(len(boundaries)-1)]
		return fmt.Sprintf("cut at the record boundary %d of %d", l, n), os.WriteFile(path, data[:l], 0o644)
	case "zero-span":
		if n == 0 {
			return "empty file, unchanged", nil
		}
		p := at()
		l := min(int64(1+rng.IntN(256)), n-p)
		clear(data[p : p+l])
		return fmt.Sprintf("%d bytes zeroed at %d", l, p), os.WriteFile(path, data, 0o644)
	case "append-garbage", "append-zeros":
		g := make([]byte, 1+rng.IntN(256))
		if kind == "append-garbage" {
			for i := range g {
				g[i] = byte(rng.IntN(256))
			}
		}
		return fmt.Sprintf("%d bytes appended", len(g)), os.WriteFile(path, append(data, g...), 0o644)
	case "delete":
		err := os.Remove(path)
		if errors.Is(err, os.ErrNotExist) {
			err = nil
		}
		return "deleted", err
	case "swap":
		b, err := os.ReadFile(other)
		if err != nil {
			return "", err
		}
		return "replaced by the other store's", os.WriteFile(path, b, 0o644)
	}
	return "", fmt.Errorf("unknown mutation %q", kind)
}
