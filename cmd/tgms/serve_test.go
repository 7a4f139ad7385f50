package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tgms-go/tgms/internal/servertest/mcpcheck"
	"github.com/tgms-go/tgms/internal/servertest/testdb"
)

// TestServeMCPStdio runs the built binary as a desktop agent would
// (tgms serve --store DIR --mcp stdio) and drives it with the MCP SDK's
// client over its standard input and output.
func TestServeMCPStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := filepath.Join(t.TempDir(), "tgms")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	s := testdb.New(t)
	dir := s.Dir
	s = s.Handover(t) // the server process owns dir; the checks compare with this copy
	var stderr strings.Builder
	cmd := exec.Command(bin, "serve", "--store", dir, "--mcp", "stdio")
	cmd.Stderr = &stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr: %s", err, stderr.String())
	}
	mcpcheck.Run(t, cs, s)
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	if !strings.Contains(stderr.String(), "read-only") {
		t.Errorf("the server did not say it is read-only: %s", stderr.String())
	}
}
