// Package fault injects failures into the store's write path for the crash
// and disk-full campaigns. It does nothing unless armed: by the environment
// variable TGMS_FAULT_CRASH_AT (crash campaigns run the tgms binary as a
// child with it set) or by SetWriteFailure (disk-full campaigns, in
// process). Unarmed, each call costs one atomic load.
//
// Crash points are named places around every write, fsync and rename of
// the event log, its seal and the checkpoint. With TGMS_FAULT_CRASH_AT=N the
// process kills itself with SIGKILL at the N-th point it reaches (counting
// from 1); with TGMS_FAULT_COUNT=1 it prints "fault-points N" on standard
// error at Report, so a campaign can learn how many points a workload
// passes.
package fault

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
)

var (
	armed   atomic.Bool
	crashAt int64
	hits    atomic.Int64
	count   bool

	wmu       sync.Mutex
	writeAt   int64 // the write call that fails (1-based); 0 = none
	writeSeen int64
	short     bool
)

func init() {
	if v := os.Getenv("TGMS_FAULT_CRASH_AT"); v != "" {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 {
			crashAt = n
			armed.Store(true)
		}
	}
	if os.Getenv("TGMS_FAULT_COUNT") == "1" {
		count = true
		armed.Store(true)
	}
}

// Point marks a crash point. Armed with TGMS_FAULT_CRASH_AT=N, the N-th call
// kills the process at once, as a power cut or SIGKILL would.
func Point(name string) {
	if !armed.Load() {
		return
	}
	if h := hook.Load(); h != nil {
		(*h)(name)
	}
	n := hits.Add(1)
	if crashAt > 0 && n == crashAt {
		p, err := os.FindProcess(os.Getpid())
		if err == nil {
			p.Kill()
		}
		select {} // wait for the signal
	}
}

// Hits is the number of crash points passed so far.
func Hits() int64 { return hits.Load() }

// Report prints the number of crash points passed on standard error when
// TGMS_FAULT_COUNT=1.
func Report() {
	if count {
		fmt.Fprintf(os.Stderr, "fault-points %d\n", hits.Load())
	}
}

// SetWriteFailure arms a full disk: the n-th write call from now (1-based)
// and every one after it fail with ENOSPC; with shortWrite the n-th first
// writes half of its bytes. n == 0 disarms.
func SetWriteFailure(n int64, shortWrite bool) {
	wmu.Lock()
	defer wmu.Unlock()
	writeAt, writeSeen, short = n, 0, shortWrite
	if n > 0 {
		armed.Store(true)
	} else if crashAt == 0 && !count {
		armed.Store(false)
	}
}

var hook atomic.Pointer[func(string)]

// SetHook makes every Point call fn with its name first (in-process crash
// tests: fn may panic to stop the writer there); nil removes it.
func SetHook(fn func(name string)) {
	if fn == nil {
		hook.Store(nil)
		if crashAt == 0 && !count {
			wmu.Lock()
			if writeAt == 0 {
				armed.Store(false)
			}
			wmu.Unlock()
		}
		return
	}
	hook.Store(&fn)
	armed.Store(true)
}

// WriteCalls is the number of write calls seen since SetWriteFailure.
func WriteCalls() int64 {
	wmu.Lock()
	defer wmu.Unlock()
	return writeSeen
}

// fail decides the fate of a write of n bytes: how many bytes to write
// before failing, and whether to fail.
func fail(n int) (int, bool) {
	wmu.Lock()
	defer wmu.Unlock()
	if writeAt == 0 {
		writeSeen++
		return n, false
	}
	writeSeen++
	switch {
	case writeSeen < writeAt:
		return n, false
	case writeSeen == writeAt && short:
		return n / 2, true
	}
	return 0, true
}

// WriteAt is f.WriteAt with the armed disk-full failure applied.
func WriteAt(f interface {
	io.WriterAt
	Name() string
}, b []byte, off int64) (int, error) {
	if !armed.Load() {
		return f.WriteAt(b, off)
	}
	k, bad := fail(len(b))
	if !bad {
		return f.WriteAt(b, off)
	}
	n, err := f.WriteAt(b[:k], off)
	if err == nil {
		err = &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
	}
	return n, err
}

// Writer wraps w so that its writes see the armed disk-full failure.
func Writer(w io.Writer) io.Writer { return &writer{w} }

type writer struct{ w io.Writer }

func (w *writer) Write(b []byte) (int, error) {
	if !armed.Load() {
		return w.w.Write(b)
	}
	k, bad := fail(len(b))
	if !bad {
		return w.w.Write(b)
	}
	n, err := w.w.Write(b[:k])
	if err == nil {
		err = syscall.ENOSPC
	}
	return n, err
}
