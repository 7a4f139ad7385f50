package mcpserver

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tgms-go/tgms/agent"
	"github.com/tgms-go/tgms/server/tools"
)

// PromptName is the planning prompt's name.
const PromptName = "plan"

// addPrompt registers the planning prompt: the LLM planner's own prompt
// (rules, the operator manual generated from the registry, worked
// examples, this store's dataset card) with the question appended.
func addPrompt(s *mcp.Server, svc *tools.Service) {
	s.AddPrompt(&mcp.Prompt{Name: PromptName, Title: "Plan a question over the operator algebra",
		Description: "How to write a TGMS plan for a question: the plan format, grounding, time and completeness rules, the operator manual and worked examples, generated from the registry like the built-in LLM planner's prompt.",
		Arguments: []*mcp.PromptArgument{
			{Name: "question", Description: "the question to plan", Required: true},
			{Name: "uids", Description: "comma-separated node uids the task supplies (default: the uids written in the question)"},
		}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			q := agent.Question{Text: req.Params.Arguments["question"], Card: agent.CardFor(svc.Store())}
			for _, u := range strings.Split(req.Params.Arguments["uids"], ",") {
				if u = strings.TrimSpace(u); u != "" {
					q.UIDs = append(q.UIDs, u)
				}
			}
			if q.UIDs == nil {
				q.UIDs = agent.MentionedUIDs(svc.Store(), q.Text)
			}
			system, _ := agent.PlannerPrompt(q.Card)
			body := system + "\n" + agent.AskMessage(q) +
				"\n\nThen call validate_plan with the plan and these uids, fix every violation it reports, run it with run_plan, and report only what it certifies."
			return &mcp.GetPromptResult{Description: "planning prompt for: " + q.Text,
				Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: body}}}}, nil
		})
}
