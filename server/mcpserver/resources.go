package mcpserver

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tgms-go/tgms/ops"
	"github.com/tgms-go/tgms/server/tools"
)

// Resource URIs.
const (
	ManualURI        = "tgms://manual"
	StatsURI         = "tgms://stats"
	TraceURITemplate = "tgms://trace/{digest}"
)

var traceURIRE = regexp.MustCompile(`^tgms://trace/([0-9a-f]{64})$`)

func addResources(s *mcp.Server, svc *tools.Service) {
	s.AddResource(&mcp.Resource{URI: ManualURI, Name: "manual", Title: "Operator manual", MIMEType: "text/markdown",
		Description: "The reference the tool list leaves out: every operator's semantics, tie rules, errors, row order, argument and result schemas with every field described, and every other tool's whole output schema (generated from the registry and the catalog)."},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return text(req.Params.URI, "text/markdown", Manual(svc.Tools())), nil
		})
	s.AddResource(&mcp.Resource{URI: StatsURI, Name: "stats", Title: "Store statistics", MIMEType: "application/json",
		Description: "Nodes, versions, batches, last transaction time, valid-time extent and relation types."},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			out, f := svc.Call(ctx, "stats", nil)
			if f != nil {
				return nil, f
			}
			b, err := tools.Marshal(out)
			if err != nil {
				return nil, err
			}
			return text(req.Params.URI, "application/json", string(b)), nil
		})
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: TraceURITemplate, Name: "trace", Title: "Execution trace", MIMEType: "application/json",
		Description: "A trace this server produced (run_plan, ask), by trace digest: the plan, every step's arguments, digests, evidence record and result."},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			m := traceURIRE.FindStringSubmatch(req.Params.URI)
			if m == nil {
				return nil, mcp.ResourceNotFoundError(req.Params.URI)
			}
			tr, ok := svc.Traces().Get(m[1])
			if !ok {
				return nil, mcp.ResourceNotFoundError(req.Params.URI)
			}
			b, err := tools.Marshal(tr)
			if err != nil {
				return nil, err
			}
			return text(req.Params.URI, "application/json", string(b)), nil
		})
}

func text(uri, mime, body string) *mcp.ReadResourceResult {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mime, Text: body}}}
}

// Manual is the whole reference, generated from the registry and the
// catalog: per operator its summary, manual text, row order and argument
// and result schemas; then every other tool's description and whole
// output schema.
func Manual(catalog []*tools.Tool) string {
	var b strings.Builder
	b.WriteString("# TGMS operators\n\nTimes are µs since the Unix epoch (UTC); windows are half-open {t_a, t_b}; as_of_tt pins the belief time.\n\n")
	for _, s := range ops.All() {
		fmt.Fprintf(&b, "## %s\n\n%s\n\n%s\n\n", s.Name, s.Summary, strings.TrimSpace(s.Doc))
		if s.Order != "" {
			fmt.Fprintf(&b, "Row order: %s\n\n", s.Order)
		}
		args, _ := tools.Marshal(s.Args)
		res, _ := tools.Marshal(s.Result)
		fmt.Fprintf(&b, "Arguments (JSON Schema):\n\n```json\n%s\n```\n\nResult (JSON Schema):\n\n```json\n%s\n```\n\n", args, res)
	}
	fmt.Fprintf(&b, "# Memory tools (remember, correct, retract, recall, why)\n\n%s\n\n", tools.MemoryDoc)
	b.WriteString("# Other tools\n\n")
	for _, t := range catalog {
		if t.Operator != nil {
			continue
		}
		out, _ := tools.Marshal(t.Reference)
		fmt.Fprintf(&b, "## %s\n\n%s\n\nOutput (JSON Schema):\n\n```json\n%s\n```\n\n", t.Name, t.Description, out)
	}
	return b.String()
}
