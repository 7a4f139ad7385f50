// Package vfs is the small file-system interface the store's write path
// goes through: the event log, its seal and the checkpoint open, write,
// sync, rename and remove their files through FS, so that crash tests can
// put a file system underneath that remembers what was synced (CrashFS)
// and, at a crash point, leaves only that. Reads that never write go to
// the os package directly.
package vfs

import (
	"io"
	"os"
	"runtime"
	"sync/atomic"
)

// File is an open file of an FS.
type File interface {
	io.Reader
	io.ReaderAt
	io.Writer
	io.WriterAt
	Sync() error
	Truncate(size int64) error
	Close() error
	Stat() (os.FileInfo, error)
	Name() string
}

// FS is what the write path needs of a file system.
type FS interface {
	OpenFile(name string, flag int, perm os.FileMode) (File, error)
	// CreateTemp is os.CreateTemp: a new file (O_EXCL) in dir.
	CreateTemp(dir, pattern string) (File, error)
	Rename(oldpath, newpath string) error
	Remove(name string) error
	// SyncDir makes the directory's entries (creations, renames,
	// removals) durable.
	SyncDir(dir string) error
}

// OS is the operating system's file system.
type OS struct{}

// OpenFile is os.OpenFile.
func (OS) OpenFile(name string, flag int, perm os.FileMode) (File, error) {
	f, err := os.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// CreateTemp is os.CreateTemp.
func (OS) CreateTemp(dir, pattern string) (File, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// Rename is os.Rename.
func (OS) Rename(oldpath, newpath string) error { return os.Rename(oldpath, newpath) }

// Remove is os.Remove.
func (OS) Remove(name string) error { return os.Remove(name) }

// SyncDir fsyncs the directory (nothing on Windows, where directories
// cannot be opened for it).
func (OS) SyncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

var current atomic.Pointer[FS]

// Get returns the file system in use: OS unless Set installed another.
func Get() FS {
	if p := current.Load(); p != nil {
		return *p
	}
	return OS{}
}

// Set installs fs for the whole process (crash tests) and returns a
// function that restores the previous one.
func Set(fs FS) (restore func()) {
	prev := current.Swap(&fs)
	return func() { current.Store(prev) }
}

// Fd returns the descriptor of f when it has one (for flock).
func Fd(f File) (uintptr, bool) {
	if d, ok := f.(interface{ Fd() uintptr }); ok {
		return d.Fd(), true
	}
	return 0, false
}
