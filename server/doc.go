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
// capped (4 MiB), every call has a deadline, heavy calls are bounded in
// number, and operator calls and plans pass the cost guard. No request
// names a file: traces are kept in memory by digest, so nothing a client
// sends reaches the filesystem.
package server
