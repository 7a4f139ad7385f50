package llm

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNoJSON is wrapped by ExtractJSON's errors.
var ErrNoJSON = errors.New("llm: no JSON object in the model output")

// ExtractJSON returns the JSON text in a model's output, following the
// reference system's rule (anchor contracts §6.2):
//
//  1. Remove <think>…</think> blocks. An unclosed <think> drops the rest of
//     the text; a </think> with no opening tag (a chat template that opens
//     the block in the prompt) drops everything before it.
//  2. If what remains, trimmed, is exactly one fenced block (```…```), return
//     its body.
//  3. Else return the body of the first fenced block whose body starts
//     with '{'.
//  4. Else return the balanced {…} that starts at the first '{', matching
//     braces outside JSON strings only.
//  5. Else fail with an error wrapping ErrNoJSON.
//
// The result is a substring of text with the think blocks removed, trimmed
// of surrounding white space. It is not parsed: the caller's strict JSON
// parse reports syntax errors. No other repair is attempted.
func ExtractJSON(text string) (string, error) {
	s := stripThink(text)
	t := strings.TrimSpace(s)
	if t == "" {
		if strings.TrimSpace(text) == "" {
			return "", fmt.Errorf("%w: the output is empty", ErrNoJSON)
		}
		return "", fmt.Errorf("%w: the output holds only a <think> block", ErrNoJSON)
	}
	blocks := fences(t)
	if len(blocks) == 1 && blocks[0].start == 0 && blocks[0].end == len(t) {
		body := strings.TrimSpace(blocks[0].body)
		if body == "" {
			return "", fmt.Errorf("%w: the output is an empty fenced block", ErrNoJSON)
		}
		return body, nil
	}
	for _, b := range blocks {
		if body := strings.TrimSpace(b.body); strings.HasPrefix(body, "{") {
			return body, nil
		}
	}
	open := strings.IndexByte(t, '{')
	if open < 0 {
		return "", fmt.Errorf("%w: no '{' in %s", ErrNoJSON, preview(t))
	}
	if end := matchBrace(t, open); end > 0 {
		return t[open:end], nil
	}
	return "", fmt.Errorf("%w: the object opened at byte %d is never closed (output cut short? raise MaxTokens)", ErrNoJSON, open)
}

// stripThink removes reasoning blocks.
func stripThink(s string) string {
	const open, close = "<think>", "</think>"
	if i, j := strings.Index(s, close), strings.Index(s, open); i >= 0 && (j < 0 || i < j) {
		s = s[i+len(close):]
	}
	var b strings.Builder
	for {
		i := strings.Index(s, open)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		rest := s[i+len(open):]
		j := strings.Index(rest, close)
		if j < 0 {
			return b.String()
		}
		s = rest[j+len(close):]
	}
}

type fence struct {
	start, end int // the block, fences included, in the searched text
	body       string
}

// fences finds ``` blocks. An opening fence is ``` followed by an optional
// info string up to the end of its line; the block runs to the next ```.
func fences(s string) []fence {
	var out []fence
	pos := 0
	for {
		i := strings.Index(s[pos:], "```")
		if i < 0 {
			return out
		}
		start := pos + i
		after := start + 3
		bodyStart := after
		if nl := strings.IndexByte(s[after:], '\n'); nl >= 0 {
			info := strings.TrimSpace(s[after : after+nl])
			if !strings.ContainsAny(info, "{}[\"`") {
				bodyStart = after + nl + 1
			}
		}
		j := strings.Index(s[bodyStart:], "```")
		if j < 0 {
			return out
		}
		bodyEnd := bodyStart + j
		out = append(out, fence{start: start, end: bodyEnd + 3, body: s[bodyStart:bodyEnd]})
		pos = bodyEnd + 3
	}
}

// matchBrace returns the index just past the '}' closing the '{' at open,
// or -1. Braces inside JSON strings do not count.
func matchBrace(s string, open int) int {
	depth := 0
	inStr := false
	for i := open; i < len(s); i++ {
		c := s[i]
		if inStr {
			switch c {
			case '\\':
				i++
			case '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

func preview(s string) string {
	const max = 80
	if len(s) <= max {
		return fmt.Sprintf("%q", s)
	}
	cut := max
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return fmt.Sprintf("%q…", s[:cut])
}
