package main

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/campaign"
)

// The crash campaign passes on the store, and catches a writer that
// acknowledges before it writes.
func TestCrashCampaign(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	rep, err := campaign.Crash(context.Background(), campaign.CrashConfig{Binary: bin, Trials: 40, Seed: 5, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Failures {
		t.Log(f)
	}
	if rep.Outcomes[string(campaign.OK)] != rep.Trials || rep.Interrupted < rep.Trials/2 || rep.CrashPoints < 50 {
		t.Fatalf("outcomes %v, %d of %d interrupted, %d crash points", rep.Outcomes, rep.Interrupted, rep.Trials, rep.CrashPoints)
	}
	broken, err := campaign.Crash(context.Background(), campaign.CrashConfig{Binary: bin, Trials: 30, Seed: 5, Dir: t.TempDir(), AckEarly: true})
	if err != nil {
		t.Fatal(err)
	}
	if broken.Outcomes[string(campaign.Lost)] == 0 {
		t.Fatalf("a writer acknowledging early was not caught: %v", broken.Outcomes)
	}
}

// The corruption campaign with its post-seal states made by real kills (a
// writer SIGKILLed after its last ack, 'serve --allow-writes' SIGKILLed
// after its last 200): no damage is lost or silent in any state, and two
// thirds of the trials are post-seal.
func TestCorruptionCampaignFromKills(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	rep, err := campaign.Corrupt(context.Background(), campaign.CorruptConfig{Binary: bin, Trials: 60, Seed: 9, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Failures {
		t.Log(f)
	}
	bad := rep.Verdicts[campaign.Silent] + rep.Verdicts[campaign.LostData] + rep.Reader[campaign.Silent] + rep.Reader[campaign.LostData]
	post := 0
	for _, st := range []string{"killed-after-ack", "server-session"} {
		for _, n := range rep.ByState[st] {
			post += n
		}
	}
	if bad != 0 || rep.Untyped != 0 || 3*post < rep.Trials {
		t.Fatalf("verdicts %v, reader %v, %d untyped, %d of %d trials post-seal", rep.Verdicts, rep.Reader, rep.Untyped, post, rep.Trials)
	}
}

// tgms check exits clean on a fresh store and not on a damaged one; the
// read-only commands run while another reader holds the store.
func TestCheckCommand(t *testing.T) {
	store := t.TempDir() + "/s"
	if _, errOut, code := runCLI(t, "write", "--store", store, "--ops", writeOps(t)); code != 0 {
		t.Fatalf("write: %d %s", code, errOut)
	}
	if out, _, code := runCLI(t, "check", "--store", store, "--full"); code != 0 || !strings.Contains(out, "equals a replay") {
		t.Fatalf("check of a clean store: %d\n%s", code, out)
	}
	if _, errOut, code := runCLI(t, "write", "--store", store, "--ops", writeOps(t)); code != 0 {
		t.Fatalf("second write: %s", errOut)
	}
	flipLastByte(t, store+"/events.wal")
	out, _, code := runCLI(t, "check", "--store", store)
	if code == 0 || !strings.Contains(out, "error") || !strings.Contains(out, "events.wal @") {
		t.Fatalf("check of a damaged store: %d\n%s", code, out)
	}
}

func writeOps(t *testing.T) string {
	return write(t, t.TempDir(), "ops.jsonl", `{"op":"assert_node","uid":"a","label":"P","props":{"name":"Ada Lovelace of the Analytical Engine"}}
`)
}

func flipLastByte(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-2] ^= 0x20
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Read-only commands share a store with other readers and never write it;
// they refuse, naming the holder, while a writer has it.
func TestReadOnlyCommandsShare(t *testing.T) {
	store := t.TempDir() + "/s"
	if _, errOut, code := runCLI(t, "write", "--store", store, "--ops", writeOps(t)); code != 0 {
		t.Fatal(errOut)
	}
	reader, err := tgms.OpenReadOnly(store, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"stats", "--store", store}, {"digest", "--store", store}, {"check", "--store", store}} {
		if _, errOut, code := runCLI(t, args...); code != 0 {
			t.Fatalf("%v beside a reader: %d %s", args, code, errOut)
		}
	}
	if _, errOut, code := runCLI(t, "write", "--store", store, "--ops", writeOps(t)); code == 0 || !strings.Contains(errOut, "in use") {
		t.Fatalf("write beside a reader: %d %s", code, errOut)
	}
	reader.Close()
	writer, err := tgms.Open(store, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	if _, errOut, code := runCLI(t, "stats", "--store", store); code == 0 || !strings.Contains(errOut, "writing since") {
		t.Fatalf("stats beside a writer: %d %s", code, errOut)
	}
}
