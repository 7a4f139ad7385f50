package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms"
)

// footprint is what `tgms footprint` reports: what a store costs once
// open, in memory and on disk, per stored version (node and edge).
type footprint struct {
	Store          string  `json:"store"`
	Versions       int     `json:"versions"`
	EdgeVersions   int     `json:"edge_versions"`
	OpenSeconds    float64 `json:"open_seconds"`
	HeapBytes      int64   `json:"heap_bytes"`       // live heap after a GC, the store open
	RSSBytes       int64   `json:"rss_bytes"`        // resident set after returning free memory to the OS
	PeakRSSBytes   int64   `json:"peak_rss_bytes"`   // the process's peak resident set (open included)
	EngineBytes    int64   `json:"engine_bytes"`     // the engine's own count of its structures
	LogBytes       int64   `json:"log_bytes"`        // events.wal
	CkptBytes      int64   `json:"checkpoint_bytes"` // checkpoint.tgc
	HeapPerVersion float64 `json:"heap_bytes_per_version"`
	RSSPerVersion  float64 `json:"rss_bytes_per_version"`
	DiskPerVersion float64 `json:"disk_bytes_per_version"` // log and checkpoint together
	Parts          []struct {
		Name  string `json:"name"`
		Bytes int64  `json:"bytes"`
	} `json:"parts"`
}

func newFootprint() *cobra.Command {
	var store string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "footprint --store DIR [--json]",
		Short: "Open a store read-only and report its open time, memory and disk bytes per version",
		Long: `Open a store read-only and report what it costs: the open's wall time
(from the checkpoint, replaying any log after it), the live heap after a
garbage collection, the resident set after free memory is returned to the
OS, the peak resident set, the engine's own breakdown by structure, and
the bytes on disk, each also per stored version (node and edge).`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			heap0 := int64(ms.HeapAlloc)
			start := time.Now()
			db, err := openReadOnly(store)
			if err != nil {
				return err
			}
			defer closeDB(db, cmd.ErrOrStderr())
			fp := footprint{Store: db.Dir(), OpenSeconds: time.Since(start).Seconds()}
			runtime.GC()
			runtime.ReadMemStats(&ms)
			fp.HeapBytes = int64(ms.HeapAlloc) - heap0
			debug.FreeOSMemory()
			fp.RSSBytes, fp.PeakRSSBytes = procStatus("VmRSS:"), procStatus("VmHWM:")
			st := db.Stats()
			fp.Versions, fp.EdgeVersions = st.NodeVersions+st.EdgeVersions, st.EdgeVersions
			for _, p := range db.Memory() {
				fp.EngineBytes += p.Bytes
				fp.Parts = append(fp.Parts, struct {
					Name  string `json:"name"`
					Bytes int64  `json:"bytes"`
				}{p.Name, p.Bytes})
			}
			if fi, err := os.Stat(filepath.Join(db.Dir(), tgms.LogFile)); err == nil {
				fp.LogBytes = fi.Size()
			}
			if fi, err := os.Stat(filepath.Join(db.Dir(), tgms.CheckpointFile)); err == nil {
				fp.CkptBytes = fi.Size()
			}
			if v := float64(fp.Versions); v > 0 {
				fp.HeapPerVersion, fp.RSSPerVersion = float64(fp.HeapBytes)/v, float64(fp.RSSBytes)/v
				fp.DiskPerVersion = float64(fp.LogBytes+fp.CkptBytes) / v
			}
			if asJSON {
				return printJSON(cmd.OutOrStdout(), fp)
			}
			w := cmd.OutOrStdout()
			per := func(b int64) string {
				if fp.Versions == 0 {
					return ""
				}
				return fmt.Sprintf(" (%.1f B/version)", float64(b)/float64(fp.Versions))
			}
			fmt.Fprintf(w, "store          %s\n", fp.Store)
			fmt.Fprintf(w, "versions       %d (%d edge)\n", fp.Versions, fp.EdgeVersions)
			fmt.Fprintf(w, "open           %.3f s\n", fp.OpenSeconds)
			fmt.Fprintf(w, "heap           %d B%s\n", fp.HeapBytes, per(fp.HeapBytes))
			fmt.Fprintf(w, "resident       %d B%s, peak %d B\n", fp.RSSBytes, per(fp.RSSBytes), fp.PeakRSSBytes)
			fmt.Fprintf(w, "engine         %d B%s\n", fp.EngineBytes, per(fp.EngineBytes))
			for _, p := range fp.Parts {
				fmt.Fprintf(w, "  %-12s %d B%s\n", p.Name, p.Bytes, per(p.Bytes))
			}
			fmt.Fprintf(w, "on disk        log %d B, checkpoint %d B%s\n", fp.LogBytes, fp.CkptBytes, per(fp.LogBytes+fp.CkptBytes))
			return nil
		},
	}
	cmd.Flags().StringVar(&store, "store", "", "store directory")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// procStatus is a byte count from /proc/self/status ("VmRSS:", "VmHWM:"),
// or 0 where that file or line does not exist.
func procStatus(key string) int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, key); ok {
			f := strings.Fields(rest) // "123456 kB"
			if n, err := strconv.ParseInt(f[0], 10, 64); err == nil && len(f) == 2 && f[1] == "kB" {
				return n << 10
			}
		}
	}
	return 0
}
