package ops_test

import (
	"context"
	"testing"

	"github.com/tgms-go/tgms/ops"
)

// BenchmarkPointQueriesTyped1M is BenchmarkPointQueries1M with typed rows
// left in the envelope (ExecOptions.Typed): what a caller that only
// encodes the envelope pays.
func BenchmarkPointQueriesTyped1M(b *testing.B) {
	e, _ := benchStore1M(b)
	src := storeSource{e}
	for _, q := range pointQueries(b) {
		b.Run(q.name, func(b *testing.B) {
			runPoint(b, func() (*ops.Envelope, error) {
				return ops.ExecuteWith(context.Background(), src, q.op, q.args, ops.ExecOptions{Typed: true})
			})
		})
	}
}
