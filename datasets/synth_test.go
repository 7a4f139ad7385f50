package datasets

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/bitemporal"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/synth_golden.json")

// collect runs Synthesize and returns every event and the chunk sizes.
func collect(t testing.TB, cfg SynthConfig) ([]bitemporal.Event, []int, *Manifest) {
	t.Helper()
	var all []bitemporal.Event
	var sizes []int
	m, err := Synthesize(cfg, func(chunk []bitemporal.Event) error {
		all = append(all, chunk...)
		sizes = append(sizes, len(chunk))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return all, sizes, m
}

func manifestJSON(t testing.TB, m *Manifest) []byte {
	t.Helper()
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSynthDeterminism(t *testing.T) {
	digests := map[string]uint64{}
	for _, seed := range []uint64{0, 1, 7, 42, 1 << 63} {
		cfg := SynthConfig{Events: 30_000, Seed: seed, Corrections: 0.01}
		_, _, m1 := collect(t, cfg)
		_, _, m2 := collect(t, cfg)
		j1, j2 := manifestJSON(t, m1), manifestJSON(t, m2)
		if !bytes.Equal(j1, j2) {
			t.Fatalf("seed %d: manifests differ between runs", seed)
		}
		if prev, ok := digests[m1.EventsSHA256]; ok {
			t.Errorf("seeds %d and %d give the same stream", prev, seed)
		}
		digests[m1.EventsSHA256] = seed
		// The manifest's config reproduces the stream.
		_, _, m3 := collect(t, m1.Config)
		if !bytes.Equal(manifestJSON(t, m3), j1) {
			t.Errorf("seed %d: rerunning the manifest's config gives a different manifest", seed)
		}
	}
}

func TestSynthDigestMatchesStream(t *testing.T) {
	evs, _, m := collect(t, SynthConfig{Events: 5000, Seed: 3})
	var buf bytes.Buffer
	if err := WriteEventsJSONL(&buf, evs); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(buf.Bytes())
	if hex.EncodeToString(sum[:]) != m.EventsSHA256 {
		t.Error("events_sha256 is not the SHA-256 of the stream written by WriteEventsJSONL")
	}
	back, err := ReadEventsJSONL(&buf, "synth")
	if err != nil || !slices.Equal(back, evs) {
		t.Errorf("JSONL round trip of the synthetic stream failed: %v", err)
	}
}

type goldenEntry struct {
	Config         SynthConfig `json:"config"`
	TotalEvents    int64       `json:"total_events"`
	EventsSHA256   string      `json:"events_sha256"`
	ManifestSHA256 string      `json:"manifest_sha256"`
}

// TestSynthGolden pins the generator's output: a change to the model, the
// PRNG or the event encoding changes these digests. Rerun with -update
// after an intended change, and say so in the change description.
func TestSynthGolden(t *testing.T) {
	path := filepath.Join("testdata", "synth_golden.json")
	cfgs := []SynthConfig{
		{Events: 20_000, Seed: 1},
		{Events: 60_000, Seed: 7, Nodes: 500, IntervalFraction: 0.2, Corrections: 0.02},
		{Events: 1_000, Seed: 9, Triangles: -1, PingPongs: 2, Bursts: -1, Delta: 3_600_000_000, Span: 10 * Day, Start: 1},
	}
	var got []goldenEntry
	for _, cfg := range cfgs {
		_, _, m := collect(t, cfg)
		ms := sha256.Sum256(manifestJSON(t, m))
		got = append(got, goldenEntry{Config: cfg, TotalEvents: m.TotalEvents, EventsSHA256: m.EventsSHA256, ManifestSHA256: hex.EncodeToString(ms[:])})
	}
	gotJSON, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	gotJSON = append(gotJSON, '\n')
	if *updateGolden {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, gotJSON, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestSynthGolden -update to create it)", err)
	}
	if !bytes.Equal(want, gotJSON) {
		t.Errorf("synthetic output changed:\n got %s\nwant %s\n(if intended, rerun with -update)", gotJSON, want)
	}
}

func TestSynthStream(t *testing.T) {
	cfg := SynthConfig{Events: 120_000, Seed: 11, Corrections: 0.01}
	evs, sizes, m := collect(t, cfg)
	c := m.Config

	// Defaults filled in.
	if c.Nodes != 2400 || c.Start != DefaultSynthStart || c.Span != 90*Day || c.Delta != Day ||
		c.IntervalFraction != 0.05 || c.Triangles != 10 || c.PingPongs != 6 || c.Bursts != 4 {
		t.Errorf("normalized config %+v", c)
	}
	if m.Format != "tgms-synth" || m.Version != 1 || m.Nodes != 2400 || m.ChunkSize != SynthChunkSize {
		t.Errorf("manifest header %+v", m)
	}

	// Counts and chunking.
	if int64(len(evs)) != m.TotalEvents || m.TotalEvents != m.BackgroundEvents+m.PlantedEvents || m.BackgroundEvents != 120_000 {
		t.Fatalf("%d events; manifest total %d = %d + %d", len(evs), m.TotalEvents, m.BackgroundEvents, m.PlantedEvents)
	}
	if int64(len(sizes)) != m.Chunks {
		t.Errorf("%d chunks, manifest says %d", len(sizes), m.Chunks)
	}
	for i, n := range sizes {
		if (i < len(sizes)-1 && n != SynthChunkSize) || n == 0 || n > SynthChunkSize {
			t.Errorf("chunk %d has %d events", i, n)
		}
	}

	// Order, validity, node names, rel types.
	rel := map[string]int64{}
	var intervals int64
	bgNodes := map[string]bool{}
	vtMax := bitemporal.Time(0)
	for i, e := range evs {
		if i > 0 && e.VtS < evs[i-1].VtS {
			t.Fatalf("event %d out of order", i)
		}
		if e.Src == e.Dst {
			t.Fatalf("event %d is a self loop", i)
		}
		if e.Disc != "" || e.Props != "" {
			t.Fatalf("event %d: %+v", i, e)
		}
		rel[e.RelType]++
		vtMax = max(vtMax, e.Valid().End)
		if e.VtE != 0 {
			intervals++
			d := e.VtE - e.VtS
			if e.RelType != "CALL" || d < MinDuration || d > MaxDuration {
				t.Fatalf("interval event %d: %+v", i, e)
			}
		} else if e.RelType != "MSG" {
			t.Fatalf("instant event %d has rel_type %s", i, e.RelType)
		}
		for _, u := range []string{e.Src, e.Dst} {
			if strings.HasPrefix(u, "n") {
				n, err := strconv.Atoi(u[1:])
				if err != nil || n < 0 || n >= c.Nodes {
					t.Fatalf("event %d: bad background uid %q", i, u)
				}
				bgNodes[u] = true
				if e.VtS < c.Start || e.VtS >= c.Start+c.Span {
					t.Fatalf("background event %d at %d outside the span", i, e.VtS)
				}
			}
		}
	}
	if len(bgNodes) < c.Nodes*9/10 {
		t.Errorf("only %d of %d background nodes used", len(bgNodes), c.Nodes)
	}
	if !maps2Equal(rel, m.RelTypes) || intervals != m.IntervalEvents {
		t.Errorf("rel types %v / %d intervals, manifest %v / %d", rel, intervals, m.RelTypes, m.IntervalEvents)
	}
	if frac := float64(intervals) / float64(c.Events); frac < 0.04 || frac > 0.06 {
		t.Errorf("interval fraction %.3f, want about 0.05", frac)
	}
	if m.VtMin != evs[0].VtS || m.VtMax != vtMax {
		t.Errorf("extent [%d, %d), want [%d, %d)", m.VtMin, m.VtMax, evs[0].VtS, vtMax)
	}

	// Preferential attachment: in-degrees are skewed well beyond uniform.
	indeg := map[string]int{}
	for _, e := range evs {
		if strings.HasPrefix(e.Dst, "n") {
			indeg[e.Dst]++
		}
	}
	top := 0
	for _, d := range indeg {
		top = max(top, d)
	}
	if mean := float64(c.Events) / float64(c.Nodes); float64(top) < 3*mean {
		t.Errorf("max in-degree %d, mean %.1f: no preferential attachment visible", top, mean)
	}

	checkPatterns(t, evs, m)
	checkCorrections(t, evs, m)
}

func maps2Equal(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// checkPatterns verifies that every planted pattern is in the stream exactly
// as the manifest describes it, and that pattern nodes appear nowhere else.
func checkPatterns(t *testing.T, evs []bitemporal.Event, m *Manifest) {
	t.Helper()
	c := m.Config
	kinds := map[string]int{}
	owner := map[string]int{} // uid -> pattern
	for pi, p := range m.Patterns {
		kinds[p.Kind]++
		for _, u := range p.Nodes {
			owner[u] = pi
		}
	}
	if kinds["triangle"] != max(c.Triangles, 0) || kinds["pingpong"] != max(c.PingPongs, 0) || kinds["burst"] != max(c.Bursts, 0) {
		t.Errorf("pattern kinds %v", kinds)
	}
	// Events per pattern, from the stream.
	byPat := make([][]int, len(m.Patterns))
	for i, e := range evs {
		ps, okS := owner[e.Src]
		pd, okD := owner[e.Dst]
		if okS != okD || (okS && ps != pd) {
			t.Fatalf("event %d mixes pattern and other nodes: %+v", i, e)
		}
		if okS {
			byPat[ps] = append(byPat[ps], i)
		}
	}
	var planted int64
	for pi, p := range m.Patterns {
		got := byPat[pi]
		planted += p.Events
		if int64(len(got)) != p.Events {
			t.Errorf("pattern %s%d: %d events in the stream, manifest says %d", p.Kind, p.Index, len(got), p.Events)
			continue
		}
		for _, i := range got {
			if !p.Window.Contains(evs[i].VtS) || evs[i].RelType != "MSG" || evs[i].VtE != 0 {
				t.Errorf("pattern %s%d: event %d %+v outside window %s", p.Kind, p.Index, i, evs[i], p.Window)
			}
		}
		switch p.Kind {
		case "triangle", "pingpong":
			prefix := map[string]string{"triangle": "tri", "pingpong": "pp"}[p.Kind] + strconv.Itoa(p.Index) + "_"
			if len(p.Edges) != 3 || p.Window.End-p.Window.Start != c.Delta {
				t.Fatalf("pattern %+v", p)
			}
			for j, pe := range p.Edges {
				e := evs[pe.Event]
				if int(pe.Event) != got[j] || e.Src != pe.Src || e.Dst != pe.Dst || e.VtS != pe.VtS {
					t.Errorf("%s%d edge %d: manifest %+v, stream event %d %+v", p.Kind, p.Index, j, pe, got[j], e)
				}
				if !strings.HasPrefix(pe.Src, prefix) || !strings.HasPrefix(pe.Dst, prefix) {
					t.Errorf("%s%d: node names %s, %s", p.Kind, p.Index, pe.Src, pe.Dst)
				}
				if j > 0 && pe.VtS <= p.Edges[j-1].VtS {
					t.Errorf("%s%d: times not strictly increasing", p.Kind, p.Index)
				}
			}
			if p.Edges[2].VtS-p.Edges[0].VtS >= c.Delta {
				t.Errorf("%s%d spans more than delta", p.Kind, p.Index)
			}
			e0, e1, e2 := p.Edges[0], p.Edges[1], p.Edges[2]
			if p.Kind == "triangle" && !(e0.Dst == e1.Src && e1.Dst == e2.Src && e2.Dst == e0.Src && len(p.Nodes) == 3) {
				t.Errorf("triangle %d does not close: %+v", p.Index, p.Edges)
			}
			if p.Kind == "pingpong" && !(e0.Src == e1.Dst && e0.Dst == e1.Src && e2.Src == e0.Src && e2.Dst == e0.Dst && len(p.Nodes) == 2) {
				t.Errorf("ping-pong %d: %+v", p.Index, p.Edges)
			}
		case "burst":
			if len(p.Nodes) != BurstGroup || p.Window.End-p.Window.Start != min(Day, c.Span) || p.Factor != BurstFactor || p.Events < 10 {
				t.Errorf("burst %+v", p)
			}
			// Background events in the window, counted from the stream.
			var bg int64
			for _, e := range evs {
				if strings.HasPrefix(e.Src, "n") && p.Window.Contains(e.VtS) {
					bg++
				}
			}
			if bg != p.BackgroundInWindow {
				t.Errorf("burst %d: %d background events in the window, manifest says %d", p.Index, bg, p.BackgroundInWindow)
			}
			wl := p.Window.End - p.Window.Start
			expected := float64(c.Events) * float64(wl) / float64(c.Span)
			if float64(p.Events) < BurstFactor*expected || p.Events > max(10, int64(BurstFactor*expected)+1) {
				t.Errorf("burst %d: %d planted events, want max(10, ⌈%d × %.1f⌉)", p.Index, p.Events, BurstFactor, expected)
			}
			if c.Events >= 10_000 {
				if rate := float64(p.Events+bg) / float64(max(bg, 1)); rate < BurstFactor {
					t.Errorf("burst %d: window rate only %.1f× the background", p.Index, rate)
				}
			}
		}
	}
	if planted != m.PlantedEvents {
		t.Errorf("patterns hold %d events, manifest planted %d", planted, m.PlantedEvents)
	}
}

func checkCorrections(t *testing.T, evs []bitemporal.Event, m *Manifest) {
	t.Helper()
	n := len(m.Corrections)
	want := m.Config.Corrections * float64(len(evs))
	if float64(n) < 0.7*want || float64(n) > 1.3*want+5 {
		t.Errorf("%d corrections, want about %.0f", n, want)
	}
	kinds := map[string]int{}
	for i, c := range m.Corrections {
		if i > 0 && c.Event <= m.Corrections[i-1].Event {
			t.Fatalf("corrections not in event order at %d", i)
		}
		e := evs[c.Event]
		key := bitemporal.EdgeKey{Src: e.Src, Dst: e.Dst, RelType: e.RelType, Disc: "#" + strconv.FormatInt(c.Event, 10)}
		op, err := c.Op(key)
		if err != nil {
			t.Fatal(err)
		}
		if err := op.Validate(0); err != nil {
			t.Errorf("correction %+v: op does not validate: %v", c, err)
		}
		switch {
		case c.Kind == "retract":
			kinds["retract"]++
			if e.VtE == 0 || c.At != e.VtS+(e.VtE-e.VtS)/2 || op.Kind != bitemporal.OpRetract || op.Ref.Edge != key {
				t.Errorf("retraction %+v of event %+v", c, e)
			}
		case c.Node != "":
			kinds["node"]++
			if c.Node != e.Src || c.Valid.Start != e.VtS+1 || c.Valid.End != e.VtS+1+m.Config.Delta ||
				c.Props["note"] != "corrected" || c.Props["revised"] != true || op.Ref.UID != c.Node {
				t.Errorf("node correction %+v of event %+v", c, e)
			}
		default:
			kinds["edge"]++
			if c.Kind != "correct" || c.Valid != e.Valid() || c.Props["weight"] != int64(2) || op.Props != `{"weight":2}` {
				t.Errorf("edge correction %+v of event %+v", c, e)
			}
		}
	}
	if n > 100 && (kinds["edge"] < n/2 || kinds["node"] == 0 || (m.IntervalEvents > 100 && kinds["retract"] == 0)) {
		t.Errorf("correction mix %v", kinds)
	}
}

func TestSynthSmallConfigs(t *testing.T) {
	for _, cfg := range []SynthConfig{
		{}, // only planted patterns
		{Events: 1, Seed: 5},
		{Events: 10, Nodes: 2, Triangles: -1, PingPongs: -1, Bursts: -1},
		{Events: 50_000, Triangles: -1, PingPongs: -1, Bursts: -1}, // exactly one chunk
		{Events: 5000, Span: 10, Delta: 4, IntervalFraction: 1, Corrections: 1},
		{Events: 5000, Span: Day / 2, Bursts: 3, Triangles: 40},
		{Events: 3000, IntervalFraction: -1, Corrections: 0.5},
	} {
		evs, sizes, m := collect(t, cfg)
		if int64(len(evs)) != m.TotalEvents {
			t.Errorf("%+v: %d events, manifest %d", cfg, len(evs), m.TotalEvents)
		}
		if cfg.Events == 50_000 && (len(sizes) != 1 || sizes[0] != 50_000) {
			t.Errorf("one-chunk config gave chunks %v", sizes)
		}
		if cfg.IntervalFraction < 0 && m.IntervalEvents != 0 {
			t.Errorf("interval events despite IntervalFraction < 0")
		}
		if cfg.IntervalFraction == 1 && m.IntervalEvents != cfg.Events {
			t.Errorf("IntervalFraction 1 gave %d interval events of %d", m.IntervalEvents, cfg.Events)
		}
		for i := 1; i < len(evs); i++ {
			if evs[i].VtS < evs[i-1].VtS {
				t.Fatalf("%+v: event %d out of order", cfg, i)
			}
		}
		if op := bitemporal.Ingest(evs, "Node"); op.Validate(0) != nil {
			t.Errorf("%+v: %v", cfg, op.Validate(0))
		}
		checkPatterns(t, evs, m)
		if cfg.Corrections > 0 {
			checkCorrections(t, evs, m)
		}
	}
}

func TestSynthConfigErrors(t *testing.T) {
	for _, cfg := range []SynthConfig{
		{Events: -1},
		{Nodes: -1},
		{Nodes: 1},
		{Start: -1},
		{Span: -1},
		{Delta: -1},
		{Delta: 3},
		{Start: bitemporal.OpenEnd - Day},
		{IntervalFraction: 1.5},
		{Corrections: -0.1},
		{Corrections: 2},
		{Triangles: maxPlanted + 1},
	} {
		if _, err := Synthesize(cfg, func([]bitemporal.Event) error { return nil }); err == nil || !strings.Contains(err.Error(), "synth config") {
			t.Errorf("%+v: err %v", cfg, err)
		}
	}
	if _, err := Synthesize(SynthConfig{}, nil); err == nil {
		t.Error("nil emit: no error")
	}
	stop := errors.New("stop")
	calls := 0
	_, err := Synthesize(SynthConfig{Events: 200_000}, func([]bitemporal.Event) error {
		calls++
		if calls == 2 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || calls != 2 {
		t.Errorf("emit error: %v after %d calls", err, calls)
	}
}

func TestCorrectionOp(t *testing.T) {
	key := bitemporal.EdgeKey{Src: "a", Dst: "b", RelType: "R", Disc: "#1"}
	op, err := Correction{Kind: "correct", Node: "n1", Props: map[string]any{"revised": true}, Valid: bitemporal.Interval{Start: 1, End: 2}}.Op(key)
	if err != nil || op.Kind != bitemporal.OpCorrect || op.Ref != bitemporal.NodeRef("n1") || op.Props != `{"revised":true}` {
		t.Errorf("node correction op %+v, %v", op, err)
	}
	if _, err := (Correction{Kind: "bogus"}).Op(key); err == nil {
		t.Error("bogus kind: no error")
	}
	if _, err := (Correction{Kind: "correct", Props: map[string]any{"x": float32(1)}}).Op(key); err == nil {
		t.Error("unencodable props: no error")
	}
}

func TestManifestJSON(t *testing.T) {
	_, _, m := collect(t, SynthConfig{Events: 2000, Seed: 2, Corrections: 0.05})
	b := manifestJSON(t, m)
	var back Manifest
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Config != m.Config || back.EventsSHA256 != m.EventsSHA256 || len(back.Patterns) != len(m.Patterns) || len(back.Corrections) != len(m.Corrections) {
		t.Error("manifest does not survive a JSON round trip")
	}
	for _, want := range []string{`"kind": "triangle"`, `"kind": "pingpong"`, `"kind": "burst"`, `"events_sha256"`, `"interval_fraction": 0.05`, `"background_in_window"`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("manifest JSON lacks %s", want)
		}
	}
}

func BenchmarkSynthesize(b *testing.B) {
	const n = 1_000_000
	var total int64
	b.ReportAllocs()
	for b.Loop() {
		m, err := Synthesize(SynthConfig{Events: n, Seed: 1}, func([]bitemporal.Event) error { return nil })
		if err != nil {
			b.Fatal(err)
		}
		total = m.TotalEvents
	}
	b.ReportMetric(float64(total)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkSynthesizeMemory measures the heap while generating 2M events
// whose chunks are dropped at once: the peak should not grow with Events.
func BenchmarkSynthesizeMemory(b *testing.B) {
	const n = 2_000_000
	for b.Loop() {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		base := ms.HeapAlloc
		var peak uint64
		m, err := Synthesize(SynthConfig{Events: n, Seed: 1}, func([]bitemporal.Event) error {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(peak-min(base, peak))/(1<<20), "peak-heap-MiB")
		b.ReportMetric(float64(m.TotalEvents), "events")
	}
}
