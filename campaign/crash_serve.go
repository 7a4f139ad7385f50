package campaign

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
)

// serveTrial runs 'tgms serve --allow-writes' on a new store, writes the
// workload's batches to it through the HTTP API one batch per request,
// and kills the server with SIGKILL after killAfter. It returns how many
// batches the server acknowledged (HTTP 200).
func (c CrashConfig) serveTrial(ctx context.Context, w *Workload, dir string, killAfter time.Duration) (int, error) {
	return serveWrite(ctx, c.Binary, dir, w.Batches, killAfter)
}

// serveWrite starts 'tgms serve --allow-writes' (binary) on the store at
// dir, writes batches through the HTTP API one per request, and kills the
// server with SIGKILL after killAfter, or with killAfter 0 right after the
// last batch's acknowledgement. It returns how many batches the server
// acknowledged (HTTP 200).
func serveWrite(ctx context.Context, binary, dir string, batches [][]bt.Op, killAfter time.Duration) (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.CommandContext(ctx, binary, "serve", "--store", dir, "--http", addr, "--allow-writes")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	base := "http://" + addr + "/v1/"
	client := &http.Client{Timeout: 10 * time.Second}
	up := time.Now().Add(15 * time.Second)
	for {
		resp, err := client.Get(base + "tools")
		if err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(up) {
			return 0, fmt.Errorf("serve did not come up: %v\n%s", err, stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if killAfter > 0 {
		kill := time.AfterFunc(killAfter, func() { cmd.Process.Signal(syscall.SIGKILL) })
		defer kill.Stop()
	}
	acked := 0
	for _, ops := range batches {
		var lines []string
		for _, op := range ops {
			b, err := bt.EncodeOp(op)
			if err != nil {
				return acked, err
			}
			lines = append(lines, string(b))
		}
		body, _ := json.Marshal(map[string]any{"ops": strings.Join(lines, "\n")})
		resp, err := client.Post(base+"write_batch", "application/json", bytes.NewReader(body))
		if err != nil {
			break // killed
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return acked, fmt.Errorf("write_batch: HTTP %d", resp.StatusCode)
		}
		acked++
	}
	if killAfter == 0 {
		cmd.Process.Signal(syscall.SIGKILL)
	}
	return acked, nil
}

// servedRecovered judges a store a killed server wrote: it opens, holds
// at least the acknowledged batches, and its digest equals a replay of
// its log. (The server's clock is the wall clock, so the digests of the
// workload's prefixes do not apply.)
func servedRecovered(dir string, acked int) (Outcome, string) {
	db, err := tgms.Open(dir, ptr(StoreOptions(nil)))
	if err != nil {
		return OpenFailed, err.Error()
	}
	b := int(db.Stats().Batches)
	digest := db.Digest()
	if err := db.Close(); err != nil {
		return OpenFailed, "close after reopen: " + err.Error()
	}
	if b < acked {
		return Lost, fmt.Sprintf("%d batches after the server acknowledged %d", b, acked)
	}
	if d, err := replayDigest(filepath.Join(dir, tgms.LogFile)); err != nil || d != digest {
		return NoReplay, fmt.Sprintf("replay of the log: %v", err)
	}
	return OK, ""
}

// serveKillAfter draws a kill time over a run of about runTime.
func serveKillAfter(rng *rand.Rand, runTime time.Duration) time.Duration {
	return time.Duration(rng.Int64N(int64(runTime)+1)) + 5*time.Millisecond
}
