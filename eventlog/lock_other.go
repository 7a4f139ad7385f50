//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package eventlog

import "os"

// lockFile is a no-op where flock is not available.
func lockFile(*os.File) error { return nil }
