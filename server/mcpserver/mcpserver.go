// Package mcpserver serves the tool catalog (package tools) over the Model
// Context Protocol with the official Go SDK: every catalog tool as an MCP
// tool with its generated input and output schemas, traces and the
// operator manual as resources, and a planning prompt generated from the
// registry.
//
// A tool call returns its output as structured content and as JSON text.
// A refused call is a tool error (isError) whose text is the JSON
// {"error": {code, message, rule, path, hint, violations}}, so an agent
// reads the violations and repairs the call; it has no structured content,
// since that must match the tool's output schema. A read-only server does
// not list the write tools; calling one is such a tool error with code
// E_READONLY.
package mcpserver

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/server/tools"
)

// Version is the server version reported to clients.
const Version = "0.1.0"

// New builds the MCP server over a service.
func New(svc *tools.Service) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "tgms", Title: "TGMS bi-temporal graph database", Version: Version}, &mcp.ServerOptions{
		Instructions: instructions,
	})
	for _, t := range svc.Tools() {
		s.AddTool(&mcp.Tool{
			Name: t.Name, Description: t.Description, InputSchema: t.Input, OutputSchema: t.Output,
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: !t.Writes, IdempotentHint: !t.Writes, OpenWorldHint: ptr(false)},
		}, handler(svc, t.Name))
	}
	addResources(s, svc)
	addPrompt(s, svc)
	s.AddReceivingMiddleware(refuseWrites(svc))
	return s
}

// refuseWrites answers a call of a write tool that a read-only server
// does not list with the service's structured refusal (E_READONLY, and
// how to allow writes) instead of the protocol's bare "unknown tool".
func refuseWrites(svc *tools.Service) mcp.Middleware {
	listed := map[string]bool{}
	for _, t := range svc.Tools() {
		listed[t.Name] = true
	}
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if call, ok := req.(*mcp.CallToolRequest); ok && method == "tools/call" && call.Params != nil && !listed[call.Params.Name] && slices.Contains(tools.WriteTools, call.Params.Name) {
				_, f := svc.Call(ctx, call.Params.Name, nil)
				return failure(f), nil
			}
			return next(ctx, method, req)
		}
	}
}

func ptr[T any](v T) *T { return &v }

const instructions = `TGMS is a bi-temporal temporal-graph database. Never answer from memory:
call an operator tool, or write a plan (see the "plan" prompt and the
tgms://manual resource), check it with validate_plan, run it with run_plan,
and state only what verify_answer certifies. Every refusal carries
violations {code, rule, path, hint, allowed}: fix what they name and retry.`

// handler adapts a catalog tool to an MCP tool handler.
func handler(svc *tools.Service, name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args := map[string]any{}
		if raw := req.Params.Arguments; len(raw) > 0 && string(raw) != "null" {
			v, err := canon.Parse(raw)
			m, isObj := v.(map[string]any)
			if err != nil || !isObj {
				return failure(&tools.Failure{Code: "E_SCHEMA", Message: "tool arguments must be one JSON object"}), nil
			}
			args = m
		}
		out, f := svc.Call(ctx, name, args)
		if f != nil {
			return failure(f), nil
		}
		b, err := marshal(out)
		if err != nil {
			return failure(&tools.Failure{Code: "E_INTERNAL", Message: err.Error()}), nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b)}, nil
	}
}

// failure is a tool error: its text is the JSON {"error": Failure}. It
// carries no structured content, which clients check against the tool's
// output schema (the TypeScript SDK does so for errors too).
func failure(f *tools.Failure) *mcp.CallToolResult {
	b, _ := marshal(map[string]any{"error": f})
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}
}

// marshal renders a tool output as JSON without HTML escaping.
func marshal(v any) ([]byte, error) {
	if raw, ok := v.(json.RawMessage); ok {
		return raw, nil
	}
	return tools.Marshal(v)
}
