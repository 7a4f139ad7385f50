package memory

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/server/tools"
)

const scenarioDir = "testdata/scenarios"

// engine is a writable server's tools over a fresh store.
func engine(t *testing.T) Engine {
	t.Helper()
	db, err := tgms.Open(t.TempDir(), &tgms.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return tools.New(db, tools.Options{Writer: db})
}

// runAll plays every scenario and returns the wrong outcomes, and prints
// one line per scenario.
func runAll(t *testing.T, newEngine func(*testing.T) Engine, newModel func() *Model, print bool) (total int, wrong []Outcome) {
	t.Helper()
	scs, err := Load(scenarioDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range scs {
		out, err := Run(context.Background(), sc, newEngine(t), newModel())
		if err != nil {
			t.Fatal(err)
		}
		bad := 0
		for _, o := range out {
			if !o.Right {
				bad++
				wrong = append(wrong, o)
			}
		}
		total += len(out)
		if !print {
			continue
		}
		t.Logf("%-18s answers %3d  right %3d  wrong %d", sc.Name, len(out), len(out)-bad, bad)
	}
	return total, wrong
}

// TestScenarios: every write outcome and every answer of the memory tools
// equals the model's, at every belief time asked.
func TestScenarios(t *testing.T) {
	total, wrong := runAll(t, engine, NewModel, true)
	for _, o := range wrong {
		t.Errorf("%s %s: got %v, gold %v", o.Scenario, o.ID, fmt.Sprint(jsonValue(o.Got)), fmt.Sprint(jsonValue(o.Gold)))
	}
	t.Logf("all scenarios: %d answers, %d wrong", total, len(wrong))
	if total < 100 {
		t.Fatalf("only %d answers: the scenarios lost their questions", total)
	}
}

// TestSuiteCanFail: a model with a deliberate error, and an engine side
// that answers the wrong belief time or calls every closing evolution,
// are each caught by the scenarios.
func TestSuiteCanFail(t *testing.T) {
	for _, mut := range []string{"correct-is-evolution", "no-belief-time", "parts-keep-provenance", "model-may-replace-user"} {
		_, wrong := runAll(t, engine, func() *Model { m := NewModel(); m.mutate = mut; return m }, false)
		if len(wrong) == 0 {
			t.Errorf("model mutant %s: no wrong answer", mut)
		}
		t.Logf("model mutant %-22s caught: %d wrong answers", mut, len(wrong))
	}
	for name, lie := range map[string]func(tool string, a map[string]any, out any) any{
		// recall pinned at the last batch whatever as_of_tt says
		"recall ignores as_of_tt": nil,
		// recall names the first writer of an entity for every fact
		"recall's provenance is stale": func(tool string, _ map[string]any, out any) any {
			if r, ok := out.(*tools.Recall); ok {
				for i := range r.Facts {
					r.Facts[i].Provenance = map[string]any{"authority": "user", "actor": "nobody"}
				}
			}
			return out
		},
		// why reports every closing as evolution
		"why says evolution": func(tool string, _ map[string]any, out any) any {
			if w, ok := out.(*tools.Why); ok {
				for i := range w.Versions {
					if w.Versions[i].Change != "" {
						w.Versions[i].Change = "evolution"
					}
				}
			}
			return out
		},
	} {
		newEngine := func(t *testing.T) Engine { return liar{engine(t), name, lie} }
		_, wrong := runAll(t, newEngine, NewModel, false)
		if len(wrong) == 0 {
			t.Errorf("engine mutant %q: no wrong answer", name)
		}
		t.Logf("engine mutant %-23s caught: %d wrong answers", name, len(wrong))
	}
}

// liar is an engine side with a deliberate error.
type liar struct {
	Engine
	name string
	lie  func(tool string, a map[string]any, out any) any
}

func (l liar) Call(ctx context.Context, tool string, a map[string]any) (any, *tools.Failure) {
	if strings.HasPrefix(l.name, "recall ignores") && tool == "recall" {
		delete(a, "as_of_tt")
	}
	out, f := l.Engine.Call(ctx, tool, a)
	if f == nil && l.lie != nil {
		out = l.lie(tool, a, out)
	}
	return out, f
}

// TestLoadRefuses: a scenario without writes or questions, a file that
// is not JSON, an empty folder, and questions the runner cannot ask are
// errors, not silently empty suites.
func TestLoadRefuses(t *testing.T) {
	for name, text := range map[string]string{
		"no questions": `{"name":"x","writes":[{"batch":"b1","tool":"remember","args":{"uid":"a"}}],"questions":[]}`,
		"not JSON":     `{"name":`,
		"no name":      `{"writes":[{"batch":"b1","tool":"remember","args":{"uid":"a"}}],"questions":[{"id":"q","ask":"value","uid":"a","believed":["now"]}]}`,
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "s.json"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(dir); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
	if _, err := Load(t.TempDir()); err == nil {
		t.Errorf("an empty folder loaded")
	}
	for name, q := range map[string]Question{
		"unknown kind":        {ID: "q", Ask: "guess", UID: "a", Believed: []string{"now"}},
		"no belief times":     {ID: "q", Ask: "value", UID: "a"},
		"unknown batch":       {ID: "q", Ask: "value", UID: "a", Believed: []string{"b9"}},
		"trail without at":    {ID: "q", Ask: "trail", UID: "a"},
		"edge without a type": {ID: "q", Ask: "link", Src: "a", Dst: "b", Believed: []string{"now"}},
	} {
		sc := &Scenario{Name: "x", Writes: []Write{{Batch: "b1", Tool: "remember", Args: map[string]any{"uid": "a", "provenance": map[string]any{"authority": "user", "actor": "t"}}}}, Questions: []Question{q}}
		if _, err := Run(context.Background(), sc, engine(t), NewModel()); err == nil {
			t.Errorf("%s: asked", name)
		}
	}
}
