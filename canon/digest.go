package canon

import (
	"crypto/sha256"
	"encoding/hex"
	"sync"
)

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// Digest returns the lowercase hex SHA-256 of Marshal(v).
func Digest(v any) (string, error) {
	bp := bufPool.Get().(*[]byte)
	b, err := appendValue((*bp)[:0], v, 0)
	if err != nil {
		putBuf(bp, b)
		return "", err
	}
	sum := sha256.Sum256(b)
	putBuf(bp, b)
	return hexString(&sum), nil
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
