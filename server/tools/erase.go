package tools

import (
	"context"
	"errors"

	tgms "github.com/tgms-go/tgms"
	_ "github.com/tgms-go/tgms/answers" // rewrites saved answers for an erase
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/ops"
)

// eraseTool is the erase tool (only with writes): 'tgms erase' over MCP
// and HTTP.
func eraseTool() *Tool {
	return &Tool{
		Name:        "erase",
		Description: "Erase a node's contents (label, props, names; with edges: true also its incident edges' props) from every file of the store: the event log, the checkpoint and the saved answers that hold them. Each erased version stays as a tombstone (identity, times, SHA-256 of its content), so digests, replay and check still verify; the erase is itself a batch. Traces that read the content can no longer be reproduced (trace verify says ERASED). Copies outside the store (exported files, traces you keep, backups) are not touched. An unknown uid, or one already erased, is refused and nothing changes.",
		Input: object("the node to erase", Schema{
			"uid":   Schema{"type": "string", "minLength": 1, "description": "the node's uid (exact)"},
			"edges": Schema{"type": "boolean", "description": "also erase the props of its incident edges (default false)"},
		}, "uid"),
		Output: inferred[tgms.EraseResult](),
		Writes: true,
		Heavy:  true,
		run:    eraseRun,
	}
}

func eraseRun(_ context.Context, s *Service, args map[string]any) (any, *Failure) {
	if f := closedArgs(args, "uid", "edges"); f != nil {
		return nil, f
	}
	uid, f := strArg(args, "uid", true)
	if f != nil {
		return nil, f
	}
	edges := false
	if v, ok := args["edges"]; ok && v != nil {
		b, ok := v.(bool)
		if !ok {
			return nil, badArg("/edges", "true or false", "edges must be a boolean")
		}
		edges = b
	}
	if s.db == nil || s.writer == nil {
		return nil, fail(statusUnprocessed, EWrite, "write.erase", "", "serve a store directory with --allow-writes", nil, "this server cannot erase: it serves no writable store directory")
	}
	s.answersMu.Lock()
	defer s.answersMu.Unlock()
	res, err := s.db.Erase(uid, edges)
	if err != nil {
		code, status := EWrite, statusUnprocessed
		if errors.Is(err, bt.ErrNothingToErase) || errors.Is(err, bt.ErrNoSuchNode) {
			code, status = ops.ENotFound, statusNotFound
		}
		return nil, fail(status, code, "write.erase", "/uid", "check the uid with resolve_entities or entity_history; nothing was erased", nil, "%v", err)
	}
	return res, nil
}
