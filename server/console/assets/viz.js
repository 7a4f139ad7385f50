// TGMS console: results drawn as pictures. A series (rows over time
// buckets, bursts) becomes a chart (uPlot); reachability, paths, motif
// instances and subgraphs become a small graph (Cytoscape). Both libraries
// are embedded (vendor/), and the tables stay below the picture.
"use strict";

const MAX_GRAPH_NODES = 40; // more is not readable in a step card
const MAX_LABELLED_EDGES = 24; // past this, parallel edges merge and carry their count
const COLORS = ["#2f5bd3", "#b54708", "#137a3f", "#7a2ed3", "#b42318"];
const NOT_Y = new Set(["rank", "position", "hop", "hops", "n", "day_of_week", "day_of_month", "hour_of_day", "month_of_year"]);

// vizFor returns a box with the pictures for one payload, or null. op and
// args are the call's (they name a reachability source or a window).
function vizFor(op, args, result) {
  if (!result || typeof result !== "object") return null;
  const box = el("div", { class: "viz" });
  for (const [name, rows] of Object.entries(result)) {
    const s = seriesOf(op, args, name, rows);
    if (s) box.append(chartBox(s));
  }
  const g = graphOf(op, args || {}, result);
  if (g) box.append(graphBox(g));
  return box.childNodes.length ? box : null;
}

// --- series ---------------------------------------------------------------------

// seriesOf reads a list of rows with a time (t_a or t) and numeric
// columns as a series; burst_detection's flagged buckets are points over
// the call's window.
function seriesOf(op, args, name, rows) {
  if (!Array.isArray(rows) || !rows.length || typeof rows[0] !== "object" || rows[0] === null) return null;
  const x = typeof rows[0].t_a === "number" ? "t_a" : typeof rows[0].t === "number" ? "t" : "";
  if (!x) return null;
  const ys = Object.keys(rows[0]).filter((k) => k !== x && !isTimeField(k) && !isDurationField(k) && !NOT_Y.has(k) &&
    rows.some((r) => typeof r[k] === "number"));
  if (!ys.length) return null;
  const bursts = op === "burst_detection";
  if (bursts) ys.sort((a, b) => (b === "value") - (a === "value")); // the bucket's count first, its score second
  if (rows.length < 2 && !bursts) return null;
  const sorted = rows.filter((r) => typeof r[x] === "number").sort((a, b) => a[x] - b[x]);
  // Several rows at one time (groups by a uid, a label, …) are not one series.
  if (sorted.some((r, i) => i > 0 && r[x] === sorted[i - 1][x])) return null;
  const w = args && args.window;
  const range = bursts && w && typeof w.t_a === "number" && typeof w.t_b === "number" ? [w.t_a / 1e6, w.t_b / 1e6] : null;
  return { name, x, ys, rows: sorted, bursts, range };
}

function chartBox(s) {
  const box = el("div", { class: "chart", "data-points": String(s.rows.length), "data-series": s.ys.join(","), role: "img",
    "aria-label": "chart of " + s.ys.join(", ") + " over " + s.rows.length + " points; the rows are in the table below" });
  box.append(el("div", { class: "muted caption" }, (s.bursts ? "flagged buckets" : s.name) + " over time (UTC): " + s.ys.join(", ")));
  const plot = el("div", { class: "plot" });
  box.append(plot);
  setTimeout(() => drawChart(plot, s), 0); // once the box is in the page and has a width
  return box;
}

function drawChart(plot, s) {
  if (typeof uPlot !== "function") { plot.append(el("p", { class: "unsupported" }, "the chart library did not load")); return; }
  const xs = s.rows.map((r) => r[s.x] / 1e6);
  const cols = s.ys.map((k) => s.rows.map((r) => (typeof r[k] === "number" ? r[k] : null)));
  // A bucketed series steps: each value holds over its bucket [t_a, t_b),
  // so the last bucket's end closes the line.
  const stepped = !s.bursts && s.x === "t_a" && typeof s.rows[s.rows.length - 1].t_b === "number";
  if (stepped) {
    xs.push(s.rows[s.rows.length - 1].t_b / 1e6);
    for (const c of cols) c.push(c[c.length - 1]);
  }
  const data = [xs, ...cols];
  const width = Math.max(300, Math.min(680, (plot.parentElement && plot.parentElement.clientWidth) || 640));
  const series = [{ label: "time", value: (u, v) => (v === null || v === undefined ? "—" : dateText(Math.round(v * 1e6))) }];
  // A column far larger or smaller than the first gets its own axis, on the right.
  const mag = (c) => c.reduce((m, v) => (v === null ? m : Math.max(m, Math.abs(v))), 1e-9);
  const scale = cols.map((c, i) => (i > 0 && Math.max(mag(c) / mag(cols[0]), mag(cols[0]) / mag(c)) > 10 ? "y2" : "y"));
  const axis = (sc) => s.ys.filter((k, i) => scale[i] === sc).join(", ");
  const axes = [{ stroke: "#667085", grid: { stroke: "#eef0f4" }, values: timeTicks, space: 60 },
    { scale: "y", stroke: "#667085", grid: { stroke: "#eef0f4" }, label: axis("y"), labelSize: 18 }];
  if (scale.includes("y2")) axes.push({ scale: "y2", side: 1, stroke: "#667085", grid: { show: false }, label: axis("y2"), labelSize: 18 });
  s.ys.forEach((k, i) => series.push({
    label: k, scale: scale[i], stroke: COLORS[i % COLORS.length], width: 2,
    fill: s.bursts ? undefined : COLORS[i % COLORS.length] + "22",
    paths: s.bursts ? () => null : stepped ? uPlot.paths.stepped({ align: 1 }) : undefined,
    points: { show: true, size: s.bursts ? 9 : 5, fill: COLORS[i % COLORS.length] },
  }));
  const opts = {
    width, height: 220, series,
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1e3), "Etc/UTC"),
    scales: { x: { time: true, range: s.range ? () => s.range : undefined } },
    axes,
    cursor: { drag: { x: false, y: false } },
  };
  plot.uplot = new uPlot(opts, data, plot);
}

// timeTicks labels the time axis in UTC, 24-hour: the time of day, with
// the date under the first tick and wherever the date changes; only the
// date when every tick is at midnight.
function timeTicks(u, splits) {
  let day = "";
  const midnights = splits.every((v) => dateText(Math.round(v * 1e6)).slice(11, 19) === "00:00:00");
  return splits.map((v) => {
    if (midnights) return dateText(Math.round(v * 1e6)).slice(0, 10);
    const d = dateText(Math.round(v * 1e6)); // 2024-01-01 01:00:00[.ffffff] UTC
    const date = d.slice(0, 10);
    const label = d.slice(11, 19).replace(/:00$/, "");
    const out = date !== day ? label + "\n" + date : label;
    day = date;
    return out;
  });
}

// --- graphs ---------------------------------------------------------------------

// graphOf reads the nodes and edges a payload names: edge rows ({src,
// dst}), rows that carry an edge list (paths, motif instances), a chain,
// or a reachability result (dashed: src reaches uid, labelled with the
// earliest arrival or latest departure).
function graphOf(op, args, result) {
  const nodes = new Map();
  const edges = [];
  const seen = new Set();
  const node = (id, role) => {
    if (!nodes.has(id)) nodes.set(id, { id, role: role || "" });
    else if (role && !nodes.get(id).role) nodes.get(id).role = role;
  };
  const edge = (e, kind) => {
    if (typeof e.src !== "string" || typeof e.dst !== "string") return;
    const t = typeof e.t === "number" ? e.t : typeof e.vt_s === "number" ? e.vt_s : null;
    const key = (e.eid || e.src + ">" + e.dst) + "@" + t;
    if (seen.has(key)) return;
    seen.add(key);
    node(e.src); node(e.dst);
    edges.push({ source: e.src, target: e.dst, t, kind });
  };
  const rows = Array.isArray(result.rows) ? result.rows : [];
  if (op === "temporal_reachability" && typeof args.src === "string") {
    node(args.src, "source");
    for (const r of rows) {
      if (typeof r.uid !== "string") continue;
      node(r.uid);
      if (typeof r.earliest_arrival === "number") edges.push({ source: args.src, target: r.uid, t: r.earliest_arrival, kind: "reach" });
      if (typeof r.latest_departure === "number") edges.push({ source: r.uid, target: args.src, t: r.latest_departure, kind: "reach" });
    }
  } else {
    for (const r of rows) {
      if (r && Array.isArray(r.edges)) r.edges.forEach((e) => edge(e, "event"));
      else if (r && typeof r.src === "string") edge(r, "event");
    }
    for (const e of Array.isArray(result.chain) ? result.chain : []) edge(e, "event");
    for (const n of Array.isArray(result.nodes) ? result.nodes : []) if (n && typeof n.uid === "string") node(n.uid, n.hop === 0 ? "source" : "");
    if (typeof args.src === "string" && nodes.has(args.src)) node(args.src, "source");
    if (typeof args.dst === "string" && nodes.has(args.dst)) node(args.dst, "target");
  }
  if (!edges.length) return null;
  const total = nodes.size;
  let keep = nodes;
  if (total > MAX_GRAPH_NODES) keep = new Map([...nodes].slice(0, MAX_GRAPH_NODES));
  let kept = edges.filter((e) => keep.has(e.source) && keep.has(e.target));
  const events = kept.length;
  if (kept.length > MAX_LABELLED_EDGES) kept = mergeParallel(kept);
  return { op, nodes: [...keep.values()], edges: kept, events, total, src: args.src, motif: op === "find_temporal_motif_instances" };
}

// mergeParallel keeps one edge per (source, target, kind), the earliest,
// with n the number of edges it stands for.
function mergeParallel(edges) {
  const by = new Map();
  for (const e of edges) {
    const k = e.source + "\u0000" + e.target + "\u0000" + e.kind;
    const m = by.get(k);
    if (!m) by.set(k, { ...e, n: 1 });
    else { m.n++; if (e.t !== null && (m.t === null || e.t < m.t)) m.t = e.t; }
  }
  return [...by.values()];
}

function graphBox(g) {
  const box = el("div", { class: "graph-box" });
  const reach = g.edges.some((e) => e.kind === "reach");
  const times = g.edges.map((e) => e.t).filter((t) => typeof t === "number");
  const day = oneDay(times);
  let caption = (g.nodes.length < g.total ? "the first " + g.nodes.length + " of " + g.total + " nodes" : g.total + " nodes") + ", " +
    (g.events > g.edges.length ? g.events + " edges drawn as " + g.edges.length + " (×n: n edges between the pair, labelled with the count)" : g.edges.length + " edges");
  caption += reach ? "; dashed: reachable along time-respecting paths, labelled with the earliest arrival (or latest departure)" : "; edges labelled with their event time";
  if (g.edges.length > 12) caption += " (hover an edge for its label)";
  caption += day ? ", UTC on " + day : ", UTC";
  box.append(el("div", { class: "muted caption" }, caption));
  const c = el("div", { class: g.nodes.length > 15 ? "graph big" : "graph", "data-nodes": String(g.nodes.length), "data-edges": String(g.edges.length), role: "img", "aria-label": caption });
  box.append(c);
  setTimeout(() => drawGraph(c, g, day), 0);
  return box;
}

// layered places the nodes left to right by their hop distance from the
// roots (a path reads as a line, a reachability result as a fan), the
// nodes of one layer top to bottom in the order they were met.
function layered(g, roots) {
  const out = new Map();
  for (const e of g.edges) (out.get(e.source) || out.set(e.source, []).get(e.source)).push(e.target);
  const depth = new Map();
  const queue = [];
  const visit = (id, d) => { if (!depth.has(id)) { depth.set(id, d); queue.push(id); } };
  for (const r of roots) visit(r, 0);
  for (let i = 0; ; ) {
    for (; i < queue.length; i++) for (const next of out.get(queue[i]) || []) visit(next, depth.get(queue[i]) + 1);
    const left = g.nodes.find((n) => !depth.has(n.id)); // not reached from a root
    if (!left) break;
    visit(left.id, 0);
  }
  const rows = new Map();
  const pos = {};
  for (const id of queue) {
    const d = depth.get(id), k = rows.get(d) || 0;
    rows.set(d, k + 1);
    pos[id] = { x: d * 180, y: k * 70 };
  }
  for (const [id, p] of Object.entries(pos)) p.y -= ((rows.get(depth.get(id)) - 1) * 70) / 2; // centre each layer
  return pos;
}

// oneDay is the UTC date all times fall on, or "".
function oneDay(times) {
  if (!times.length) return "";
  const d = dateText(times[0]).slice(0, 10);
  return times.every((t) => dateText(t).slice(0, 10) === d) ? d : "";
}

function drawGraph(c, g, day) {
  if (typeof cytoscape !== "function") { c.append(el("p", { class: "unsupported" }, "the graph library did not load")); return; }
  const label = (t) => (typeof t !== "number" ? "" : day ? dateText(t).slice(11, 19).replace(/:00$/, "") : dateText(t).slice(0, 16));
  const elements = [];
  for (const n of g.nodes) elements.push({ group: "nodes", data: { id: n.id, role: n.role } });
  g.edges.forEach((e, i) => elements.push({ group: "edges", data: { id: "e" + i, source: e.source, target: e.target, kind: e.kind,
    label: e.n > 1 ? "×" + e.n : label(e.t) } }));
  const roots = g.nodes.filter((n) => n.role === "source").map((n) => n.id);
  let layout = { name: "circle", padding: 24 };
  if (!g.motif && roots.length) {
    const positions = layered(g, roots);
    const widest = Math.max(...Object.values(positions).reduce((m, p) => m.set(p.x, (m.get(p.x) || 0) + 1), new Map()).values());
    // A wide layer (a source reaching many nodes) reads better as rings around the source.
    layout = widest <= 8 ? { name: "preset", positions, padding: 28 }
      : { name: "concentric", padding: 24, minNodeSpacing: 14, concentric: (n) => -positions[n.id()].x, levelWidth: () => 1 };
  }
  c.cy = cytoscape({
    container: c, elements, layout, maxZoom: 1.6,
    userZoomingEnabled: false, boxSelectionEnabled: false,
    style: [
      { selector: "node", style: { label: "data(id)", "background-color": "#2f5bd3", color: "#1d2330", "font-size": 12, "text-valign": "top", "text-margin-y": -4, width: 18, height: 18 } },
      { selector: 'node[role = "source"]', style: { "background-color": "#137a3f", width: 24, height: 24 } },
      { selector: 'node[role = "target"]', style: { "background-color": "#b54708", width: 24, height: 24 } },
      { selector: "edge", style: { width: 1.5, "line-color": "#98a2b3", "target-arrow-color": "#98a2b3", "target-arrow-shape": "triangle", "curve-style": "bezier",
        label: "data(label)", "font-size": 10, color: "#475467", "text-background-color": "#fff", "text-background-opacity": 0.85, "text-background-padding": 1 } },
      { selector: 'edge[kind = "reach"]', style: { "line-style": "dashed" } },
      { selector: "edge.quiet", style: { label: "" } },
      { selector: "edge.quiet.hover", style: { label: "data(label)", "z-index": 10 } },
    ],
  });
  // Many edges: their labels show on hover only.
  if (g.edges.length > 12) {
    c.cy.edges().addClass("quiet");
    c.cy.on("mouseover", "edge", (ev) => ev.target.addClass("hover"));
    c.cy.on("mouseout", "edge", (ev) => ev.target.removeClass("hover"));
  }
}
