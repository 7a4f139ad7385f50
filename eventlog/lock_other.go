//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package eventlog

import "os"

// noFollow is not available here; symbolic links are checked with Lstat
// by the store instead.
const noFollow = 0

// NoFollow is O_NOFOLLOW where the system has it (0 here).
const NoFollow = noFollow

func isSymlinkErr(path string, err error) bool {
	st, lerr := os.Lstat(path)
	return lerr == nil && st.Mode()&os.ModeSymlink != 0
}

// lockFile is a no-op where flock is not available.
func lockFile(vfs.File) error { return nil }
