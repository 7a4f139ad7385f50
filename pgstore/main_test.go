package pgstore

import (
	"os"
	"testing"

	"github.com/tgms-go/tgms/internal/pgtest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.StopShared()
	os.Exit(code)
}
