package tabular

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"strings"
)

// Survey is a fast look at a table's bytes, for a load that writes as it
// reads: the SHA-256 of the file and its number of data rows, without
// parsing a cell. OK is false when the rows cannot be counted so: a CSV
// or TSV file with a quote (a quoted cell may hold a line break), a
// compressed file, or JSONL.
type Survey struct {
	SHA256 string
	Rows   int64
	OK     bool
}

// SurveyFile surveys the table at path in format ("" means from the
// name). A Parquet file's rows are in its footer; a CSV or TSV file's are
// its lines that are not empty, less the header.
func SurveyFile(path, format string) (Survey, error) {
	if format == "" {
		f, err := FormatOf(path)
		if err != nil {
			return Survey{}, err
		}
		format = f
	}
	if format == "parquet" {
		rd, err := Open(path, format)
		if err != nil {
			return Survey{}, err
		}
		defer rd.Close()
		return Survey{SHA256: rd.SHA256(), Rows: rd.(*parquetReader).total, OK: true}, nil
	}
	if (format != "csv" && format != "tsv") || strings.HasSuffix(strings.ToLower(path), ".gz") {
		return Survey{}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return Survey{}, err
	}
	defer f.Close()
	h := sha256.New()
	var lc lineCount
	buf := make([]byte, 1<<20)
	for {
		n, err := f.Read(buf)
		h.Write(buf[:n])
		if bytes.IndexByte(buf[:n], '"') >= 0 {
			return Survey{}, nil
		}
		lc.add(buf[:n])
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Survey{}, err
		}
	}
	return Survey{SHA256: hex.EncodeToString(h.Sum(nil)), Rows: max(0, lc.lines()-1), OK: true}, nil
}

// lineCount counts the lines of text that are not empty (nor only a CR),
// as the CSV reader skips those, fed in pieces.
type lineCount struct {
	n   int64
	cur int64 // bytes of the current line so far, its line break not counted
	cr  bool  // the current line so far is one CR
}

func (c *lineCount) add(b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			c.grow(b)
			return
		}
		c.grow(b[:i])
		if c.cur > 0 && !c.cr {
			c.n++
		}
		c.cur, c.cr = 0, false
		b = b[i+1:]
	}
}

func (c *lineCount) grow(b []byte) {
	if len(b) == 0 {
		return
	}
	c.cr = (c.cur == 0 && len(b) == 1 && b[0] == '\r') || (c.cr && len(b) == 0)
	c.cur += int64(len(b))
}

// lines is the count once every piece has been added.
func (c *lineCount) lines() int64 {
	if c.cur > 0 && !c.cr {
		return c.n + 1
	}
	return c.n
}
