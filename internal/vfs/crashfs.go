package vfs

import (
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
)

// CrashFS is the OS file system with a memory of what is durable: for
// every file written through it, the content as of its last Sync, and for
// every directory, its entries as of its last SyncDir. Crash (or Image)
// then writes out what a machine crash at that moment could leave: with
// drop, only what was synced; with reorder, also a random subset of the
// writes since, applied in random order in 512-byte pieces (the page
// cache writes back in any order). Files the FS never saw written are not
// part of the image.
type CrashFS struct {
	// SkipSync, when it returns true for a file's path, makes Sync of that
	// file do nothing (an fsync removed), for tests that the crash
	// campaign notices.
	SkipSync func(path string) bool
	// SkipDirSync makes SyncDir do nothing.
	SkipDirSync bool

	mu      sync.Mutex
	cur     map[string]*node // the namespace now
	durable map[string]*node // the namespace as last synced
	open    []*crashFile
}

type node struct {
	durable []byte
	pending []pendingOp // since the last sync, in order
}

type pendingOp struct {
	trunc bool
	off   int64
	data  []byte
}

// NewCrashFS returns an empty CrashFS.
func NewCrashFS() *CrashFS {
	return &CrashFS{cur: map[string]*node{}, durable: map[string]*node{}}
}

type crashFile struct {
	*os.File
	fs   *CrashFS
	node *node
}

func (c *CrashFS) track(f *os.File, created bool) *crashFile {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := f.Name()
	n := c.cur[p]
	if n == nil || created {
		n = &node{}
		if !created {
			// Seen for the first time, already there: durable as it is.
			n.durable, _ = os.ReadFile(p)
			c.durable[p] = n
		}
		c.cur[p] = n
	}
	cf := &crashFile{File: f, fs: c, node: n}
	c.open = append(c.open, cf)
	return cf
}

// OpenFile opens through the OS and tracks the file.
func (c *CrashFS) OpenFile(name string, flag int, perm os.FileMode) (File, error) {
	_, statErr := os.Lstat(name)
	f, err := os.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	cf := c.track(f, os.IsNotExist(statErr))
	if flag&os.O_TRUNC != 0 {
		cf.record(pendingOp{trunc: true})
	}
	return cf, nil
}

// CreateTemp creates through the OS and tracks the file.
func (c *CrashFS) CreateTemp(dir, pattern string) (File, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return c.track(f, true), nil
}

// Rename renames through the OS; the new name is durable after SyncDir.
func (c *CrashFS) Rename(oldpath, newpath string) error {
	if err := os.Rename(oldpath, newpath); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := c.cur[oldpath]; n != nil {
		c.cur[newpath] = n
		delete(c.cur, oldpath)
	}
	return nil
}

// Remove removes through the OS; durable after SyncDir.
func (c *CrashFS) Remove(name string) error {
	if err := os.Remove(name); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.cur, name)
	return nil
}

// SyncDir makes dir's entries durable as they are now.
func (c *CrashFS) SyncDir(dir string) error {
	if c.SkipDirSync {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	dir = filepath.Clean(dir)
	for p := range c.durable {
		if filepath.Dir(p) == dir {
			delete(c.durable, p)
		}
	}
	for p, n := range c.cur {
		if filepath.Dir(p) == dir {
			c.durable[p] = n
		}
	}
	return nil
}

func (f *crashFile) record(op pendingOp) {
	f.fs.mu.Lock()
	f.node.pending = append(f.node.pending, op)
	f.fs.mu.Unlock()
}

func (f *crashFile) Write(b []byte) (int, error) {
	off, err := f.File.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0, err
	}
	n, err := f.File.Write(b)
	f.record(pendingOp{off: off, data: append([]byte(nil), b[:n]...)})
	return n, err
}

func (f *crashFile) WriteAt(b []byte, off int64) (int, error) {
	n, err := f.File.WriteAt(b, off)
	f.record(pendingOp{off: off, data: append([]byte(nil), b[:n]...)})
	return n, err
}

func (f *crashFile) Truncate(size int64) error {
	if err := f.File.Truncate(size); err != nil {
		return err
	}
	f.record(pendingOp{trunc: true, off: size})
	return nil
}

// Sync makes the file's writes durable in the model; the real fsync is
// not needed (the image is built from the model).
func (f *crashFile) Sync() error {
	if f.fs.SkipSync != nil && f.fs.SkipSync(f.Name()) {
		return nil
	}
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	for _, op := range f.node.pending {
		f.node.durable = apply(f.node.durable, op)
	}
	f.node.pending = nil
	return nil
}

func apply(b []byte, op pendingOp) []byte {
	if op.trunc {
		if int64(len(b)) > op.off {
			return b[:op.off]
		}
		return append(b, make([]byte, op.off-int64(len(b)))...)
	}
	if end := op.off + int64(len(op.data)); end > int64(len(b)) {
		b = append(b, make([]byte, end-int64(len(b)))...)
	}
	copy(b[op.off:], op.data)
	return b
}

// Image writes into dir (a new directory) the files of src that a crash
// now could leave, by their base names: drop mode (rng nil) only what
// was synced; reorder mode also a random subset of the unsynced writes in
// 512-byte pieces, in random order.
func (c *CrashFS) Image(src, dir string, rng *rand.Rand) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	src = filepath.Clean(src)
	for p, n := range c.durable {
		if filepath.Dir(p) != src {
			continue
		}
		b := append([]byte(nil), n.durable...)
		if rng != nil {
			var pieces []pendingOp
			for _, op := range n.pending {
				if op.trunc {
					pieces = append(pieces, op)
					continue
				}
				for i := 0; i < len(op.data); {
					j := min(len(op.data), i+512-int((op.off+int64(i))%512))
					pieces = append(pieces, pendingOp{off: op.off + int64(i), data: op.data[i:j]})
					i = j
				}
			}
			rng.Shuffle(len(pieces), func(i, j int) { pieces[i], pieces[j] = pieces[j], pieces[i] })
			for _, op := range pieces[:rng.IntN(len(pieces)+1)] {
				b = apply(b, op)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(p)), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// CloseAll closes every file opened through the FS (after a simulated
// crash, the abandoned writer's).
func (c *CrashFS) CloseAll() {
	c.mu.Lock()
	open := c.open
	c.open = nil
	c.mu.Unlock()
	for _, f := range open {
		f.File.Close()
	}
}

// ReadFrom and WriteString go through Write, so that no write escapes the
// record (os.File's would).
func (f *crashFile) ReadFrom(r io.Reader) (int64, error) {
	return io.Copy(struct{ io.Writer }{f}, r)
}

func (f *crashFile) WriteString(s string) (int, error) { return f.Write([]byte(s)) }
