// Package openapi generates the OpenAPI 3.1 document of the HTTP API from
// the tool catalog (package tools): one POST path per tool, whose request
// and response schemas are the tool's generated input and output schemas,
// and every refusal described by one Failure schema. Nothing in it is
// written by hand but the few routes that are not tools.
package openapi

import (
	"github.com/tgms-go/tgms/server/tools"
)

// Document builds the OpenAPI document for a catalog.
func Document(catalog []*tools.Tool, version string) map[string]any {
	failure := map[string]any{"$ref": "#/components/schemas/Failure"}
	errorResponse := func(desc string) map[string]any {
		return map[string]any{"description": desc, "content": map[string]any{"application/json": map[string]any{
			"schema": map[string]any{"type": "object", "properties": map[string]any{"error": failure}, "required": []string{"error"}}}}}
	}
	errors := map[string]any{
		"400": errorResponse("bad arguments or JSON"),
		"401": errorResponse("missing or wrong bearer token"),
		"404": errorResponse("unknown tool, uid or trace"),
		"413": errorResponse("the body is over the size limit"),
		"422": errorResponse("a rejected plan or batch, or a call over the cost bound"),
		"503": errorResponse("too many heavy calls, or past the deadline"),
	}
	ok := func(desc string, schema any) map[string]any {
		return map[string]any{"description": desc, "content": map[string]any{"application/json": map[string]any{"schema": schema}}}
	}
	paths := map[string]any{}
	for _, t := range catalog {
		responses := map[string]any{"200": ok("the tool's output", t.Output)}
		for k, v := range errors {
			responses[k] = v
		}
		if t.Writes {
			responses["403"] = errorResponse("the server is read-only")
		}
		tag := "tools"
		if t.Operator != nil {
			tag = "operators"
		}
		paths["/v1/"+t.Name] = map[string]any{"post": map[string]any{
			"operationId": t.Name, "summary": summary(t.Description), "description": t.Description, "tags": []string{tag},
			"requestBody": map[string]any{"required": true, "content": map[string]any{"application/json": map[string]any{"schema": t.Input}}},
			"responses":   responses,
		}}
	}
	paths["/v1/tools"] = map[string]any{"get": map[string]any{"operationId": "list_tools", "summary": "Every tool with its input and output schemas",
		"responses": map[string]any{"200": ok("the tools", map[string]any{"type": "object"})}}}
	paths["/v1/traces/{digest}"] = map[string]any{"get": map[string]any{"operationId": "get_trace", "summary": "A trace this server produced",
		"parameters": []any{map[string]any{"name": "digest", "in": "path", "required": true, "schema": map[string]any{"type": "string", "pattern": "^[0-9a-f]{64}$"}}},
		"responses":  map[string]any{"200": ok("the trace", tools.TraceSchema()), "404": errorResponse("no such trace on this server")}}}
	paths["/v1/openapi.json"] = map[string]any{"get": map[string]any{"operationId": "openapi", "summary": "This document",
		"responses": map[string]any{"200": ok("the OpenAPI document", map[string]any{"type": "object"})}}}
	if p, has := paths["/v1/stats"].(map[string]any); has {
		p["get"] = map[string]any{"operationId": "stats_get", "summary": "The store's statistics",
			"responses": map[string]any{"200": ok("the statistics", tools.StatsSchema())}}
	}
	return map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{"title": "TGMS HTTP API", "version": version,
			"description": "The tools of tgms serve: the operator algebra, the plan contract, the executor, the evidence contract and the question reader over one bi-temporal store. Every refusal carries violations {code, rule, path, hint, allowed}."},
		"paths":      paths,
		"components": map[string]any{"schemas": map[string]any{"Failure": tools.FailureSchema()}, "securitySchemes": map[string]any{"bearer": map[string]any{"type": "http", "scheme": "bearer"}}},
		"security":   []any{map[string]any{"bearer": []any{}}, map[string]any{}},
	}
}

// summary is a description's first sentence.
func summary(desc string) string {
	for i := 0; i+1 < len(desc); i++ {
		if desc[i] == '.' && desc[i+1] == ' ' {
			return desc[:i+1]
		}
	}
	return desc
}

// JSON renders the document.
func JSON(catalog []*tools.Tool, version string) ([]byte, error) {
	return tools.Marshal(Document(catalog, version))
}
