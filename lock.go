package tgms

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tgms-go/tgms/eventlog"
)

// storeLock is the LOCK file of a store, held with flock: exclusively by
// the one writer, shared by any number of readers. A writer also writes
// its pid, command line and start time into the file, for the error a
// later open gets.
//
// Writers are preferred: a second file, LOCK.queue, is the turnstile. A
// writer holds it exclusively while it waits for LOCK (so only one writer
// queues at a time, in the order flock grants it), and a reader passes it
// (takes it shared and lets go at once) before it takes LOCK. So once a
// writer waits, no new reader gets in; the readers already in finish, and
// the writer gets LOCK before any reader that came after it.
type storeLock struct {
	f     *os.File
	write bool
}

// queueFile is the turnstile that gives waiting writers preference.
const queueFile = lockFile + ".queue"

// lockStore takes the store's lock, exclusive or shared, waiting up to
// wait for a holder to let go (a waiting writer holds new readers back).
func lockStore(dir string, write bool, wait time.Duration, allowSymlink bool) (*storeLock, error) {
	deadline := time.Now().Add(wait)
	q, err := openLockFile(filepath.Join(dir, queueFile), write, allowSymlink)
	if err != nil {
		return nil, fmt.Errorf("open store %s: lock: %w", dir, err)
	}
	if q != nil {
		how := syscall.LOCK_SH
		if write {
			how = syscall.LOCK_EX
		}
		if err := flockUntil(q, how, deadline); errors.Is(err, syscall.EWOULDBLOCK) {
			defer q.Close()
			return nil, &InUseError{Dir: dir, Write: write, Holders: append(lockHolders(q, filepath.Join(dir, queueFile)), "a writer waiting for its turn")}
		} else if err != nil {
			q.Close()
			return nil, fmt.Errorf("open store %s: lock %s: %w", dir, queueFile, err)
		}
		if !write {
			q.Close() // a reader only passes the turnstile
		} else {
			defer q.Close() // a writer holds it until it has LOCK
		}
	}
	return lockMain(dir, write, deadline, allowSymlink)
}

// openLockFile opens (creating) a lock file; a reader that may not create
// it opens it read-only, and without it at all (nil) goes without.
func openLockFile(path string, write, allowSymlink bool) (*os.File, error) {
	flags := os.O_CREATE | os.O_RDWR
	if !write {
		flags = os.O_CREATE | os.O_RDONLY
	}
	if !allowSymlink {
		flags |= eventlog.NoFollow
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if err != nil && !write && errors.Is(err, os.ErrPermission) {
		f, err = os.OpenFile(path, os.O_RDONLY|eventlog.NoFollow, 0)
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
	}
	return f, err
}

// flockUntil takes a flock, polling until deadline; EWOULDBLOCK when the
// deadline passed.
func flockUntil(f *os.File, how int, deadline time.Time) error {
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) || !time.Now().Before(deadline) {
			return err
		}
		time.Sleep(min(10*time.Millisecond, time.Until(deadline)))
	}
}

func lockMain(dir string, write bool, deadline time.Time, allowSymlink bool) (*storeLock, error) {
	path := filepath.Join(dir, lockFile)
	flags := os.O_CREATE | os.O_RDWR
	if !write {
		flags = os.O_CREATE | os.O_RDONLY
	}
	if !allowSymlink {
		flags |= eventlog.NoFollow
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if err != nil && !write && errors.Is(err, os.ErrPermission) {
		f, err = os.OpenFile(path, os.O_RDONLY|eventlog.NoFollow, 0)
	}
	if err != nil {
		return nil, fmt.Errorf("open store %s: lock: %w", dir, err)
	}
	how := syscall.LOCK_SH
	if write {
		how = syscall.LOCK_EX
	}
	err = flockUntil(f, how, deadline)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		holders := lockHolders(f, path)
		f.Close()
		return nil, &InUseError{Dir: dir, Write: write, Holders: holders}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open store %s: lock %s: %w", dir, path, err)
	}
	if write {
		// Best effort: the note only serves error messages.
		note := fmt.Sprintf("pid %d (%s) writing since %s\n", os.Getpid(), commandLine(os.Getpid()), time.Now().UTC().Format(time.RFC3339))
		if f.Truncate(0) == nil {
			f.WriteAt([]byte(note), 0)
		}
	}
	return &storeLock{f: f, write: write}, nil
}

func (l *storeLock) release() {
	if l != nil && l.f != nil {
		if l.write {
			l.f.Truncate(0) // the note is only true while the lock is held
		}
		l.f.Close()
		l.f = nil
	}
}

// lockHolders describes the processes that hold the lock on f: from
// /proc/locks where the system has it, else the writer's note in the file.
func lockHolders(f *os.File, path string) []string {
	var out []string
	if pids, ok := flockPIDs(f); ok {
		note := readNote(path)
		for _, p := range pids {
			line := fmt.Sprintf("pid %d (%s, %s lock)", p.pid, commandLine(p.pid), p.mode)
			if p.pid == os.Getpid() {
				line = fmt.Sprintf("this process (pid %d, %s lock)", p.pid, p.mode)
			}
			if p.mode == "exclusive" && strings.HasPrefix(note, fmt.Sprintf("pid %d ", p.pid)) {
				line = note
			}
			out = append(out, line)
		}
		return out
	}
	if note := readNote(path); note != "" {
		out = append(out, note)
	}
	return out
}

func readNote(path string) string {
	b, err := os.ReadFile(path)
	if err != nil || len(b) > 4096 {
		return ""
	}
	return strings.TrimSpace(string(b))
}

type lockPID struct {
	pid  int
	mode string
}

// flockPIDs lists the pids holding flocks on f's inode, from /proc/locks;
// ok is false where that is not available.
func flockPIDs(f *os.File) (out []lockPID, ok bool) {
	st, err := f.Stat()
	if err != nil {
		return nil, false
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return nil, false
	}
	pl, err := os.Open("/proc/locks")
	if err != nil {
		return nil, false
	}
	defer pl.Close()
	suffix := ":" + strconv.FormatUint(uint64(sys.Ino), 10)
	sc := bufio.NewScanner(pl)
	for sc.Scan() {
		// 1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF
		fs := strings.Fields(sc.Text())
		if len(fs) < 6 || fs[1] != "FLOCK" || !strings.HasSuffix(fs[5], suffix) {
			continue
		}
		pid, err := strconv.Atoi(fs[4])
		if err != nil {
			continue
		}
		mode := "shared"
		if fs[3] == "WRITE" {
			mode = "exclusive"
		}
		out = append(out, lockPID{pid, mode})
	}
	return out, len(out) > 0
}

// commandLine is a process's command line, shortened, or "?".
func commandLine(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || len(b) == 0 {
		if pid == os.Getpid() {
			return strings.Join(os.Args, " ")
		}
		return "?"
	}
	s := strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " "))
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}
