package main

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"

	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/datasets"
)

// ingestSource names what an ingest loads: a dataset by its pinned SHA-256
// (of the decompressed content, which the loader has verified), otherwise
// the file by the SHA-256 of its bytes.
func ingestSource(dataset, file string) (tgms.Source, error) {
	if dataset != "" {
		if spec, err := datasets.Lookup(dataset); err == nil && spec.SHA256 != "" {
			return tgms.Source{Name: "dataset " + spec.Name, SHA256: spec.SHA256}, nil
		}
	}
	f, err := os.Open(file)
	if err != nil {
		return tgms.Source{}, asInput(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return tgms.Source{}, err
	}
	name := "file " + file
	if dataset != "" {
		name = "dataset " + dataset + " from " + file
	}
	return tgms.Source{Name: name, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}
