//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package eventlog

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on f, failing at once if
// another open file (in this or another process) holds it. Closing f
// releases it.
func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return errLocked
		}
		return err
	}
}
