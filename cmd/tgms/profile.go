package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// startProfiles writes a CPU profile to $TGMS_CPUPROFILE and, at the end,
// a heap profile to $TGMS_MEMPROFILE, for measuring a whole command (ingest,
// synth) as it runs. The returned function stops and writes them; it is a
// no-op when neither variable is set.
func startProfiles() func() {
	cpu, mem := os.Getenv("TGMS_CPUPROFILE"), os.Getenv("TGMS_MEMPROFILE")
	var cf *os.File
	if cpu != "" {
		f, err := os.Create(cpu)
		if err != nil {
			fmt.Fprintln(os.Stderr, "tgms: TGMS_CPUPROFILE:", err)
		} else if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "tgms: TGMS_CPUPROFILE:", err)
			f.Close()
		} else {
			cf = f
		}
	}
	return func() {
		if cf != nil {
			pprof.StopCPUProfile()
			cf.Close()
		}
		if mem != "" {
			f, err := os.Create(mem)
			if err != nil {
				fmt.Fprintln(os.Stderr, "tgms: TGMS_MEMPROFILE:", err)
				return
			}
			runtime.GC()
			if err := pprof.WriteHeapProfile(f); err != nil {
				fmt.Fprintln(os.Stderr, "tgms: TGMS_MEMPROFILE:", err)
			}
			f.Close()
		}
	}
}
