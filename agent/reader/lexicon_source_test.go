package reader

import (
	"bufio"
	"encoding/json"
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The suite generator's question templates.
var generatorFiles = []string{"../../eval/templates.go", "../../eval/planted.go", "../../eval/probes.go"}

var wordRE = regexp.MustCompile(`[\p{L}\p{N}_µμδ]+`)

func wordsOf(s string) []string {
	return wordRE.FindAllString(strings.ToLower(strings.ReplaceAll(s, "-", " ")), -1)
}

// generatorTexts are the string literals of the generator's files, cut at
// every format verb.
func generatorTexts(t *testing.T) [][][2]string {
	var out [][][2]string
	fset := gotoken.NewFileSet()
	for _, f := range generatorFiles {
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		// The question forms are the arguments of para(p, form, …), each a
		// fmt.Sprintf format or a plain string.
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "para" {
				return true
			}
			for _, a := range call.Args[1:] {
				if c, ok := a.(*ast.CallExpr); ok && len(c.Args) > 0 {
					a = c.Args[0]
				}
				lit, ok := a.(*ast.BasicLit)
				if !ok || lit.Kind != gotoken.STRING {
					continue
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					continue
				}
				for _, part := range regexp.MustCompile(`%[a-z]`).Split(s, -1) {
					out = append(out, stemmed(wordsOf(part)))
				}
			}
			return true
		})
	}
	return out
}

// independentQuestions are questions written without the generator: the
// reader's own corpus and every corpus under shared/reader-dev.
func independentQuestions(t *testing.T) [][][2]string {
	var out [][][2]string
	f, err := os.Open("../testdata/corpus.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.Count(line, "|") < 3 {
			continue
		}
		parts := strings.SplitN(line, "|", 4)
		out = append(out, stemmed(wordsOf(parts[3])))
	}
	shared := ""
	wd, _ := os.Getwd()
	for d := wd; filepath.Dir(d) != d; d = filepath.Dir(d) {
		if fi, err := os.Stat(filepath.Join(d, "shared", "reader-dev")); err == nil && fi.IsDir() {
			shared = filepath.Join(d, "shared", "reader-dev")
			break
		}
	}
	if v := os.Getenv("TGMS_READER_DEV"); v != "" {
		shared = v
	}
	if shared == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true: shared/reader-dev is missing")
		}
		t.Log("shared/reader-dev not found: only the reader's own corpus counts")
		return out
	}
	qs, _ := filepath.Glob(filepath.Join(shared, "*", "questions.json"))
	if len(qs) == 0 && os.Getenv("CI") == "true" {
		t.Fatalf("CI=true: no questions.json under %s", shared)
	}
	for _, p := range qs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var items []struct {
			Question string `json:"question"`
		}
		if err := json.Unmarshal(b, &items); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, it := range items {
			out = append(out, stemmed(wordsOf(it.Question)))
		}
	}
	return out
}

// stemmed pairs each word with its stem.
func stemmed(ws []string) [][2]string {
	out := make([][2]string, len(ws))
	for i, w := range ws {
		out[i] = [2]string{w, stem(w)}
	}
	return out
}

// occurs reports whether the entry's words occur in a row in a document,
// read as the reader reads them (same word, abbreviation or stem).
func occurs(entry []string, docs [][][2]string) bool {
	e := stemmed(entry)
	for _, d := range docs {
	next:
		for i := 0; i+len(e) <= len(d); i++ {
			for k, w := range e {
				t := d[i+k]
				if t[0] != w[0] && abbreviations[t[0]] != w[0] && (len(t[0]) <= 3 || len(w[0]) <= 3 || t[1] != w[1]) {
					continue next
				}
			}
			return true
		}
	}
	return false
}

// TestNoGeneratorOnlyVocabulary fails when a lexicon entry (a phrase or a
// word, synonyms included) occurs in the generator's templates but in no
// independently written question: such an entry exists only to read the
// generator's own sentences, and a suite score built on it measures
// nothing.
func TestNoGeneratorOnlyVocabulary(t *testing.T) {
	gen, ind := generatorTexts(t), independentQuestions(t)
	var entries [][]string
	for _, ph := range phrases {
		entries = append(entries, wordsOf(ph.words))
	}
	for w := range words {
		entries = append(entries, wordsOf(w))
	}
	for _, e := range entries {
		if len(e) == 0 {
			continue
		}
		if occurs(e, gen) && !occurs(e, ind) {
			t.Errorf("lexicon entry %q occurs in the generator's templates and in no independently written question", strings.Join(e, " "))
		}
	}
}

// The check can fail: a phrase only the generator writes is caught.
func TestGeneratorOnlyVocabularyIsCaught(t *testing.T) {
	gen := [][][2]string{stemmed(wordsOf("how many nodes can n1 reach (each edge no earlier than the one before)"))}
	ind := [][][2]string{stemmed(wordsOf("how many nodes can n1 reach"))}
	if e := wordsOf("each edge no earlier than the one before"); !occurs(e, gen) || occurs(e, ind) {
		t.Fatal("a generator-only phrase was not told apart")
	}
}
