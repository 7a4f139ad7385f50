// Command mutants applies one-line mutants to the packages whose
// correctness is the product and reports which ones the tests kill.
//
//	go run ./scripts/mutants [-list scripts/mutants/mutants.tsv] [-only SUBSTR] [-skip SUBSTR] [-timeout 10m]
//
// Each line of the list is tab-separated: file, the exact text to replace
// (it must occur exactly once in the file), its replacement, the go test
// -run pattern of the tests that must kill it (prefixed with a package
// and a colon, as in ./eval/:TestFaults, to run another package's tests),
// and a short name. Lines
// starting with # are comments; \t and \n in the texts stand for a tab and
// a newline. For every mutant the file is changed, the package's tests
// matching the pattern run with CI=true (fixed seeds, no skips), and the
// file is restored. A mutant is killed when the tests fail, survived when
// they pass; one that does not compile is reported as no-build. A mutant
// that cannot be applied (its file is missing, or its text does not occur
// exactly once, as after the code it targets changed) or whose pattern
// runs no test is an ERROR, printed with the list line to fix: it is never
// skipped. It exits 1 if any mutant is not killed.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"time"
)

type mutant struct {
	file, from, to, run, name string
	line                      int
}

func main() {
	list := flag.String("list", "scripts/mutants/mutants.tsv", "the mutant list")
	only := flag.String("only", "", "run only mutants whose file or name contains this")
	skip := flag.String("skip", "", "skip mutants whose file or name contains this")
	timeout := flag.Duration("timeout", 10*time.Minute, "time limit of one mutant's tests")
	flag.Parse()
	ms, err := read(*list)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	bad := false
	fmt.Printf("%-12s %-44s %-10s %s\n", "package", "mutant", "result", "time")
	for _, m := range ms {
		if *only != "" && !strings.Contains(m.file, *only) && !strings.Contains(m.name, *only) ||
			*skip != "" && (strings.Contains(m.file, *skip) || strings.Contains(m.name, *skip)) {
			continue
		}
		start := time.Now()
		res, out := runOne(ctx, m, *timeout)
		if res != "killed" {
			bad = true
		}
		fmt.Printf("%-12s %-44s %-10s %.0fs\n", filepath.Dir(m.file), m.name, res, time.Since(start).Seconds())
		if res == "no-build" || res == "ERROR" {
			fmt.Println(indent(tail(out, 8)))
		}
		if ctx.Err() != nil {
			break
		}
	}
	if bad {
		os.Exit(1)
	}
}

func read(path string) ([]mutant, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []mutant
	sc := bufio.NewScanner(f)
	unescape := strings.NewReplacer(`\t`, "\t", `\n`, "\n").Replace
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 5 {
			return nil, fmt.Errorf("%s:%d: %d fields, want 5 (file, from, to, test pattern, name) separated by tabs", path, n, len(f))
		}
		out = append(out, mutant{file: f[0], from: unescape(f[1]), to: unescape(f[2]), run: f[3], name: f[4], line: n})
	}
	return out, sc.Err()
}

func runOne(ctx context.Context, m mutant, timeout time.Duration) (string, string) {
	orig, err := os.ReadFile(m.file)
	if err != nil {
		return "ERROR", fmt.Sprintf("list line %d: %v", m.line, err)
	}
	if n := strings.Count(string(orig), m.from); n != 1 {
		return "ERROR", fmt.Sprintf("list line %d: the text to replace occurs %d times in %s, want exactly once (update the line to the current code): %q", m.line, n, m.file, m.from)
	}
	mutated := strings.Replace(string(orig), m.from, m.to, 1)
	if err := os.WriteFile(m.file, []byte(mutated), 0o644); err != nil {
		return "ERROR", err.Error()
	}
	defer os.WriteFile(m.file, orig, 0o644)
	pkg, run := "./"+filepath.Dir(m.file)+"/", m.run
	if p, r, ok := strings.Cut(m.run, ":"); ok && strings.HasPrefix(p, "./") {
		pkg, run = p, r
	}
	os.RemoveAll(filepath.Join(pkg, "testdata", "rapid")) // no replay of another mutant's failures
	defer os.RemoveAll(filepath.Join(pkg, "testdata", "rapid"))
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(tctx, "go", "test", "-count=1", "-run", run, pkg)
	cmd.Env = append(os.Environ(), "CI=true")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		if strings.Contains(string(out), "no tests to run") {
			return "ERROR", fmt.Sprintf("list line %d: the pattern %q runs no test\n%s", m.line, m.run, out)
		}
		return "survived", string(out)
	case tctx.Err() != nil:
		return "timeout", string(out)
	case strings.Contains(string(out), "[build failed]") || strings.Contains(string(out), "[setup failed]"):
		return "no-build", string(out)
	case errors.As(err, &exit):
		return "killed", string(out)
	}
	return "ERROR", err.Error()
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

func indent(s string) string { return "    " + strings.ReplaceAll(s, "\n", "\n    ") }
