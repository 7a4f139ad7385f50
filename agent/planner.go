package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tgms-go/tgms/agent/reader"
	bt "github.com/tgms-go/tgms/bitemporal"
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
	// FirstTT is the transaction time of the store's first batch (0 when
	// unknown): a belief time before it is a belief of nothing.
	FirstTT int64 `json:"first_tt,omitempty"`
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
		EdgeVersions: int64(st.EdgeVersions), RelTypes: rt, LastTT: db.LastTT(), FirstTT: firstTT(db)}
}

// firstTT is the transaction time of a store's first batch, for stores
// that can read their engine; 0 otherwise.
func firstTT(db Store) int64 {
	rd, ok := db.(interface {
		Read(asOf bt.Time, fn func(r engine.Reader) error) error
	})
	if !ok {
		return 0
	}
	var tt bt.Time
	_ = rd.Read(db.LastTT(), func(r engine.Reader) error {
		tt = r.Store().BatchTT(1)
		return nil
	})
	return tt
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
	// Missing names the slots that were missing or unreadable (node,
	// window, time, bucket, duration).
	Missing []string
	// Suggestions are question forms that would be read, filled in with
	// the question's own slots.
	Suggestions []string
}

func (e *ErrUnsupportedQuestion) Error() string {
	s := fmt.Sprintf("unsupported question: %q", e.Question)
	if e.Reason != "" {
		s = fmt.Sprintf("unsupported question: %q (%s)", e.Question, e.Reason)
	}
	if len(e.Suggestions) > 0 {
		s += "; try: " + strings.Join(quoted(e.Suggestions), " or ")
	}
	return s
}

func quoted(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = fmt.Sprintf("%q", x)
	}
	return out
}

func (e *ErrUnsupportedQuestion) Unwrap() error { return ErrUnsupported }

// A Reader is a planner that states how it read a question; Ask records
// the reading in Result.Reading.
type Reader interface {
	Planner
	Read(q Question) (*reader.Reading, error)
}

// ErrCannotRepair is returned by a planner's Repair when it has no better
// plan to offer; the repair loop stops there.
var ErrCannotRepair = errors.New("the planner cannot repair this plan")
