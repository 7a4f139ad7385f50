package reader_test

import (
	"testing"

	"github.com/tgms-go/tgms/agent/reader"
)

// BenchmarkRead reads the whole corpus once per iteration and reports the
// time per question.
func BenchmarkRead(b *testing.B) {
	items := loadCorpus(b, "all")
	b.ResetTimer()
	for b.Loop() {
		for _, it := range items {
			env := collegeEnv
			if it.store == "S" {
				env = synthEnv
			}
			reader.Read(it.question, env)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(items)), "µs/question")
}
