package tools

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"unicode/utf8"

	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/plan"
)

// maxEcho is the longest piece of a request a reply repeats whole; a
// longer one comes back as its beginning, its length and its digest.
const maxEcho = 1024

// clip shortens a string a reply would echo.
func clip(s string) string {
	if len(s) <= maxEcho {
		return s
	}
	cut := maxEcho / 2
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	sum := sha256.Sum256([]byte(s))
	return fmt.Sprintf("%s… (%d bytes in all, sha256 %s)", s[:cut], len(s), hex.EncodeToString(sum[:]))
}

// clipValue clips every long string inside a value that marshals to JSON
// (a reading, a plan); a value with none is returned as it was.
func clipValue(v any) any {
	if v == nil {
		return nil
	}
	b, err := Marshal(v)
	if err != nil || len(b) <= maxEcho {
		return v
	}
	parsed, err := canon.Parse(b)
	if err != nil {
		return v
	}
	changed := false
	var walk func(any) any
	walk = func(x any) any {
		switch y := x.(type) {
		case string:
			if len(y) > maxEcho {
				changed = true
				return clip(y)
			}
		case map[string]any:
			for k, e := range y {
				y[k] = walk(e)
			}
		case []any:
			for i, e := range y {
				y[i] = walk(e)
			}
		}
		return x
	}
	parsed = walk(parsed)
	if !changed {
		return v
	}
	return parsed
}

func clipViolations(vs []plan.Violation) []plan.Violation {
	for i := range vs {
		vs[i].Message, vs[i].Hint, vs[i].Path = clip(vs[i].Message), clip(vs[i].Hint), clip(vs[i].Path)
	}
	return vs
}
