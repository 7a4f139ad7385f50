package tools_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/server/tools"
)

// TestSchemasAreStrict: every input and output schema of every tool (and
// the trace, stats and failure schemas the OpenAPI document uses) passes
// the strict rules stock clients enforce.
func TestSchemasAreStrict(t *testing.T) {
	for _, tool := range tools.Catalog(true) {
		for which, s := range map[string]tools.Schema{"input": tool.Input, "output": tool.Output} {
			if err := tools.CheckStrict(s); err != nil {
				t.Errorf("%s %s schema: %v", tool.Name, which, err)
			}
			b, _ := json.Marshal(s)
			if strings.Contains(string(b), "4611686018427388000") || strings.Contains(string(b), "4611686018427387904") {
				t.Errorf("%s %s schema publishes the open end 2^62", tool.Name, which)
			}
		}
	}
	for name, s := range map[string]tools.Schema{"trace": tools.TraceSchema(), "stats": tools.StatsSchema(), "failure": tools.FailureSchema()} {
		if err := tools.CheckStrict(s); err != nil {
			t.Errorf("%s schema: %v", name, err)
		}
	}
}

// TestCheckStrictRefuses: each breach a stock client rejects is caught,
// with the path to it.
func TestCheckStrictRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, schema, want string
	}{
		{"boolean true property", `{"type":"object","properties":{"reading":true}}`, "/properties/reading"},
		{"boolean false items", `{"type":"object","properties":{"a":{"type":"array","items":false}}}`, "/properties/a/items"},
		{"null properties", `{"type":"object","properties":{"trace":{"type":"object","properties":null}}}`, "/properties/trace/properties"},
		{"additionalProperties true", `{"type":"object","additionalProperties":true}`, "/additionalProperties"},
		{"2^62 maximum", `{"type":"object","properties":{"t":{"type":"integer","maximum":4611686018427387904}}}`, "/properties/t/maximum"},
		{"2^62 default", `{"type":"object","properties":{"t":{"type":"integer","default":4611686018427387904}}}`, "/properties/t/default"},
		{"unknown keyword", `{"type":"object","properties":{"t":{"type":"integer","maximun":3}}}`, "/properties/t/maximun"},
		{"bad type", `{"type":"object","properties":{"t":{"type":"int"}}}`, "/properties/t/type"},
		{"required not listed", `{"type":"object","properties":{"a":{}},"required":["b"]}`, "/required"},
		{"not an object root", `{"type":"array"}`, "/type"},
	} {
		var s tools.Schema
		if err := json.Unmarshal([]byte(tc.schema), &s); err != nil {
			t.Fatal(err)
		}
		err := tools.CheckStrict(s)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want+":") {
			t.Errorf("%s: got %v, want an error at %s", tc.name, err, tc.want)
		}
	}
	ok := tools.Schema{"type": "object", "properties": tools.Schema{"t": tools.Schema{"type": "integer", "maximum": float64(tools.MaxSafeInteger), "x-tgms-uid": true}}, "additionalProperties": false}
	if err := tools.CheckStrict(ok); err != nil {
		t.Errorf("a strict schema refused: %v", err)
	}
}
