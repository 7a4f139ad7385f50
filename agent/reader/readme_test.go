package reader_test

import (
	"os"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/agent/reader"
)

// The README's table of intents: each example is read as its intent.
func TestReadmeExamples(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Skip("README.md not found")
	}
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Split(line, " | ")
		if len(f) != 2 || !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| intent") {
			continue
		}
		intent := strings.TrimPrefix(f[0], "| ")
		q := strings.TrimSuffix(f[1], " |")
		valid := false
		for _, in := range reader.Intents() {
			valid = valid || in[0] == intent
		}
		if !valid {
			continue
		}
		n++
		r, err := reader.Read(q, collegeEnv)
		if err != nil || r.Intent != intent {
			t.Errorf("README example %q: %v %v, want %s", q, r, err, intent)
		}
	}
	if n != len(reader.Intents()) {
		t.Errorf("README lists %d intents, the reader knows %d", n, len(reader.Intents()))
	}
}
