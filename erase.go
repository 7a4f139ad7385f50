package tgms

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
	"github.com/tgms-go/tgms/eventlog"
	"github.com/tgms-go/tgms/internal/fault"
	"github.com/tgms-go/tgms/internal/vfs"
)

// Erasure removes an entity's contents from every file of the store (see
// Erase). The new files are written beside the old ones under the prefix
// EraseStage (erase-new.events.wal, ...) and moved into place under a
// commit marker, EraseCommit, which lists them: an open that finds the
// marker finishes the moves (the erase had committed), and one that finds
// only staged files removes them (the erase had not), so a crash leaves
// the store as it was before the erase or as it is after it.
const (
	EraseStage  = "erase-new."
	EraseCommit = "erase.commit"
)

// answersFile is the saved answers' file (package answers), which an
// erase rewrites through the function that package registers.
const answersFile = "answers.log"

type sidecar struct {
	name    string
	rewrite func(dir, to string, mentions func(payload []byte) bool) (int, error)
}

var sidecars []sidecar

// RegisterAnswersRewriter is called by package answers (which imports this
// one) with the function that rewrites its file for an erase: it writes
// dir's answers file to the new file to, replacing every record whose
// payload mentions the erased entity, and returns how many it replaced
// (os.ErrNotExist when there is no file).
func RegisterAnswersRewriter(rewrite func(dir, to string, mentions func(payload []byte) bool) (int, error)) {
	sidecars = append(sidecars[:0], sidecar{answersFile, rewrite})
}

// EraseResult says what Erase did.
type EraseResult struct {
	UID          string   `json:"uid"`
	Edges        bool     `json:"edges"`
	TT           bt.Time  `json:"tt"`  // the erase batch's transaction time
	Seq          uint64   `json:"seq"` // and its batch number
	NodeVersions int      `json:"node_versions"`
	EdgeVersions int      `json:"edge_versions"`
	Records      int      `json:"records_rewritten"` // log records whose ops held erased content
	Answers      int      `json:"answers_erased"`    // saved answers replaced by erased records
	Digest       string   `json:"digest"`            // the store digest after the erase
	Files        []string `json:"files"`             // the files rewritten
	// Remnants are files of the store directory that still hold some of
	// the erased text and that erase does not rewrite: bytes a torn write
	// left, kept aside for inspection. Delete them to finish the erasure.
	Remnants []string `json:"remnants,omitempty"`
}

// Erase removes the contents of uid from the store: the label and props
// of every version of the node (and with edges the props of every version
// of its incident edges) are erased from the event log, the checkpoint and
// the seal's chain, and every saved answer whose trace mentions the uid or
// the erased text is replaced by an erased record. Each erased version
// stays as a tombstone (identity, times, SHA-256 of its content), so the
// store digest, replay and check still verify. The erase is itself a
// batch, recorded in the log with its tombstones. A uid the store does
// not hold, or one already erased, is an error that changes nothing.
func (db *DB) Erase(uid string, edges bool) (*EraseResult, error) {
	db.wmu.Lock()
	defer db.wmu.Unlock()
	if db.opt.ReadOnly {
		return nil, ErrReadOnly
	}
	if db.failed != nil {
		return nil, db.failed
	}
	db.mu.RLock()
	op, err := bt.PlanErase(db.store, uid, edges)
	var texts [][]byte
	if err == nil {
		texts = erasedTexts(db.store, uid, edges)
	}
	db.mu.RUnlock()
	if err != nil {
		return nil, err
	}
	res := &EraseResult{UID: uid, Edges: edges, TT: db.tick(), Seq: db.log.LastSeq() + 1}
	for _, t := range op.Erase.Tombs {
		if t.Kind == bt.RefNode {
			res.NodeVersions++
		} else {
			res.EdgeVersions++
		}
	}
	if _, err := os.Lstat(filepath.Join(db.dir, answersFile)); err == nil && len(sidecars) == 0 {
		return nil, fmt.Errorf("erase: the store has saved answers (%s), and this program cannot rewrite them (import package answers); nothing was erased", answersFile)
	}
	if err := removeStaged(db.dir); err != nil {
		return nil, fmt.Errorf("erase: %w", err)
	}
	files, err := db.stageErase(op, uid, edges, texts, res)
	if err != nil {
		removeStaged(db.dir)
		return nil, err
	}
	// Commit: from the marker on, the erase is done (an open finishes it).
	fault.Point("erase.commit")
	if err := writeMarker(db.dir, files); err != nil {
		removeStaged(db.dir)
		return nil, err
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.sealW != nil {
		db.sealW.Close()
		db.sealW = nil
	}
	db.log.Close()
	db.log = nil
	if err := finishErase(db.dir, files); err != nil {
		db.failed = fmt.Errorf("%w: %v", ErrFailed, err)
		return nil, fmt.Errorf("erase: committed, but moving the new files into place failed (the next open finishes it): %w", err)
	}
	if err := db.recover(); err != nil {
		db.failed = fmt.Errorf("%w: %v", ErrFailed, err)
		return nil, fmt.Errorf("erase: the rewritten store does not open: %w", err)
	}
	res.Digest = db.store.Digest()
	res.Files = files
	res.Remnants = remnants(db.dir, texts)
	return res, nil
}

// stageErase writes the erased store's files under the staging prefix
// and returns their names.
func (db *DB) stageErase(op bt.Op, uid string, edges bool, texts [][]byte, res *EraseResult) ([]string, error) {
	stage := func(name string) string { return filepath.Join(db.dir, EraseStage+name) }
	logPath := stage(LogFile)
	nl, err := eventlog.Open(logPath, eventlog.Options{NoSync: true, Logf: db.opt.Logf})
	if err != nil {
		return nil, fmt.Errorf("erase: %w", err)
	}
	defer nl.Close()
	id := db.log.ID()
	if err := nl.SetHeader(id); err != nil {
		return nil, fmt.Errorf("erase: %w", err)
	}
	store := engine.New()
	var planner bt.Planner
	apply := func(r *eventlog.Record) error {
		eff, err := planner.Plan(store, r.TT, r.Seq, r.Ops)
		if err != nil {
			return fmt.Errorf("batch %d no longer applies after scrubbing: %w", r.Seq, err)
		}
		if err := store.Apply(eff); err != nil {
			return err
		}
		_, err = nl.Append(r)
		return err
	}
	err = db.log.Replay(db.log.Start(), func(r *eventlog.Record, _ int64) error {
		nr := *r
		changed := false
		for i := range r.Ops {
			if o, c := bt.Scrub(r.Ops[i], uid, edges); c {
				if !changed {
					nr.Ops = slices.Clone(r.Ops)
				}
				nr.Ops[i], changed = o, true
			}
		}
		if changed {
			res.Records++
		}
		return apply(&nr)
	})
	if err == nil {
		err = apply(&eventlog.Record{TT: res.TT, Seq: res.Seq, Ops: []bt.Op{op}})
	}
	if err == nil {
		err = nl.Sync()
	}
	if err != nil {
		return nil, fmt.Errorf("erase: rewriting the event log: %w", err)
	}
	last := nl.Last()
	store.Compact()
	if _, err := store.WriteCheckpoint(stage(CheckpointFile), engine.CheckpointInfo{StoreID: id, Last: last, Chain: nl.Chain(), HasChain: true}); err != nil {
		return nil, fmt.Errorf("erase: writing the checkpoint: %w", err)
	}
	dirID, err := dirIdentity(db.dir)
	if err != nil {
		return nil, fmt.Errorf("erase: %w", err)
	}
	seal := eventlog.Seal{StoreID: id, Parent: db.seal.Parent, Last: last, Chain: nl.Chain(), Dir: dirID, Version: 2}
	if err := eventlog.WriteSeal(logPath, seal); err != nil {
		return nil, fmt.Errorf("erase: writing the seal: %w", err)
	}
	files := []string{LogFile, SealFile, CheckpointFile}
	for _, sc := range sidecars {
		n, err := sc.rewrite(db.dir, stage(sc.name), func(payload []byte) bool {
			return mentions(payload, uid, texts)
		})
		switch {
		case err == nil:
			res.Answers += n
			files = append(files, sc.name)
		case !errors.Is(err, os.ErrNotExist):
			return nil, fmt.Errorf("erase: rewriting %s: %w", sc.name, err)
		}
	}
	if err := vfs.Get().SyncDir(db.dir); err != nil {
		return nil, fmt.Errorf("erase: %w", err)
	}
	return files, nil
}

// erasedTexts are the strings an erase removes: labels and string prop
// values of at least 3 bytes (shorter ones are too common to search for)
// that no other version holds (those stay in the store anyway).
func erasedTexts(store *engine.Store, uid string, edges bool) [][]byte {
	var v bt.ErasureView = store
	seen := map[string]bool{}
	add := func(s string) {
		if len(s) >= 3 {
			seen[s] = true
		}
	}
	var walk func(x any)
	walk = func(x any) {
		switch y := x.(type) {
		case string:
			add(y)
		case map[string]any:
			for _, z := range y {
				walk(z)
			}
		case []any:
			for _, z := range y {
				walk(z)
			}
		}
	}
	for _, h := range v.AllNodeVersions(uid) {
		add(h.V.Label)
		walk(h.V.Props.Map())
	}
	if edges {
		for _, h := range v.AllIncidentEdges(uid) {
			walk(h.V.Props.Map())
		}
	}
	all := make([]string, 0, len(seen))
	for s := range seen {
		all = append(all, s)
	}
	slices.Sort(all)
	shared := store.SharedTexts(all, uid, edges)
	var out [][]byte
	for _, s := range all {
		if !shared[s] {
			out = append(out, []byte(s))
		}
	}
	return out
}

// mentions reports whether a saved answer's payload names uid (as a JSON
// string) or holds any erased text.
func mentions(payload []byte, uid string, texts [][]byte) bool {
	q, _ := jsonString(uid)
	if bytes.Contains(payload, q) {
		return true
	}
	for _, t := range texts {
		if bytes.Contains(payload, t) {
			return true
		}
		if e, _ := jsonString(string(t)); !bytes.Equal(e[1:len(e)-1], t) && bytes.Contains(payload, e[1:len(e)-1]) {
			return true
		}
	}
	return false
}

func jsonString(s string) ([]byte, error) {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return []byte(b.String()), nil
}

// remnants lists files in dir (kept-aside torn writes and the like) that
// still hold erased text.
func remnants(dir string, texts [][]byte) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		for _, t := range texts {
			if bytes.Contains(data, t) {
				out = append(out, e.Name())
				break
			}
		}
	}
	return out
}

// writeMarker writes the commit marker atomically: the names of the staged
// files, one per line.
func writeMarker(dir string, files []string) error {
	fs := vfs.Get()
	tmp, err := fs.CreateTemp(dir, EraseCommit+".tmp-*")
	if err != nil {
		return fmt.Errorf("erase: %w", err)
	}
	_, err = tmp.WriteAt([]byte(strings.Join(files, "\n")+"\n"), 0)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = fs.Rename(tmp.Name(), filepath.Join(dir, EraseCommit))
	}
	if err == nil {
		err = fs.SyncDir(dir)
	}
	if err != nil {
		fs.Remove(tmp.Name())
		return fmt.Errorf("erase: writing the commit marker: %w", err)
	}
	return nil
}

// finishErase moves the staged files into place, then removes the marker.
// It can be repeated after a crash: a file already moved is no longer
// staged.
func finishErase(dir string, files []string) error {
	fs := vfs.Get()
	for _, f := range files {
		staged := filepath.Join(dir, EraseStage+f)
		if _, err := os.Lstat(staged); errors.Is(err, os.ErrNotExist) {
			continue
		}
		fault.Point("erase.rename")
		if err := fs.Rename(staged, filepath.Join(dir, f)); err != nil {
			return err
		}
	}
	fault.Point("erase.renamed")
	if err := fs.SyncDir(dir); err != nil {
		return err
	}
	if err := removeStaged(dir); err != nil {
		return err
	}
	fault.Point("erase.unmark")
	if err := fs.Remove(filepath.Join(dir, EraseCommit)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return fs.SyncDir(dir)
}

// removeStaged removes staged files (and their temporary files) left in
// dir.
func removeStaged(dir string) error {
	m, err := filepath.Glob(filepath.Join(dir, EraseStage+"*"))
	if err != nil {
		return err
	}
	tmps, _ := filepath.Glob(filepath.Join(dir, EraseCommit+".tmp-*"))
	m = append(m, tmps...)
	for _, p := range m {
		if err := vfs.Get().Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	if len(m) > 0 {
		return vfs.Get().SyncDir(dir)
	}
	return nil
}

// resumeErase finishes an erase that committed before a crash, or drops
// one that had not. A read-only open cannot finish one and refuses.
func (db *DB) resumeErase() error {
	marker := filepath.Join(db.dir, EraseCommit)
	data, err := os.ReadFile(marker)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if db.opt.ReadOnly {
			return nil
		}
		m, _ := filepath.Glob(filepath.Join(db.dir, EraseStage+"*"))
		tmps, _ := filepath.Glob(filepath.Join(db.dir, EraseCommit+".tmp-*"))
		if len(m)+len(tmps) > 0 {
			db.opt.Logf("store %s: removing %d file(s) left by an erase that did not commit (the store is as it was before it)", db.dir, len(m)+len(tmps))
			return removeStaged(db.dir)
		}
		return nil
	case err != nil:
		return fmt.Errorf("open store %s: %w", db.dir, err)
	}
	if db.opt.ReadOnly {
		return fmt.Errorf("open store %s: an erase committed but was interrupted before all its files were in place (%s is there); open it for writing once to finish it ('tgms erase --store %s --resume')", db.dir, EraseCommit, db.dir)
	}
	var files []string
	for _, f := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		switch f {
		case LogFile, SealFile, CheckpointFile, answersFile:
			files = append(files, f)
		default:
			return fmt.Errorf("open store %s: %s names %q, which is not a store file: remove the marker only if you know the erase did not commit", db.dir, EraseCommit, f)
		}
	}
	db.opt.Logf("store %s: finishing an erase interrupted after it committed", db.dir)
	return finishErase(db.dir, files)
}

// ErasedUIDs lists the uids with erased node versions, sorted.
func (db *DB) ErasedUIDs() []string {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return db.store.ErasedUIDs()
}

// Erased is one erased entity, as the store's tombstones say.
type Erased struct {
	UID   string `json:"uid"`
	Edges bool   `json:"edges"` // some of its incident edges' props were erased too
}

// Erasures lists the erased entities, by uid.
func (db *DB) Erasures() []Erased {
	db.mu.RLock()
	defer db.mu.RUnlock()
	var out []Erased
	for _, u := range db.store.ErasedUIDs() {
		out = append(out, Erased{UID: u, Edges: db.store.ErasedEdges(u)})
	}
	return out
}
