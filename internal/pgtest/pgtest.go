// Package pgtest starts a throwaway PostgreSQL cluster from the server
// binaries (the Debian layout) on a free loopback port, for tests and the
// peer benchmark.
package pgtest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Bin is where the server binaries are looked for; TGMS_PG_BIN overrides it.
var Bin = "/usr/lib/postgresql/15/bin"

// BinDir returns the directory of the server binaries in use.
func BinDir() string {
	if b := os.Getenv("TGMS_PG_BIN"); b != "" {
		return b
	}
	return Bin
}

// Cluster is a running server: user postgres, trust authentication on
// 127.0.0.1:Port.
type Cluster struct {
	Port    int
	Dir     string // the cluster's directory (data in Dir/pgdata, log in Dir/server.log)
	stop    func() error
	restart func() error
}

// URL returns a connection URL for database postgres as user postgres.
func (c *Cluster) URL() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", c.Port)
}

// SchemaURL is URL for a store in schema (a store URL's schema parameter).
func (c *Cluster) SchemaURL(schema string) string { return c.URL() + "&schema=" + schema }

// Stop stops the server at once and, when Start made its own directory,
// removes it.
func (c *Cluster) Stop() error { return c.stop() }

// Restart stops the server (fast mode: every session is cut, committed
// transactions are kept) and starts it again on the same port and data
// directory.
func (c *Cluster) Restart() error { return c.restart() }

// Start initializes a cluster in dir and starts a server with the given
// settings (name=value). Run as root, the server runs as the postgres user
// (created by the Debian package) in a directory of its own directly under
// the temporary directory, so that no parent of dir needs to be searchable
// by that user; that directory is removed by Stop.
func Start(ctx context.Context, dir string, settings ...string) (*Cluster, error) {
	bin := BinDir()
	if _, err := os.Stat(filepath.Join(bin, "postgres")); err != nil {
		return nil, fmt.Errorf("no PostgreSQL server at %s (install postgresql-15, or set TGMS_PG_BIN): %w", bin, err)
	}
	var asUser []string
	if os.Geteuid() == 0 {
		// The server refuses to run as root.
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root, PostgreSQL needs an unprivileged user: no user postgres: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		own, err := os.MkdirTemp("", "tgms-pg-")
		if err != nil {
			return nil, err
		}
		if err := os.Chown(own, uid, gid); err != nil {
			os.RemoveAll(own)
			return nil, err
		}
		dir = own
		asUser = []string{"runuser", "-u", "postgres", "--"}
	}
	cleanup := func() {
		if asUser != nil {
			os.RemoveAll(dir)
		}
	}
	data := filepath.Join(dir, "pgdata")
	run := func(args ...string) error {
		full := append(append([]string{}, asUser...), args...)
		cmd := exec.CommandContext(ctx, full[0], full[1:]...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("%s: %w\n%s", strings.Join(args, " "), err, out)
		}
		return nil
	}
	if err := run(filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C"); err != nil {
		cleanup()
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		cleanup()
		return nil, err
	}
	opts := []string{"-p " + strconv.Itoa(port), "-c listen_addresses=127.0.0.1", "-k " + dir}
	for _, s := range settings {
		opts = append(opts, "-c "+s)
	}
	pgctl := filepath.Join(bin, "pg_ctl")
	if err := run(pgctl, "-D", data, "-l", filepath.Join(dir, "server.log"), "-w", "-t", "60", "-o", strings.Join(opts, " "), "start"); err != nil {
		cleanup()
		return nil, err
	}
	c := &Cluster{Port: port, Dir: dir}
	c.restart = func() error {
		if err := run(pgctl, "-D", data, "-m", "fast", "-w", "stop"); err != nil {
			return err
		}
		return run(pgctl, "-D", data, "-l", filepath.Join(dir, "server.log"), "-w", "-t", "60", "-o", strings.Join(opts, " "), "start")
	}
	c.stop = func() error {
		err := run(pgctl, "-D", data, "-m", "immediate", "-w", "stop")
		cleanup()
		return err
	}
	return c, nil
}

// ForTest starts a cluster for t with durability off (fsync and
// synchronous commit), stopped when t ends. Without the server binaries it
// skips t, or fails it when CI=true.
func ForTest(t testing.TB) *Cluster {
	t.Helper()
	if _, err := os.Stat(filepath.Join(BinDir(), "postgres")); err != nil {
		msg := fmt.Sprintf("no PostgreSQL server at %s (apt-get install postgresql-15, or set TGMS_PG_BIN)", BinDir())
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	c, err := Start(context.Background(), t.TempDir(), "fsync=off", "synchronous_commit=off", "full_page_writes=off")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Stop(); err != nil {
			t.Log(err)
		}
	})
	return c
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

var shared struct {
	sync.Mutex
	c   *Cluster
	err error
}

// Shared is ForTest for a cluster that all the tests of a package share
// (each in a schema or database of its own): started by the first test
// that asks, stopped by StopShared, which the package's TestMain calls
// after m.Run.
func Shared(t testing.TB) *Cluster {
	t.Helper()
	if _, err := os.Stat(filepath.Join(BinDir(), "postgres")); err != nil {
		msg := fmt.Sprintf("no PostgreSQL server at %s (apt-get install postgresql-15, or set TGMS_PG_BIN)", BinDir())
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	shared.Lock()
	defer shared.Unlock()
	if shared.c == nil && shared.err == nil {
		dir, err := os.MkdirTemp("", "tgms-pgtest-")
		if err == nil {
			shared.c, err = Start(context.Background(), dir, "fsync=off", "synchronous_commit=off", "full_page_writes=off")
			if err != nil {
				os.RemoveAll(dir)
			} else if shared.c.Dir != dir {
				os.RemoveAll(dir) // run as root, the cluster lives in a directory of its own
			}
		}
		shared.err = err
	}
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.c
}

// StopShared stops the cluster Shared started, if any.
func StopShared() {
	shared.Lock()
	defer shared.Unlock()
	if shared.c != nil {
		shared.c.Stop()
		if os.Geteuid() != 0 {
			os.RemoveAll(shared.c.Dir)
		}
		shared.c = nil
	}
}
