// Package server is `tgms serve`: one process that owns a store and offers
// it to agents and people three ways, all generated from one tool catalog
// (package tools):
//
//   - an MCP server (package mcpserver, the official Go SDK) over stdio,
//     what desktop agents launch, and over streamable HTTP at /mcp;
//   - a JSON API under /v1 (package httpapi) with its OpenAPI document
//     (package openapi);
//   - a web console at / (package console), embedded in the binary.
//
// Security by default: listeners bind loopback only, and a non-loopback
// address is refused unless a bearer token is set (compared in constant
// time); on loopback, requests whose Host is not a loopback name are
// refused (DNS rebinding) and cross-origin browser requests are refused;
// the store is read-only unless writes are allowed; request bodies are
// capped (4 MiB) and must arrive within a read timeout, headers within a
// header timeout, idle connections close, connections per listener are
// capped, and a wrong token is refused on the headers before any body is
// read; every call has a deadline, heavy calls are bounded in number, and
// operator calls and plans pass the cost guard. Every HTTP refusal, from
// any layer, is the JSON {"error": {code, message, rule, path, hint,
// violations}}. No request
// names a file: traces are kept in memory by digest, so nothing a client
// sends reaches the filesystem.
package server
