//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package eventlog

import (
	"errors"
	"github.com/tgms-go/tgms/internal/vfs"
	"os"
	"syscall"
)

// noFollow makes OpenFile refuse a symbolic link as the last path element.
const noFollow = syscall.O_NOFOLLOW

// NoFollow is O_NOFOLLOW where the system has it (0 elsewhere): OpenFile
// with it refuses a symbolic link as the last path element.
const NoFollow = noFollow

// isSymlinkErr reports whether err from opening path with noFollow means
// path is a symbolic link.
func isSymlinkErr(path string, err error) bool {
	if !errors.Is(err, syscall.ELOOP) && !errors.Is(err, syscall.EMLINK) {
		return false
	}
	st, lerr := os.Lstat(path)
	return lerr == nil && st.Mode()&os.ModeSymlink != 0
}

// lockFile takes an exclusive advisory lock on f, failing at once if
// another open file (in this or another process) holds it. Closing f
// releases it.
func lockFile(f vfs.File) error {
	fd, ok := vfs.Fd(f)
	if !ok {
		return nil
	}
	for {
		err := syscall.Flock(int(fd), syscall.LOCK_EX|syscall.LOCK_NB)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return errLocked
		}
		return err
	}
}
