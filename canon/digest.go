package canon

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"sync"
)

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// Digest returns the lowercase hex SHA-256 of Marshal(v).
func Digest(v any) (string, error) {
	bp := bufPool.Get().(*[]byte)
	b, err := appendValue((*bp)[:0], v, 0, nil)
	if err != nil {
		putBuf(bp, b)
		return "", err
	}
	sum := sha256.Sum256(b)
	putBuf(bp, b)
	return hexString(&sum), nil
}

// RoundedDigest returns Digest(RoundFloats(v)) in one pass and without
// copying v: floats are rounded as they are encoded. changed reports whether
// RoundFloats(v) differs from v, that is, whether the caller must still
// round v to hold the value the digest is of. A NaN or infinite float
// yields ErrNonFiniteOutput.
func RoundedDigest(v any) (digest string, changed bool, err error) {
	s, err := Summarize(v, math.MaxInt64)
	return s.Digest, s.Changed, err
}

// Summary is what Summarize learns of a value in one walk.
type Summary struct {
	Digest    string // Digest(RoundFloats(v))
	Changed   bool   // RoundFloats(v) differs from v
	Footprint int64  // Footprint(v)
}

// Summarize is RoundedDigest and Footprint in one walk over v. It stops
// with ErrFootprint as soon as the footprint is known to exceed max, and
// with the encoding error when v cannot be encoded; in both cases the
// Summary is empty, and Footprint(v) tells the whole size.
func Summarize(v any, max int64) (Summary, error) {
	r := digestWalk{max: max}
	bp := bufPool.Get().(*[]byte)
	b, err := appendValue((*bp)[:0], v, 0, &r)
	if err == nil && r.size > max {
		err = ErrFootprint // the walk checks inside arrays and objects only
	}
	if err != nil {
		putBuf(bp, b)
		return Summary{}, err
	}
	sum := sha256.Sum256(b)
	putBuf(bp, b)
	return Summary{Digest: hexString(&sum), Changed: r.changed, Footprint: r.size}, nil
}

// putBuf returns a scratch buffer to the pool, unless it grew too large to
// keep around.
func putBuf(bp *[]byte, b []byte) {
	if cap(b) <= 1<<20 {
		*bp = b[:0]
		bufPool.Put(bp)
	}
}

func hexString(sum *[sha256.Size]byte) string {
	var out [2 * sha256.Size]byte
	hex.Encode(out[:], sum[:])
	return string(out[:])
}

// DigestBytes returns the lowercase hex SHA-256 of b.
func DigestBytes(b []byte) string {
	sum := sha256.Sum256(b)
	return hexString(&sum)
}
