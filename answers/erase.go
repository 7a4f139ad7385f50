package answers

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"os"

	tgms "github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/internal/vfs"
)

func init() { tgms.RegisterAnswersRewriter(Rewrite) }

// An erased record (written by Rewrite when the store erases an entity
// that a saved answer read) keeps the answer's place in its name's
// generations and drops everything else:
//
//	{"name": "...", "generation": N, "saved_at": µs, "as_of_tt": µs,
//	 "trace_digest": "...", "erased": "<hex SHA-256 of the payload it replaced>"}

func decodeErased(w *wire) (*Saved, error) {
	if w.Name == "" {
		return nil, fmt.Errorf("record has no name")
	}
	if len(w.Trace) > 0 {
		return nil, fmt.Errorf("an erased record must not hold a trace")
	}
	if b, err := hex.DecodeString(w.Erased); err != nil || len(b) != sha256.Size {
		return nil, fmt.Errorf("erased record's hash is not 64 hex digits")
	}
	return &Saved{Name: w.Name, Generation: w.Generation, SavedAt: w.SavedAt, AsOfTT: w.AsOfTT, TraceDigest: w.TraceDigest, Erased: w.Erased}, nil
}

// Rewrite writes the saved answers of the store in dir to a new file at
// to (created with O_EXCL and fsynced; the caller renames it into place),
// with every record whose payload erase reports replaced by an erased
// record. It returns how many records it replaced. A store without an
// answers file writes nothing and returns os.ErrNotExist. A torn final
// record is not carried over (it was never reported saved).
func Rewrite(dir, to string, erase func(payload []byte) bool) (int, error) {
	f := &File{byName: map[string][]*Saved{}}
	f.path = dir + string(os.PathSeparator) + FileName
	data, err := readNoFollow(f.path)
	if err != nil {
		return 0, err
	}
	if err := f.parse(data); err != nil {
		return 0, err
	}
	out := bytes.NewBufferString(header)
	n := 0
	for _, s := range f.recs {
		line := data[s.Offset:]
		line = line[:bytes.IndexByte(line, '\n')]
		sp := bytes.IndexByte(line, ' ')
		payload := line[sp+10:]
		if s.Erased == "" && erase(payload) {
			sum := sha256.Sum256(payload)
			p, err := canon.Marshal(map[string]any{
				"name": s.Name, "generation": int64(s.Generation), "saved_at": s.SavedAt, "as_of_tt": s.AsOfTT,
				"trace_digest": s.TraceDigest, "erased": hex.EncodeToString(sum[:]),
			})
			if err != nil {
				return 0, err
			}
			payload = p
			n++
		}
		fmt.Fprintf(out, "%d %08x ", len(payload), crc32.Checksum(payload, castagnoli))
		out.Write(payload)
		out.WriteByte('\n')
	}
	check := &File{path: to, byName: map[string][]*Saved{}}
	if err := check.parse(out.Bytes()); err != nil {
		return 0, fmt.Errorf("answers: the rewritten file would not read back: %w", err)
	}
	fh, err := vfs.Get().OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return 0, fmt.Errorf("answers: %w", err)
	}
	_, err = fh.WriteAt(out.Bytes(), 0)
	if err == nil {
		err = fh.Sync()
	}
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, errors.Join(fmt.Errorf("answers: writing %s", to), err)
	}
	return n, nil
}
