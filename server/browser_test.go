package server_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/internal/servertest/testdb"
	"github.com/tgms-go/tgms/server"
	"github.com/tgms-go/tgms/server/tools"

	"github.com/tgms-go/tgms/internal/testenv"
)

// chromium finds a Chromium or Chrome binary ($TGMS_CHROMIUM first).
func chromium() string {
	for _, name := range []string{os.Getenv("TGMS_CHROMIUM"), "chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// TestConsoleInChromium drives the console in a real browser: load it,
// ask a question, read the reading (a sentence with its slots) and the
// certified answer off the page, check that times show as dates with the
// µs on hover, that a refusal clears the previous answer and leaves the
// buttons working, that an answer at an earlier belief time says so in its
// header, that a series is drawn as a chart and reachability and paths as
// a graph; compare with a belief time before the correction, verify the
// trace, ask whether it is still fresh (before and after a second writer
// corrects the node it counts, then refresh it) and run an operator from
// the explorer. The page must raise no script error and no
// Content-Security-Policy violation. Screenshots are saved in the test's
// temporary directory (and in $TGMS_SCREENSHOT_DIR when set).
func TestConsoleInChromium(t *testing.T) {
	bin := chromium()
	if bin == "" {
		testenv.Missing(t, "no Chromium binary (chromium, chromium-browser, google-chrome or $TGMS_CHROMIUM): install Debian's chromium to run the console test")
	}
	s := testdb.New(t)
	h, err := server.Handler(tools.New(s.DB, tools.Options{}), server.Config{}, true)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.WindowSize(1400, 1000),
		chromedp.Flag("disable-dev-shm-usage", true))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	if os.Getenv("TGMS_JS_COVERAGE") != "" {
		defer jsCoverage(t, ctx)()
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/")); err != nil {
		t.Fatalf("loading the console: %v", err)
	}
	step := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		c, done := context.WithTimeout(ctx, 30*time.Second)
		defer done()
		if err := chromedp.Do(c, actions...); err != nil {
			html, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
			t.Fatalf("%s: %v\npage:\n%s", what, err, html)
		}
	}
	text := func(sel string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		return v
	}
	eval := func(js string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return v
	}
	waitText := func(sel, want string) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](fmt.Sprintf(`(document.querySelector(%q)||{}).textContent === %q`, sel, want))
	}
	waitContains := func(sel, want string) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](fmt.Sprintf(`((document.querySelector(%q)||{}).textContent||"").includes(%q)`, sel, want))
	}
	ask := func(question, asOf string) chromedp.Action[chromedp.Void] {
		return chromedp.Steps(
			chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector("#question").value = %q; document.querySelector("#as-of").value = %q`, question, asOf)),
			chromedp.Poll[chromedp.Void](`!document.querySelector("#ask-button").disabled`),
			chromedp.Click(chromedp.CSS("#ask-button")))
	}
	shot := func(name string) {
		t.Helper()
		chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(out, png, 0o644); err != nil {
			t.Fatal(err)
		}
		if dir := os.Getenv("TGMS_SCREENSHOT_DIR"); dir != "" {
			os.WriteFile(filepath.Join(dir, name), png, 0o644)
		}
		t.Logf("screenshot %s (%d bytes)", out, len(png))
	}

	step("load", chromedp.Poll[chromedp.Void](`document.body.dataset.ready === "true"`), waitContains("#store-stats", "5 nodes"))
	// The header shows the dataset card, the same one tgms stats prints.
	card := s.DB.Card()
	pl := func(k int, one, many string) string {
		if k == 1 {
			return "1 " + one
		}
		return fmt.Sprint(k, " ", many)
	}
	if got, want := text("#card-summary"), "dataset card: "+pl(len(card.RelTypes), "rel type", "rel types")+" · "+pl(len(card.Labels), "label", "labels")+" · "+pl(len(card.Props), "property", "properties"); !strings.HasPrefix(got, want) {
		t.Fatalf("card summary %q, want it to start %q", got, want)
	}
	step("open card", chromedp.Click(chromedp.CSS("#card-summary")), chromedp.Poll[chromedp.Void](`document.querySelector("#store-card").open`))
	body := text("#card-body")
	for _, want := range append([]string{card.Model[0]}, card.RelTypes[0].Name, fmt.Sprint(card.RelTypes[0].Count), card.Labels[0].Name) {
		if !strings.Contains(body, want) {
			t.Fatalf("the card in the header lacks %q: %q", want, body)
		}
	}
	if rows := eval(`String(document.querySelectorAll("#card-body .card-rel-type tr").length - 1)`); rows != fmt.Sprint(len(card.RelTypes)) {
		t.Fatalf("the card lists %s rel types, the store has %d", rows, len(card.RelTypes))
	}
	step("close card", chromedp.Click(chromedp.CSS("#card-summary")))
	// Record script errors and policy violations from here on.
	step("listen", chromedp.Evaluate[chromedp.Void](`window.problems = [];
		window.addEventListener("error", (e) => window.problems.push("error: " + e.message));
		window.addEventListener("unhandledrejection", (e) => window.problems.push("rejection: " + e.reason));
		document.addEventListener("securitypolicyviolation", (e) => window.problems.push("csp: " + e.violatedDirective + " " + e.blockedURI))`))

	step("ask",
		ask(testdb.VersionsQuestion(), ""),
		waitText("#answer-value", "3"),
		waitContains("#reading", "version-count"),
		waitContains("#answer-text", "[c1] The count is 3"),
		waitContains("#claims", "supported"),
		waitContains("#dag", "entity_history"),
		chromedp.Poll[chromedp.Void](`document.querySelectorAll(".belief-chip").length >= 2`))
	// The reading is a sentence with its slots, not JSON.
	sentence := text("#reading-sentence")
	if want := "Read as the number of versions of node a believed"; !strings.HasPrefix(sentence, want) || !strings.HasSuffix(sentence, "as the store believes now.") {
		t.Fatalf("reading sentence %q, want %q… as the store believes now.", sentence, want)
	}
	if got := text("#reading"); strings.ContainsAny(got, "{}") || !strings.Contains(got, "current belief") {
		t.Fatalf("reading on the page: %q", got)
	}
	if got := text(`#reading-sentence .slot[data-slot="node"]`); got != "a" {
		t.Fatalf("the node slot in the sentence reads %q, want a", got)
	}
	if got := eval(`document.querySelector('#reading-sentence .slot[data-slot="belief"]').title`); got != "from “current belief”" {
		t.Fatalf("the belief slot's hover: %q", got)
	}
	// Times are dates, with the µs on hover.
	startUs := fmt.Sprint(testdb.T0)
	sel := fmt.Sprintf(`#dag time[data-us="%s"]`, startUs)
	if got := text(sel); got != "2024-01-01 00:00:00 UTC" {
		t.Fatalf("%s shows %q, want 2024-01-01 00:00:00 UTC", sel, got)
	}
	if got := eval(fmt.Sprintf(`document.querySelector(%q).title`, sel)); got != startUs+" µs" {
		t.Fatalf("%s hover %q, want %q", sel, got, startUs+" µs")
	}
	if got := eval(`document.querySelector('#answer-belief time').title`); !strings.HasSuffix(got, " µs") || !strings.Contains(text("#answer-belief"), " UTC") {
		t.Fatalf("the answer's belief time: %q, hover %q", text("#answer-belief"), got)
	}
	if raw := regexp.MustCompile(`\b1[67]\d{14}\b`).FindString(eval(`document.querySelector("#answer").innerText`)); raw != "" {
		t.Fatalf("a raw µs time %s is shown as text", raw)
	}
	step("verify the first answer", chromedp.Click(chromedp.CSS("#verify-button")), waitContains("#verify-verdict", "every digest reproduces"))

	// A refusal clears the previous answer; the buttons work again.
	step("refused question",
		ask("What is the meaning of life?", ""),
		waitText("#answer-value", "refused"),
		waitText("#answer-title", "Refused"),
		waitContains("#answer-text", "unsupported question"),
		waitContains("#reading", "Not read"),
		chromedp.Poll[chromedp.Void](`!document.querySelector("#ask-button").disabled && !document.querySelector("#compare-button").disabled`))
	if got := eval(`String(document.querySelectorAll("#claims tbody tr").length) + "/" + document.querySelector("#dag").childElementCount + "/" + document.querySelector("#verify-result").textContent + "/" + document.querySelector("#answer-digest").textContent + "/" + document.querySelector("#answer-detail").classList.contains("hidden")`); got != "0/0//—/true" {
		t.Fatalf("after a refusal the previous answer is still shown (claims/steps/verify/digest/details hidden): %q", got)
	}
	if got := eval(`["verify-button","fresh-button","refresh-button"].map((b) => document.getElementById(b).disabled).join()`); got != "true,true,true" {
		t.Fatalf("the trace buttons of a refused question: disabled %s", got)
	}
	step("bad belief time",
		ask(testdb.VersionsQuestion(), "yesterday"),
		waitContains("#answer-text", "as_of_tt"),
		waitText("#answer-value", "refused"),
		chromedp.Poll[chromedp.Void](`!document.querySelector("#ask-button").disabled`))
	if got := eval(`String(document.querySelectorAll("#claims tbody tr").length + document.querySelector("#dag").childElementCount)`); got != "0" {
		t.Fatalf("after an HTTP refusal the previous answer is still shown: %s claims and steps", got)
	}
	step("ask again after the refusals",
		ask(testdb.VersionsQuestion(), ""),
		waitText("#answer-value", "3"),
		chromedp.Poll[chromedp.Void](`!document.querySelector("#verify-button").disabled`),
		chromedp.Click(chromedp.CSS("#verify-button")),
		waitContains("#verify-verdict", "every digest reproduces"))
	if got := eval(`document.querySelector("#answer-header").className`); strings.Contains(got, "earlier") {
		t.Fatalf("an answer at the latest belief is marked earlier: %q", got)
	}

	// An earlier belief time says so in the answer header.
	before := fmt.Sprint(s.Corrected - 1)
	step("ask at an earlier belief time",
		ask(testdb.VersionsQuestion(), before),
		waitText("#answer-value", "1"),
		waitContains("#answer-belief", "asked at an earlier belief time"),
		chromedp.Poll[chromedp.Void](`document.querySelector("#answer-header").classList.contains("earlier")`))
	if got := eval(`document.querySelector("#answer-belief time").title`); got != before+" µs" {
		t.Fatalf("the header's belief time hover %q, want %q", got, before+" µs")
	}

	// A series is drawn as a chart.
	window := "between 2024-01-01T00:00Z and 2024-01-01T10:00Z"
	step("series as a chart",
		ask("Which 1 hour bucket had the most messages "+window+"?", ""),
		waitContains("#dag", "graph_metric_timeseries"),
		chromedp.Poll[chromedp.Void](`!!document.querySelector('#step-s1 .chart .uplot canvas')`))
	if got := eval(`(() => { const c = document.querySelector('#step-s1 .chart'), cv = c.querySelector('canvas'), u = c.querySelector('.plot').uplot;
		return c.dataset.points + "/" + c.dataset.series + "/" + (cv.width > 0 && cv.height > 0) + "/" + u.data[0].length + "/" + u.data[1].join(); })()`); got != "10/value/true/11/0,1,1,1,1,0,0,0,0,1,1" {
		t.Fatalf("the series chart (points/series/drawn/x/y): %q", got)
	}
	if got := text("#answer-value"); !strings.HasPrefix(got, "[2024-01-01 01:00:00 UTC, 2024-01-01 02:00:00 UTC)") {
		t.Fatalf("the busiest bucket shows as %q", got)
	}
	if raw := regexp.MustCompile(`\b1[67]\d{14}\b`).FindString(eval(`document.querySelector("#claims").innerText + document.querySelector("#dag").innerText`)); raw != "" {
		t.Fatalf("a raw µs time %s is shown as text in the claims or the plan", raw)
	}
	shot("console-chart.png")

	// Reachability and paths are drawn as a small graph.
	graph := func(what, question, stepSel, op string, nodes, edges int) {
		t.Helper()
		step(what, ask(question, ""), waitContains(stepSel+" h4", op),
			chromedp.Poll[chromedp.Void](fmt.Sprintf(`!!(document.querySelector(%q)||{}).cy`, stepSel+" .graph")),
			chromedp.Poll[chromedp.Void](fmt.Sprintf(`!!document.querySelector(%q)`, stepSel+" .graph canvas")))
		got := eval(fmt.Sprintf(`(() => { const c = document.querySelector(%q); return c.dataset.nodes + "/" + c.dataset.edges + "/" + c.cy.nodes().length + "/" + c.cy.edges().length + "/" + c.cy.nodes().map((n) => n.id()).sort().join(); })()`, stepSel+" .graph"))
		if want := fmt.Sprintf("%d/%d/%d/%d/", nodes, edges, nodes, edges); !strings.HasPrefix(got, want) {
			t.Fatalf("%s: graph (nodes/edges/drawn nodes/drawn edges/ids) %q, want %s…", what, got, want)
		}
	}
	graph("reachability as a graph", "How many nodes can a reach "+window+"?", "#step-s1", "temporal_reachability", 5, 4)
	if got := eval(`document.querySelector("#step-s1 .graph").cy.edges().map((e) => e.source().id() + ">" + e.target().id() + "@" + e.data("label")).join()`); got != "a>b@01:00,a>c@02:00,a>d@03:00,a>e@04:00" {
		t.Fatalf("reachability edges %q", got)
	}
	shot("console-graph.png")
	graph("paths as a graph", "How many time-respecting paths go from a to d "+window+"?", "#step-s1", "temporal_paths", 4, 3)
	if got := eval(`document.querySelector("#step-s1 .graph").cy.edges().map((e) => e.source().id() + ">" + e.target().id()).join()`); got != "a>b,b>c,c>d" {
		t.Fatalf("path edges %q", got)
	}

	step("a set answer", ask("Who did a send messages to "+window+"?", ""), waitContains("#answer-value", "members"))
	if got := eval(`document.querySelector("#answer-value .set").dataset.size + "/" + document.querySelector("#answer-value").innerText.replace(/\s+/g, " ")`); got != "2/2 members b, e" {
		t.Fatalf("the set answer reads %q", got)
	}
	step("the versions question again", ask(testdb.VersionsQuestion(), ""), waitText("#answer-value", "3"),
		chromedp.Poll[chromedp.Void](`document.querySelectorAll(".belief-chip").length >= 2`))
	step("compare before the correction",
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`.belief-chip[data-tt="%s"]`, before))),
		waitText("#compare-before .value", "1"),
		waitText("#compare-after .value", "3"),
		waitContains("#compare-before", "versions behind it"),
		waitContains("#compare-before", "Ada"),
		waitContains("#compare-after", "Ada Lovelace"),
		chromedp.Poll[chromedp.Void](`document.querySelector("#compare-before").classList.contains("changed")`))
	if got := text("#compare-before"); strings.Contains(got, "Ada Lovelace") {
		t.Fatalf("the earlier belief shows the correction: %q", got)
	}
	step("verify the trace",
		chromedp.Click(chromedp.CSS("#verify-button")),
		waitContains("#verify-verdict", "every digest reproduces"))
	step("fresh before any write",
		chromedp.Click(chromedp.CSS("#fresh-button")),
		waitContains("#fresh-verdict", "FRESH: nothing written since could change this answer"))
	// A second writer corrects node a, the node the answer counts versions of.
	correction := bt.Correct(bt.NodeRef("a"), bt.Props(`{"name":"A. Lovelace"}`), bt.Interval{Start: s.Start + 6*testdb.Hour, End: s.Start + 7*testdb.Hour})
	if _, err := s.DB.Write(correction); err != nil {
		t.Fatal(err)
	}
	step("possibly stale after the correction",
		chromedp.Click(chromedp.CSS("#fresh-button")),
		waitContains("#fresh-verdict", "POSSIBLY STALE"),
		waitContains("#fresh-reasons", "node a"),
		waitContains("#fresh-reasons", "correct"))
	step("refresh",
		chromedp.Click(chromedp.CSS("#refresh-button")),
		waitText("#refresh-verdict", "the answer CHANGED"),
		waitText("#refresh-old", "3"))
	if got := text("#refresh-new"); got == "3" || got == "" {
		t.Fatalf("the refreshed answer is %q, the corrected store holds more versions of a", got)
	}
	step("operator explorer",
		chromedp.SetValue(chromedp.CSS("#op-select"), "temporal_reachability"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("#op-select").dispatchEvent(new Event("change"))`),
		chromedp.SetValue(chromedp.CSS(`#op-form [name="src"]`), "a"),
		chromedp.Click(chromedp.CSS(`#op-form button[type="submit"]`)),
		waitContains("#op-result", "rows_total4"),
		chromedp.Poll[chromedp.Void](`!!(document.querySelector("#op-result .graph")||{}).cy`))
	if got := eval(`document.documentElement.scrollWidth + "/" + window.innerWidth`); !strings.HasSuffix(got, "/"+strings.SplitN(got, "/", 2)[0]) {
		t.Fatalf("the page is wider than the window (scroll width/window width): %s", got)
	}
	if got := eval(`JSON.stringify(window.problems)`); got != "[]" {
		t.Fatalf("the page raised script errors or policy violations: %s", got)
	}
	shot("console.png")

	// Which payloads become which pictures: motif instances, a chain and a
	// subgraph are graphs, bursts and a degree series are charts, and
	// payloads with no edges or a single bucket are neither.
	const pictures = `(() => {
		const e = (src, dst, eid, t) => ({ src, dst, eid, t, rel_type: "MSG" });
		const g = (op, args, result) => { const x = graphOf(op, args, result);
			return x ? x.nodes.length + "/" + x.edges.length + "/" + x.nodes.filter((n) => n.role).map((n) => n.id + ":" + n.role).join() : "none"; };
		const c = (op, args, result) => Object.entries(result).map(([k, v]) => seriesOf(op, args, k, v)).filter(Boolean)
			.map((s) => s.name + ":" + s.ys.join("+") + ":" + s.rows.length + (s.range ? ":" + s.range.join("-") : "") + (s.bursts ? ":points" : "")).join() || "none";
		return [
			g("find_temporal_motif_instances", {}, { rows: [{ edges: [e("a", "b", "1", 1), e("b", "c", "2", 2), e("c", "a", "3", 3)] }, { edges: [e("a", "b", "1", 1), e("b", "c", "2", 2), e("c", "a", "4", 4)] }] }),
			g("longest_temporal_path", { src: "a" }, { chain: [e("a", "b", "1", 1), e("b", "c", "2", 2)], length: 2 }),
			g("snapshot_subgraph", { seeds: ["a"] }, { nodes: [{ uid: "a", hop: 0 }, { uid: "b", hop: 1 }, { uid: "z", hop: 1 }], rows: [{ src: "a", dst: "b", eid: "x", vt_s: 5, vt_e: 9 }] }),
			g("count_temporal_motifs", {}, { count: 3 }),
			g("entity_history", { uid: "a" }, { rows: [{ uid: "a", vt_s: 1, vt_e: 2 }] }),
			(() => { const x = graphOf("find_temporal_motif_instances", {}, { rows: Array.from({ length: 30 }, (_, i) => ({ edges: [e("a", "b", "p" + i, 100 - i)] })) });
				return x.nodes.length + "/" + x.edges.length + "/" + x.events + "/" + x.edges[0].n + "/" + x.edges[0].t; })(),
			(() => { const x = graphOf("temporal_reachability", { src: "s" }, { rows: Array.from({ length: 50 }, (_, i) => ({ uid: "r" + i, earliest_arrival: i, latest_departure: null })) });
				return x.nodes.length + "/" + x.edges.length + "/" + x.total; })(),
			c("burst_detection", { window: { t_a: 0, t_b: 10e6 } }, { n_buckets: 10, rows: [{ score: 4.5, t_a: 3e6, t_b: 4e6, value: 9 }] }),
			c("neighborhood_evolution", {}, { degree_series: [{ t: 2e6, degree: 3 }, { t: 1e6, degree: 1 }], neighbors_gained: [] }),
			c("entity_history", {}, { rows: [{ uid: "a", vt_s: 1, vt_e: 2, tt_s: 3, tt_e: 4 }] }),
			c("compute", {}, { rows: [{ t_a: 1, t_b: 2, value: 1 }] }),
			c("aggregate_events", {}, { rows: [{ t_a: 1, t_b: 2, src: "a", count: 1 }, { t_a: 1, t_b: 2, src: "b", count: 2 }, { t_a: 2, t_b: 3, src: "a", count: 1 }] }),
			c("aggregate_events", {}, { rows: [{ t_a: 2, t_b: 3, count: 4, max_gap: 7 }, { t_a: 1, t_b: 2, count: 1, max_gap: 5 }] }),
		].join(" | ");
	})()`
	want := "3/4/ | 3/2/a:source | 3/1/a:source | none | none | 2/1/30/30/71 | 40/39/51 | rows:value+score:1:0-10:points | degree_series:degree:2 | none | none | none | rows:count:2"
	if got := eval(pictures); got != want {
		t.Fatalf("pictures of payloads:\n got %s\nwant %s", got, want)
	}
	step("a wide reachability result is drawn in rings",
		chromedp.Evaluate[chromedp.Void](`document.body.append(vizFor("temporal_reachability", { src: "s" }, { rows: Array.from({ length: 50 }, (_, i) => ({ uid: "r" + i, earliest_arrival: i * 1e6, latest_departure: null })) }))`),
		chromedp.Poll[chromedp.Void](`!!(document.querySelector(".viz:last-child .graph")||{}).cy`))
	if got := eval(`(() => { const cy = document.querySelector(".viz:last-child .graph").cy, s = cy.$id("s").position(), r = cy.$id("r0").position(), q = cy.$id("r20").position();
		const d = (p) => Math.round(Math.hypot(p.x - s.x, p.y - s.y)); return cy.nodes().length + "/" + (d(r) > 0 && Math.abs(d(r) - d(q)) <= 1); })()`); got != "40/true" {
		t.Fatalf("the wide reachability graph (nodes/reached nodes on one ring around the source): %s", got)
	}
	step("a burst chart is drawn",
		chromedp.Evaluate[chromedp.Void](`document.body.append(vizFor("burst_detection", { window: { t_a: 0, t_b: 10e6 } }, { rows: [{ score: 3.5, t_a: 3e6, t_b: 4e6, value: 900 }, { score: 4.5, t_a: 5e6, t_b: 6e6, value: 1200 }] }))`),
		chromedp.Poll[chromedp.Void](`!!(document.querySelector(".viz:last-child .plot")||{}).uplot`))
	if got := eval(`(() => { const u = document.querySelector(".viz:last-child .plot").uplot; return u.scales.x.min + "-" + u.scales.x.max + "/" + u.data[1].join() + "/" + u.series.map((s) => s.label + ":" + (s.scale || "")).join(); })()`); got != "0-10/900,1200/time:x,value:y,score:y2" {
		t.Fatalf("the burst chart (x range/values/series and their scales): %s", got)
	}
	// Both refusal shapes show their code, rule, path and hint.
	if got := eval(`(() => { const d = el("div", {}), f = el("div", {});
		showError(d, { error: { code: "E_SCHEMA", message: "bad", violations: [{ code: "E_SCHEMA", rule: "arg.type", path: "/limit", hint: "an integer" }] } });
		showError(f, { code: "E_ORIGIN", rule: "request.origin", path: "", hint: "same origin only", message: "cross-origin" });
		return d.innerText.replace(/\s+/g, " ") + " | " + f.innerText.replace(/\s+/g, " "); })()`); !strings.Contains(got, "E_SCHEMA: bad") || !strings.Contains(got, "arg.type") ||
		!strings.Contains(got, "an integer") || !strings.Contains(got, "E_ORIGIN: cross-origin") || !strings.Contains(got, "request.origin") || !strings.Contains(got, "same origin only") {
		t.Fatalf("refusals shown as %q", got)
	}
	if got := eval(`JSON.stringify(window.problems)`); got != "[]" {
		t.Fatalf("the page raised script errors or policy violations: %s", got)
	}
}

// jsCoverage records which bytes of the console's own scripts the test
// runs (V8 block coverage) and logs the share per script when the
// returned func is called. Set TGMS_JS_COVERAGE=1 to measure.
func jsCoverage(t *testing.T, ctx context.Context) func() {
	t.Helper()
	yes := true
	if _, err := chromedp.Call(ctx, profiler.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, profiler.StartPreciseCoverage, profiler.StartPreciseCoverageParams{CallCount: &yes, Detailed: &yes}); err != nil {
		t.Fatal(err)
	}
	return func() {
		res, err := chromedp.Call(ctx, profiler.TakePreciseCoverage, cdp.Empty{})
		if err != nil {
			t.Fatal(err)
		}
		for _, sc := range res.Result {
			name := sc.URL[strings.LastIndex(sc.URL, "/")+1:]
			if !strings.Contains(sc.URL, "/console/") || strings.Contains(sc.URL, "/vendor/") || len(sc.Functions) == 0 {
				continue
			}
			// Ranges nest: each function's ranges, in order, override the
			// enclosing ones; the first function is the whole script.
			size := sc.Functions[0].Ranges[0].EndOffset
			count := make([]int64, size)
			funcs, called := 0, 0
			for i, f := range sc.Functions {
				for _, r := range f.Ranges {
					for o := r.StartOffset; o < r.EndOffset && o < size; o++ {
						count[o] = r.Count
					}
				}
				if i > 0 {
					funcs++
					if f.Ranges[0].Count > 0 {
						called++
					}
				}
			}
			run := 0
			for _, c := range count {
				if c > 0 {
					run++
				}
			}
			t.Logf("js coverage %s: %.1f%% of %d bytes, %d of %d functions called", name, 100*float64(run)/float64(size), size, called, funcs)
		}
	}
}
