package main

import (
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms"
)

// Flags every command that opens a store shares (persistent on the root).
var storeFlags struct {
	wait          time.Duration
	allowSymlinks bool
}

func addStoreFlags(root *cobra.Command) {
	f := root.PersistentFlags()
	f.DurationVar(&storeFlags.wait, "wait", 0, "when another process holds the store, wait up to this long (--wait alone: 10m) instead of failing")
	f.Lookup("wait").NoOptDefVal = "10m"
	f.BoolVar(&storeFlags.allowSymlinks, "allow-symlinks", false, "allow the store's files to be symbolic links (refused by default)")
}

// storeOptions applies the shared flags to opt.
func storeOptions(opt tgms.Options) *tgms.Options {
	opt.Wait = storeFlags.wait
	opt.AllowSymlinks = storeFlags.allowSymlinks
	return &opt
}

// openReadOnly opens an existing store for reading: a shared lock, so any
// number of readers run together, and nothing in the store is changed.
// A missing log beside a checkpoint or seal is a damaged store (exit 5),
// not a directory that is no store.
func openReadOnly(dir string) (*tgms.DB, error) {
	if err := checkExisting(dir); err != nil && !hasWitness(dir) {
		return nil, err
	}
	db, err := tgms.OpenReadOnly(dir, storeOptions(tgms.Options{}))
	return db, classifyOpen(dir, err)
}

// hasWitness reports whether dir holds a checkpoint or a seal.
func hasWitness(dir string) bool {
	for _, name := range []string{tgms.CheckpointFile, tgms.SealFile} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			return true
		}
	}
	return false
}
