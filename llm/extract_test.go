package llm

import (
	"errors"
	"strings"
	"testing"
)

func TestExtractJSON(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string // "" means an error wrapping ErrNoJSON
		msg  string // substring of the error
	}{
		{"bare object", `{"a":1}`, `{"a":1}`, ""},
		{"surrounding space", "\n  {\"a\":1}\n\n", `{"a":1}`, ""},
		{"think block", "<think>maybe {\"a\":0}?</think>\n{\"a\":1}", `{"a":1}`, ""},
		{"two think blocks", "<think>x</think>{\"a\":1}<think>{\"b\":2}</think>", `{"a":1}`, ""},
		{"close tag only", "reasoning {\"no\":1} here</think>{\"a\":1}", `{"a":1}`, ""},
		{"unclosed think", "<think>still thinking {\"a\":1}", "", "only a <think> block"},
		{"whole fenced json", "```json\n{\"a\":1}\n```", `{"a":1}`, ""},
		{"whole fenced no info", "```\n{\"a\":1}\n```", `{"a":1}`, ""},
		{"whole fenced one line", "```{\"a\":1}```", `{"a":1}`, ""},
		{"whole fenced array", "```json\n[1,2]\n```", `[1,2]`, ""},
		{"fence after think", "<think>plan</think>\n```json\n{\"a\":1}\n```", `{"a":1}`, ""},
		{"prose then fence", "Here is the plan:\n```json\n{\"a\":1}\n```\nDone.", `{"a":1}`, ""},
		{"first fence not an object", "```sql\nSELECT 1\n```\nthen\n```json\n{\"a\":2}\n```", `{"a":2}`, ""},
		{"prose around json", `Sure! The plan is {"steps":[{"id":"s1"}]} — hope it helps.`, `{"steps":[{"id":"s1"}]}`, ""},
		{"nested braces in strings", `x {"q":"a } b { c","n":{"m":"\"}"}} y`, `{"q":"a } b { c","n":{"m":"\"}"}}`, ""},
		{"escaped backslash before quote", `{"p":"C:\\","q":"}"} tail`, `{"p":"C:\\","q":"}"}`, ""},
		{"first of two objects", `{"a":1} and {"b":2}`, `{"a":1}`, ""},
		{"invalid json returned as is", `{a:1}`, `{a:1}`, ""},
		{"unterminated fence falls through", "```json\n{\"a\":1}", `{"a":1}`, ""},
		{"no json", "I cannot answer that.", "", "no '{'"},
		{"empty", "   ", "", "empty"},
		{"unbalanced", `The plan: {"a": {"b": 1}`, "", "never closed"},
		{"fence without object", "```\nhello\n``` and more", "", "no '{'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ExtractJSON(tt.in)
			if tt.want == "" {
				if err == nil {
					t.Fatalf("ExtractJSON(%q) = %q, want an error", tt.in, got)
				}
				if !errors.Is(err, ErrNoJSON) || !strings.Contains(err.Error(), tt.msg) {
					t.Errorf("error %q: want ErrNoJSON mentioning %q", err, tt.msg)
				}
				return
			}
			if err != nil {
				t.Fatalf("ExtractJSON(%q): %v", tt.in, err)
			}
			if got != tt.want {
				t.Errorf("ExtractJSON(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func FuzzExtractJSON(f *testing.F) {
	for _, s := range []string{
		`{"a":1}`, "<think>x</think>{}", "```json\n{}\n```", "``````", "```",
		`{"a":"\"}"}`, `{"a":"\`, "</think><think>", "{{{{", "}}}}", "```\n{\n```\n{}",
		"\xff{\"\xfe\":1}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ExtractJSON(s)
		if err != nil {
			if !errors.Is(err, ErrNoJSON) {
				t.Fatalf("error %v does not wrap ErrNoJSON", err)
			}
			return
		}
		if got == "" {
			t.Fatalf("ExtractJSON(%q) returned an empty string without error", s)
		}
		if !strings.Contains(stripThink(s), got) {
			t.Fatalf("ExtractJSON(%q) = %q, not a substring of the think-stripped input", s, got)
		}
	})
}
