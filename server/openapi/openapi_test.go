package openapi_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/server/openapi"
	"github.com/tgms-go/tgms/server/tools"
)

// TestDocument: the document is OpenAPI 3.1 JSON with one operation per
// tool whose schemas are the tool's, every $ref resolves, and operation
// ids are unique.
func TestDocument(t *testing.T) {
	catalog := tools.Catalog(true)
	b, err := openapi.JSON(catalog, "test")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["openapi"] != "3.1.0" {
		t.Fatalf("openapi %v", doc["openapi"])
	}
	paths := doc["paths"].(map[string]any)
	ids := map[string]bool{}
	for p, item := range paths {
		for _, op := range item.(map[string]any) {
			id := op.(map[string]any)["operationId"].(string)
			if ids[id] {
				t.Errorf("operationId %s twice", id)
			}
			ids[id] = true
			if _, ok := op.(map[string]any)["responses"].(map[string]any)["200"]; !ok && !strings.Contains(p, "traces") {
				t.Errorf("%s: no 200 response", p)
			}
		}
	}
	published := map[string]*tools.Tool{}
	for _, tool := range tools.Catalog(true) {
		published[tool.Name] = tool
	}
	for _, spec := range ops.All() {
		post, ok := paths["/v1/"+spec.Name].(map[string]any)["post"].(map[string]any)
		if !ok || post["tags"].([]any)[0] != "operators" {
			t.Fatalf("operator %s has no POST operation", spec.Name)
		}
		got, _ := json.Marshal(post["requestBody"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)["schema"])
		want, _ := json.Marshal(published[spec.Name].Input)
		var g, w any
		json.Unmarshal(got, &g)
		json.Unmarshal(want, &w)
		if string(mustJSON(g)) != string(mustJSON(w)) {
			t.Errorf("%s: request schema is not the catalog's published argument schema", spec.Name)
		}
	}
	if _, ok := paths["/v1/write_batch"].(map[string]any)["post"].(map[string]any)["responses"].(map[string]any)["403"]; !ok {
		t.Errorf("write_batch does not document the read-only refusal")
	}
	for _, ref := range refs(doc) {
		name, ok := strings.CutPrefix(ref, "#/components/schemas/")
		if !ok || doc["components"].(map[string]any)["schemas"].(map[string]any)[name] == nil {
			t.Errorf("$ref %s does not resolve", ref)
		}
	}
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }

func refs(v any) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && k == "$ref" {
				out = append(out, s)
			}
			out = append(out, refs(e)...)
		}
	case []any:
		for _, e := range x {
			out = append(out, refs(e)...)
		}
	}
	return out
}
