package campaign

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/tgms-go/tgms"
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

// Open opens a store for writing, as a user would after the damage.
func Open(dir string) (string, []string, error) {
	var warns []string
	opt := StoreOptions(func(f string, a ...any) { warns = append(warns, fmt.Sprintf(f, a...)) })
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
}

// CorruptReport is what a corruption campaign found.
type CorruptReport struct {
	Trials   int              `json:"trials"`
	Verdicts Tally            `json:"verdicts"`
	ByFile   map[string]Tally `json:"by_file"`
	ByKind   map[string]Tally `json:"by_mutation"`
	Reader   Tally            `json:"read_only_verdicts"` // the same damage seen by a read-only open first
	Failures []string         `json:"failures,omitempty"`
	// Untyped counts refusals that do not match tgms.ErrStoreDamaged.
	Untyped int `json:"untyped_refusals"`
}

// Corrupt runs the corruption campaign: a store written by the workload
// and closed, and a second store (another seed, another store id) to swap
// files with; each trial copies the store, damages one of its files in one
// way, opens it read-only and then for writing, and classifies both.
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
	other, err := NewWorkload(c.Seed+1, c.Batches)
	if err != nil {
		return nil, err
	}
	base, alt := filepath.Join(c.Dir, "base"), filepath.Join(c.Dir, "other")
	if err := w.Run(base, StoreOptions(nil), func(int) {}); err != nil {
		return nil, err
	}
	if err := other.Run(alt, StoreOptions(nil), func(int) {}); err != nil {
		return nil, err
	}
	want := w.Digests[len(w.Batches)]
	var boundaries []int64
	eventlog.ReadFile(filepath.Join(base, tgms.LogFile), func(_ *eventlog.Record, end int64) error {
		boundaries = append(boundaries, end)
		return nil
	})
	files := []string{tgms.LogFile, tgms.LogFile, tgms.LogFile, tgms.CheckpointFile, tgms.CheckpointFile, tgms.SealFile, "LOCK"}
	rep := &CorruptReport{Trials: c.Trials, Verdicts: Tally{}, Reader: Tally{}, ByFile: map[string]Tally{}, ByKind: map[string]Tally{}}
	rng := rand.New(rand.NewPCG(c.Seed, 0xc0de))
	for i := range c.Trials {
		dir := filepath.Join(c.Dir, fmt.Sprintf("t%d", i))
		if err := copyStore(base, dir); err != nil {
			return nil, err
		}
		file := files[rng.IntN(len(files))]
		kind := Mutations[rng.IntN(len(Mutations))]
		desc, err := mutate(rng, filepath.Join(dir, file), filepath.Join(alt, file), kind, boundaries)
		if err != nil {
			return nil, err
		}
		// The reader comes first: it must not change anything the writer
		// then sees.
		v, rv := "", ""
		if c.ReadOnly != nil {
			rv = classify(c.ReadOnly, dir, want, rep)
		}
		v = classify(c.Open, dir, want, rep)
		if c.ReadOnly == nil {
			rv = v
		}
		rep.Reader.add(rv)
		rep.Verdicts.add(v)
		if rep.ByFile[file] == nil {
			rep.ByFile[file] = Tally{}
		}
		rep.ByFile[file].add(v)
		if rep.ByKind[kind] == nil {
			rep.ByKind[kind] = Tally{}
		}
		rep.ByKind[kind].add(v)
		if (v == Silent || v == LostData || rv == Silent || rv == LostData) && len(rep.Failures) < 10 {
			rep.Failures = append(rep.Failures, fmt.Sprintf("trial %d: %s %s (%s): writer %s, reader %s", i, file, kind, desc, v, rv))
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
