package eventlog

import "sync"

// Encoded is a record encoded ahead of its append: a writer encodes one
// batch on another goroutine while it prepares the next, and
// AppendEncoded then only frames and writes the bytes.
type Encoded struct {
	rec     *Record
	payload []byte
}

var payloadPool = sync.Pool{New: func() any { return new([]byte) }}

// Encode encodes r for AppendEncoded. r must not change until it has been
// appended. Encode is safe to call on several goroutines at once.
func Encode(r *Record) *Encoded {
	bp := payloadPool.Get().(*[]byte)
	return &Encoded{rec: r, payload: AppendRecord((*bp)[:0], r)}
}

// Record is the record e encodes.
func (e *Encoded) Record() *Record { return e.rec }

// Release returns e's memory for reuse by later encodings; e must not be
// used after.
func (e *Encoded) Release() {
	if e.payload != nil && cap(e.payload) <= 64<<20 {
		p := e.payload[:0]
		payloadPool.Put(&p)
	}
	*e = Encoded{}
}

// AppendEncoded is Append for records encoded by Encode: the same checks,
// one write and one fsync, the same bytes on disk.
func (l *Log) AppendEncoded(es ...*Encoded) (int64, error) {
	return l.appendFrames(len(es), func(i int) (*Record, []byte) { return es[i].rec, es[i].payload })
}
