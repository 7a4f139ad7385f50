package agent

import (
	"context"
	"errors"
	"fmt"

	"github.com/tgms-go/tgms/llm"
)

// Completer is the one method of a chat client the LLM planner needs;
// llm.Client satisfies it.
type Completer interface {
	Complete(ctx context.Context, req llm.Request) (llm.Response, error)
}

// LLMPlanner writes plans with a language model over any OpenAI-compatible
// endpoint (the client's temperature is 0 by default). The prompt is
// PlannerPrompt; the plan is the JSON extracted from the reply; a repair
// replays the conversation with the rejected reply and the structured
// rejection payload. It keeps the conversation of the question it is
// planning: use one LLMPlanner per question at a time.
type LLMPlanner struct {
	Client    Completer
	MaxTokens int // 0: 4096
	// Usage accumulates the tokens the planner spent.
	Usage llm.Usage
	// conversation so far, for repairs
	msgs []llm.Message
}

// NewLLMPlanner builds a planner over an OpenAI-compatible endpoint.
func NewLLMPlanner(baseURL, model, apiKey string) (*LLMPlanner, error) {
	c, err := llm.New(llm.Config{BaseURL: baseURL, Model: model, APIKey: apiKey})
	if err != nil {
		return nil, err
	}
	return &LLMPlanner{Client: c}, nil
}

// Plan asks the model for a first plan.
func (p *LLMPlanner) Plan(ctx context.Context, q Question) ([]byte, error) {
	sys, _ := PlannerPrompt(q.Card)
	p.msgs = []llm.Message{{Role: llm.RoleSystem, Content: sys}, {Role: llm.RoleUser, Content: AskMessage(q)}}
	return p.complete(ctx)
}

// Repair sends the rejected plan back with the rejection payload. The
// whole attempt history stays in the conversation, so the model does not
// repeat an earlier mistake.
func (p *LLMPlanner) Repair(ctx context.Context, q Question, previous []byte, feedback []byte) ([]byte, error) {
	if len(p.msgs) == 0 {
		sys, _ := PlannerPrompt(q.Card)
		p.msgs = []llm.Message{{Role: llm.RoleSystem, Content: sys}, {Role: llm.RoleUser, Content: AskMessage(q)}}
	}
	p.msgs = append(p.msgs,
		llm.Message{Role: llm.RoleAssistant, Content: string(previous)},
		llm.Message{Role: llm.RoleUser, Content: "That plan was rejected:\n" + string(feedback) + "\nEmit a corrected plan as one JSON object only."})
	return p.complete(ctx)
}

func (p *LLMPlanner) complete(ctx context.Context) ([]byte, error) {
	if p.Client == nil {
		return nil, errors.New("llm planner: no client configured (--model and --api-base)")
	}
	mt := p.MaxTokens
	if mt == 0 {
		mt = 4096
	}
	resp, err := p.Client.Complete(ctx, llm.Request{Messages: append([]llm.Message(nil), p.msgs...), MaxTokens: mt})
	if err != nil {
		return nil, fmt.Errorf("llm planner: %w", err)
	}
	p.Usage.PromptTokens += resp.Usage.PromptTokens
	p.Usage.CompletionTokens += resp.Usage.CompletionTokens
	p.Usage.TotalTokens += resp.Usage.TotalTokens
	js, err := llm.ExtractJSON(resp.Text)
	if err != nil {
		// Not JSON at all: hand the raw text to the contract, which
		// answers with an E_SCHEMA rejection the model can act on.
		return []byte(resp.Text), nil
	}
	return []byte(js), nil
}
