package peers

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/stdlib"
)

// PostgresBin is where the server binaries are looked for (the Debian
// layout); TGMS_PG_BIN overrides it.
var PostgresBin = "/usr/lib/postgresql/15/bin"

// pgSettings are the server settings: a warm, memory-resident analytical
// setup (the data fit in shared_buffers), durability off for the load.
var pgSettings = []string{
	"shared_buffers=2GB", "work_mem=256MB", "maintenance_work_mem=1GB", "effective_cache_size=8GB",
	"random_page_cost=1.1", "max_parallel_workers_per_gather=2", "jit=off",
	"fsync=off", "synchronous_commit=off", "full_page_writes=off",
}

// openPostgres initializes a cluster in dir, starts a server on a free
// loopback port and connects with pgx. Run as root, the server runs as the
// postgres user (created by the Debian package) in a directory of its own.
func openPostgres(ctx context.Context, dir string) (*System, error) {
	bin := PostgresBin
	if b := os.Getenv("TGMS_PG_BIN"); b != "" {
		bin = b
	}
	if _, err := os.Stat(filepath.Join(bin, "postgres")); err != nil {
		return nil, fmt.Errorf("no PostgreSQL server at %s (install postgresql-15, or set TGMS_PG_BIN): %w", bin, err)
	}
	var asUser []string
	if os.Geteuid() == 0 {
		// The server refuses to run as root: it runs as postgres, in a
		// directory of its own directly under the temporary directory, so
		// that no parent of dir needs to be searchable by that user.
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
		if asUser != nil {
			os.RemoveAll(dir)
		}
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	opts := []string{"-p " + strconv.Itoa(port), "-c listen_addresses=127.0.0.1", "-k " + dir}
	for _, s := range pgSettings {
		opts = append(opts, "-c "+s)
	}
	pgctl := filepath.Join(bin, "pg_ctl")
	if err := run(pgctl, "-D", data, "-l", filepath.Join(dir, "server.log"), "-w", "-t", "60", "-o", strings.Join(opts, " "), "start"); err != nil {
		return nil, err
	}
	stop := func() error {
		err := run(pgctl, "-D", data, "-m", "immediate", "-w", "stop")
		if asUser != nil {
			os.RemoveAll(dir)
		}
		return err
	}
	db, err := sql.Open("pgx", fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port))
	if err != nil {
		stop()
		return nil, err
	}
	db.SetMaxOpenConns(1)
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	conn, err := db.Conn(cctx)
	if err != nil {
		db.Close()
		stop()
		return nil, fmt.Errorf("connect to PostgreSQL on port %d: %w", port, err)
	}
	s := &System{Name: "postgres", db: db, conn: conn, textType: `TEXT COLLATE "C"`, stop: stop, inTx: true,
		d: dialect{
			// Bigint "/" truncates, which is floor division on the
			// non-negative offsets it is used for (div() would go through
			// numeric).
			div:        func(a, b string) string { return fmt.Sprintf("((%s) / (%s))", a, b) },
			oneScan:    true,
			rangeIndex: true,
			seedDriven: true,
			nameIfString: func(p string) string {
				return fmt.Sprintf("(CASE WHEN %[1]s <> '{}' AND jsonb_typeof(CAST(%[1]s AS jsonb) -> 'name') = 'string' THEN CAST(%[1]s AS jsonb) ->> 'name' END)", p)
			},
		},
		indexes: []string{
			"CREATE INDEX nodes_uid ON nodes (uid, vt_s)",
			"CREATE INDEX edges_src ON edges (src, vt_s)",
			"CREATE INDEX edges_dst ON edges (dst, vt_s)",
			"CREATE INDEX edges_vt ON edges (vt_s) INCLUDE (vt_e, tt_s, tt_e)",
			// The fragment test looks up only identities with several versions.
			"CREATE INDEX edges_multi ON edges (eid, vt_e) INCLUDE (tt_s, tt_e) WHERE multi",
			// Range containment on the valid interval (diff_snapshots).
			"CREATE INDEX nodes_valid ON nodes USING gist (int8range(vt_s, vt_e))",
			"CREATE INDEX edges_valid ON edges USING gist (int8range(vt_s, vt_e))",
		},
		// The frozen pages are all-visible already: ANALYZE is enough.
		after: []string{"ANALYZE nodes", "ANALYZE edges"},
		diskBytes: func(ctx context.Context) (int64, error) {
			var n int64
			err := conn.QueryRowContext(ctx, "SELECT pg_total_relation_size('nodes') + pg_total_relation_size('edges')").Scan(&n)
			return n, err
		},
	}
	s.copyIn = func(ctx context.Context, table, path string) error {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		return conn.Raw(func(dc any) error {
			_, err := dc.(*stdlib.Conn).Conn().PgConn().CopyFrom(ctx, f, "COPY "+table+" FROM STDIN WITH (FORMAT csv, FREEZE)")
			return err
		})
	}
	return s, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
