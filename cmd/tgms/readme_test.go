package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readmeCommands returns the tgms command lines of the README's "Using it"
// block, each split into arguments as a POSIX shell would (quotes, no
// expansions), comments dropped.
func readmeCommands(t *testing.T, readme string) [][]string {
	t.Helper()
	_, section, ok := strings.Cut(readme, "## Using it")
	if !ok {
		t.Fatal(`README.md has no "## Using it" section`)
	}
	_, block, ok := strings.Cut(section, "```sh\n")
	if !ok {
		t.Fatal(`the "Using it" section has no sh block`)
	}
	block, _, _ = strings.Cut(block, "```")
	var cmds [][]string
	for _, line := range strings.Split(block, "\n") {
		args := shellWords(t, line)
		if len(args) == 0 || args[0] == "go" {
			continue
		}
		if args[0] != "bin/tgms" {
			t.Fatalf("README command %q does not run bin/tgms", line)
		}
		cmds = append(cmds, args[1:])
	}
	return cmds
}

// shellWords splits a line into words: single and double quotes group,
// an unquoted # starts a comment.
func shellWords(t *testing.T, line string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == '#' && !inWord:
			return words
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		t.Fatalf("unbalanced quote in README line %q", line)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// Every command of the README's "Using it" section runs as written, in
// order, against the shipped examples/ and the SNAP files beside the
// repository, from a directory laid out like the repository root.
func TestREADMECommands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the README's commands on CollegeMsg and a 1M-event synthetic store")
	}
	needData(t, "CollegeMsg.txt.gz")
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	examples, _ := filepath.Abs("../../examples")
	shared, _ := filepath.Abs(filepath.Dir(sharedData))
	top := t.TempDir()
	root := filepath.Join(top, "repo")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(examples, filepath.Join(root, "examples")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(shared, filepath.Join(top, "shared")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	cmds := readmeCommands(t, string(readme))
	if len(cmds) < 20 {
		t.Fatalf("found only %d commands in the README", len(cmds))
	}
	for _, args := range cmds {
		out, errs, code := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("tgms %s: exit %d\nstdout: %.2000s\nstderr: %s", strings.Join(args, " "), code, out, errs)
		}
	}
	// The example answer's claim is certified against the example plan.
	out, _, _ := runCLI(t, "verify", "--trace", "trace.json", "--answer", "examples/answer.json")
	if !strings.Contains(out, "supported") || strings.Contains(out, "withheld") {
		t.Fatalf("the example answer is not certified:\n%s", out)
	}
}

func TestShellWords(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string
	}{
		{`bin/tgms a --x 'y z' "q r"  # note`, []string{"bin/tgms", "a", "--x", "y z", "q r"}},
		{`# only a comment`, nil},
		{`bin/tgms ask "what # is this?"`, []string{"bin/tgms", "ask", "what # is this?"}},
	} {
		if got := shellWords(t, c.line); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%q: %q, want %q", c.line, got, c.want)
		}
	}
}
