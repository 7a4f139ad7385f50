package tabular

import (
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
)

// Row is one row as a reader delivers it: Text for CSV and TSV (cells as
// text, by column), Obj for JSONL (the line's object), or for Parquet
// typed cells held by the reader (neither Text nor Obj). A reader reuses
// the Row's memory on the next call.
type Row struct {
	Pos  Pos
	Text []string
	Obj  map[string]any

	pq *parquetReader // Parquet: the reader whose window holds the row
	pi int            // and its index there
}

// Reader yields the rows of one table.
type Reader interface {
	// Columns is the header: the column names in order (nil for JSONL,
	// whose rows name their own fields).
	Columns() []string
	// Next reads the next row into r; io.EOF after the last. A malformed
	// row is a *CellError; other errors are I/O errors.
	Next(r *Row) error
	// Done is the fraction of the input read so far, in [0, 1].
	Done() float64
	// SHA256 is the hex SHA-256 of the file's bytes, valid after io.EOF.
	SHA256() string
	Close() error
}

// Formats lists the accepted --format values.
var Formats = []string{"csv", "tsv", "jsonl", "parquet"}

// FormatOf picks a format from a file name: .csv, .tsv (.tab), .jsonl
// (.ndjson, .json), .parquet, each optionally followed by .gz (not for
// Parquet).
func FormatOf(path string) (string, error) {
	name := strings.ToLower(filepath.Base(path))
	name = strings.TrimSuffix(name, ".gz")
	switch filepath.Ext(name) {
	case ".csv":
		return "csv", nil
	case ".tsv", ".tab":
		return "tsv", nil
	case ".jsonl", ".ndjson", ".json":
		return "jsonl", nil
	case ".parquet", ".pq":
		return "parquet", nil
	}
	return "", fmt.Errorf("%s: cannot tell the format from the file name: give --format csv, tsv, jsonl or parquet", path)
}

// Open opens path as a table in format ("" means from the name).
func Open(path, format string) (Reader, error) {
	if format == "" {
		f, err := FormatOf(path)
		if err != nil {
			return nil, err
		}
		format = f
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if format == "parquet" {
		r, err := newParquet(f, fi.Size(), path)
		if err != nil {
			f.Close()
			return nil, err
		}
		return r, nil
	}
	src := newCounting(f, fi.Size())
	var in io.Reader = src
	if strings.HasSuffix(strings.ToLower(path), ".gz") {
		zr, err := gzip.NewReader(src)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: not gzip data: %v", path, err)
		}
		in = zr
	}
	var r Reader
	switch format {
	case "csv":
		r, err = newDelimited(in, src, path, ',')
	case "tsv":
		r, err = newDelimited(in, src, path, '\t')
	case "jsonl":
		r, err = newJSONL(in, src, path), nil
	default:
		err = fmt.Errorf("format %q: use csv, tsv, jsonl or parquet", format)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return r, nil
}

// counting reads a file, hashing it and counting bytes for progress.
type counting struct {
	f    *os.File
	h    hash.Hash
	n    atomic.Int64 // read by Done while a parser goroutine reads the file
	size int64
}

func newCounting(f *os.File, size int64) *counting {
	return &counting{f: f, h: sha256.New(), size: size}
}

func (c *counting) Read(p []byte) (int, error) {
	n, err := c.f.Read(p)
	c.h.Write(p[:n])
	c.n.Add(int64(n))
	return n, err
}

func (c *counting) done() float64 {
	if c.size <= 0 {
		return 1
	}
	return min(1, float64(c.n.Load())/float64(c.size))
}

func (c *counting) sum() string { return hex.EncodeToString(c.h.Sum(nil)) }
