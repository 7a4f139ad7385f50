package pgstore

import (
	"os"
	"testing"

	"github.com/tgms-go/tgms/internal/pgtest"
)

func TestMain(m *testing.M) {
	if url := os.Getenv(writerEnv); url != "" {
		runWriter(url) // the writer subprocess of TestWriterKilledMidBatch
		return
	}
	code := m.Run()
	pgtest.StopShared()
	os.Exit(code)
}
