package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzPublish: publish and CheckStrict never panic on any JSON object,
// and what publish returns has none of the breaches it removes: boolean
// sub-schemas, null keywords, numbers beyond ±(2^53-1).
func FuzzPublish(f *testing.F) {
	f.Add([]byte(`{"type":"object","properties":{"reading":true,"trace":{"type":"object","properties":null}}}`))
	f.Add([]byte(`{"type":"object","properties":{"t":{"type":"integer","maximum":4611686018427387904,"default":4611686018427387904}}}`))
	f.Add([]byte(`{"type":"object","properties":{"window":{"type":"object","properties":{"t_a":{"type":"integer"},"t_b":{"type":"integer","description":"end"}},"required":["t_a","t_b"]}}}`))
	f.Add([]byte(`{"type":"object","items":[true,false,{"not":true}],"anyOf":[],"additionalProperties":true}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s Schema
		if json.Unmarshal(data, &s) != nil || s == nil {
			return
		}
		for _, r := range []role{input, output} {
			var c Schema
			json.Unmarshal(data, &c) // publish may share sub-values; start fresh
			p := publish(c, r)
			p["type"] = "object"
			err := CheckStrict(p)
			if err != nil && (strings.Contains(err.Error(), "boolean") || strings.Contains(err.Error(), "null is not") || strings.Contains(err.Error(), "2^53")) {
				t.Fatalf("published %s still breaks: %v", data, err)
			}
		}
		CheckStrict(s)
	})
}
