package campaign

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"

	"github.com/tgms-go/tgms/internal/fault"
	"github.com/tgms-go/tgms/internal/vfs"
)

// FSCrashConfig sets up a crash campaign against a file system that
// forgets: the workload runs in process over a vfs.CrashFS, stops at a
// crash point, and the store is judged from what that file system could
// have left on disk: only what was synced (drop), or also a random subset
// of the unsynced writes, reordered in 512-byte pieces (reorder).
type FSCrashConfig struct {
	Seeds   []uint64 // one workload per seed; nil means {1}
	Batches int      // workload size; 0 means 24
	Reorder bool
	// Draws is how many random images reorder mode judges per crash
	// point (0 means 1); drop mode has one image per point.
	Draws int
	Dir   string
	// SkipSync and SkipDirSync remove fsyncs (see vfs.CrashFS): the
	// campaign must then find damage.
	SkipSync    func(path string) bool
	SkipDirSync bool
}

// FSCrashReport is what an FS crash campaign found. Trials are
// deterministic per (workload, crash point) pair in drop mode, so Pairs
// counts distinct pairs, not repetitions.
type FSCrashReport struct {
	Mode     string   `json:"mode"`
	Pairs    int      `json:"distinct_workload_crash_point_pairs"`
	Trials   int      `json:"trials"`
	Outcomes Tally    `json:"outcomes"`
	ByPoint  Tally    `json:"non_ok_by_point,omitempty"`
	Failures []string `json:"failures,omitempty"`
}

type crashSignal struct{}

// FSCrash runs the campaign: every crash point of every workload.
func FSCrash(ctx context.Context, c FSCrashConfig) (*FSCrashReport, error) {
	if c.Batches == 0 {
		c.Batches = 24
	}
	if c.Seeds == nil {
		c.Seeds = []uint64{1}
	}
	if c.Draws <= 0 || !c.Reorder {
		c.Draws = 1
	}
	rep := &FSCrashReport{Mode: "drop", Outcomes: Tally{}, ByPoint: Tally{}}
	if c.Reorder {
		rep.Mode = "reorder"
	}
	for _, seed := range c.Seeds {
		w, err := NewWorkload(seed, c.Batches)
		if err != nil {
			return nil, err
		}
		// Count the crash points of an uninterrupted run.
		var points int
		if _, _, err := c.run(w, filepath.Join(c.Dir, fmt.Sprintf("w%d-count", seed)), 0, func(string) { points++ }); err != nil {
			return nil, fmt.Errorf("fs crash campaign: uninterrupted run: %w", err)
		}
		for k := 1; k <= points; k++ {
			rep.Pairs++
			work := filepath.Join(c.Dir, fmt.Sprintf("w%d-p%d", seed, k))
			fs, acked, err := c.run(w, work, k, nil)
			if err != nil {
				return nil, fmt.Errorf("fs crash campaign: workload %d, point %d: %w", seed, k, err)
			}
			rng := rand.New(rand.NewPCG(seed, uint64(k)))
			for d := range c.Draws {
				img := fmt.Sprintf("%s-img%d", work, d)
				var r *rand.Rand
				if c.Reorder {
					r = rng
				}
				if err := fs.Image(work, img, r); err != nil {
					return nil, err
				}
				out, detail := w.recovered(img, acked)
				rep.Trials++
				rep.Outcomes.add(string(out))
				if out != OK {
					rep.ByPoint.add(fs.lastPoint)
					if len(rep.Failures) < 10 {
						rep.Failures = append(rep.Failures, fmt.Sprintf("workload %d, crash point %d (%s), %d acked: %s: %s", seed, k, fs.lastPoint, acked, out, detail))
					}
				}
				os.RemoveAll(img)
			}
			os.RemoveAll(work)
			if k%64 == 0 {
				runtime.GC() // closes what the abandoned writers left open
			}
			if ctx.Err() != nil {
				return rep, ctx.Err()
			}
		}
	}
	return rep, nil
}

type crashRun struct {
	*vfs.CrashFS
	lastPoint string
}

// run writes the workload into dir over a new CrashFS, stopping at crash
// point k (0: never; count, if not nil, sees every point), and returns
// the FS and how many batches were acknowledged.
func (c FSCrashConfig) run(w *Workload, dir string, k int, count func(string)) (fs *crashRun, acked int, err error) {
	fs = &crashRun{CrashFS: vfs.NewCrashFS()}
	fs.SkipSync, fs.SkipDirSync = c.SkipSync, c.SkipDirSync
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, 0, err
	}
	restore := vfs.Set(fs)
	defer restore()
	n := 0
	fault.SetHook(func(name string) {
		if count != nil {
			count(name)
		}
		n++
		if n == k {
			fs.lastPoint = name
			panic(crashSignal{})
		}
	})
	defer fault.SetHook(nil)
	defer func() {
		if p := recover(); p != nil {
			if _, ok := p.(crashSignal); !ok {
				panic(p)
			}
			fs.CloseAll()
			err = nil
		}
	}()
	err = w.Run(dir, StoreOptions(nil), func(b int) { acked = b })
	return fs, acked, err
}
