package peers

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/eventlog"
)

// NativeLoad measures the native write path on the same version tables the
// peers load: every batch of the store's event log (ingests, corrections,
// retractions) is written at its transaction time, durably (fsync, group
// commit), into a new store in dir. The copy must hold the same versions
// as the source (same counts, same digest), so its load covers the history
// the exported tables hold, not only the versions believed now. Rows/s is
// over node and edge versions, as for the peers, and the time covers the
// writes and the checkpoint written at close (not the checks); the store's
// files on disk give the bytes per edge version.
func NativeLoad(src *tgms.DB, t *Tables, dir string) (LoadStats, error) {
	return nativeLoadFrom(src, filepath.Join(src.Dir(), "events.wal"), t, dir)
}

func nativeLoadFrom(src *tgms.DB, logPath string, t *Tables, dir string) (LoadStats, error) {
	var tts []bt.Time
	var batches []bt.Batch
	err := eventlog.ReadFile(logPath, func(r *eventlog.Record, _ int64) error {
		tts = append(tts, r.TT)
		batches = append(batches, bt.Batch{Ops: r.Ops, Prov: r.Prov, Override: r.Override})
		return nil
	})
	if err != nil {
		return LoadStats{}, fmt.Errorf("native load: read the store's event log %s: %w", logPath, err)
	}
	db, err := tgms.Open(dir, &tgms.Options{})
	if err != nil {
		return LoadStats{}, err
	}
	start := time.Now()
	if n, err := db.WriteChangesAt(nil, true, tts, batches); err != nil {
		db.Close()
		return LoadStats{}, fmt.Errorf("native load: batch %d of %d from %s: %w", n+1, len(batches), logPath, err)
	}
	secs := time.Since(start).Seconds()
	st, want := db.Stats(), src.Stats()
	if st.NodeVersions != want.NodeVersions || st.EdgeVersions != want.EdgeVersions {
		db.Close()
		return LoadStats{}, fmt.Errorf("native load: the copy holds %d node and %d edge versions, the store %d and %d: the log does not rebuild the exported tables",
			st.NodeVersions, st.EdgeVersions, want.NodeVersions, want.EdgeVersions)
	}
	if got, want := db.Digest(), src.Digest(); got != want {
		db.Close()
		return LoadStats{}, fmt.Errorf("native load: the copy's digest %s differs from the store's %s", got, want)
	}
	// Closing writes the checkpoint, as DuckDB's CHECKPOINT is part of its
	// load: it counts.
	closing := time.Now()
	if err := db.Close(); err != nil {
		return LoadStats{}, err
	}
	secs += time.Since(closing).Seconds()
	size, err := dirSize(dir)
	if err != nil {
		return LoadStats{}, err
	}
	rows := t.NodeVersions + t.EdgeVersions
	return LoadStats{Seconds: secs, RowsPerSec: float64(rows) / secs, DiskBytes: size,
		BytesPerEdge: float64(size) / float64(max(1, t.EdgeVersions))}, nil
}

func dirSize(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err == nil {
			n += fi.Size()
		}
		return err
	})
	return n, err
}
