package agent

import (
	"context"
	"errors"
	"fmt"

	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/exec"
	"github.com/tgms-go/tgms/ops"
)

// Question is what a planner is asked: the text, the node identifiers the
// task supplied (the only literal uids a plan may use), and the dataset
// card.
type Question struct {
	Text string      `json:"text"`
	UIDs []string    `json:"uids"`
	Card DatasetCard `json:"card"`
}

// DatasetCard describes a store to a planner without any graph structure:
// the valid-time extent, sizes and relation types.
type DatasetCard struct {
	VtMin        int64    `json:"vt_min"`
	VtMax        int64    `json:"vt_max"`
	Nodes        int64    `json:"n_entities"`
	NodeVersions int64    `json:"n_node_versions"`
	EdgeVersions int64    `json:"n_edge_versions"`
	RelTypes     []string `json:"rel_types"`
	LastTT       int64    `json:"last_tt"`
}

// Stats are the store statistics the plan contract reads.
func (c DatasetCard) Stats() *ops.Stats {
	return &ops.Stats{Nodes: c.Nodes, NodeVersions: c.NodeVersions, EdgeVersions: c.EdgeVersions, VtMin: c.VtMin, VtMax: c.VtMax}
}

// Store is what the agent needs of a database; *tgms.DB satisfies it.
type Store interface {
	exec.Source
	Stats() engine.Stats
}

// CardFor builds the dataset card of a store.
func CardFor(db Store) DatasetCard {
	st := db.Stats()
	rt := st.RelTypes
	if rt == nil {
		rt = []string{}
	}
	return DatasetCard{VtMin: st.VtMin, VtMax: st.VtMax, Nodes: int64(st.Nodes), NodeVersions: int64(st.NodeVersions),
		EdgeVersions: int64(st.EdgeVersions), RelTypes: rt, LastTT: db.LastTT()}
}

// Planner writes plans. Plan emits a first plan for a question; Repair
// emits a new plan given the previous one and why it failed: the
// rejection payload (static violations, E_PLAN_INVALID) or a runtime
// error payload, both canonical JSON.
type Planner interface {
	Plan(ctx context.Context, q Question) ([]byte, error)
	Repair(ctx context.Context, q Question, previous []byte, feedback []byte) ([]byte, error)
}

// ErrUnsupported is wrapped by every UnsupportedQuestionError.
var ErrUnsupported = errors.New("unsupported question")

// ErrUnsupportedQuestion says a planner does not understand the question
// and refuses rather than guess.
type ErrUnsupportedQuestion struct {
	Question string
	Reason   string
}

func (e *ErrUnsupportedQuestion) Error() string {
	if e.Reason != "" {
		return fmt.Sprintf("unsupported question: %q (%s)", e.Question, e.Reason)
	}
	return fmt.Sprintf("unsupported question: %q", e.Question)
}

func (e *ErrUnsupportedQuestion) Unwrap() error { return ErrUnsupported }

// ErrCannotRepair is returned by a planner's Repair when it has no better
// plan to offer; the repair loop stops there.
var ErrCannotRepair = errors.New("the planner cannot repair this plan")
