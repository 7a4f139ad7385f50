// TGMS console: talks to the HTTP API of the same server (/v1/...).
"use strict";

const PAGE = 10;
let token = sessionStorage.getItem("tgms-token") || "";
let last = null; // the last ask result shown, null after a refusal
let lastStats = null;

async function api(path, body) {
  const opt = { method: body === undefined ? "GET" : "POST", headers: {} };
  if (body !== undefined) { opt.headers["Content-Type"] = "application/json"; opt.body = JSON.stringify(body); }
  if (token) opt.headers["Authorization"] = "Bearer " + token;
  let r;
  try {
    r = await fetch(path, opt);
  } catch (e) {
    return { ok: false, status: 0, data: { error: { code: "E_NETWORK", message: "the server did not answer (" + e.message + ")", violations: [] } } };
  }
  let data = null;
  try { data = await r.json(); } catch (e) { data = { error: { code: "E_HTTP", message: r.statusText, violations: [] } }; }
  return { ok: r.ok, status: r.status, data };
}

function short(d) { return d ? d.slice(0, 12) : ""; }
function status(msg) { $("status").textContent = msg; }
// showError shows a refusal: {error: {code, message, violations}}, or a
// body that is itself one {code, rule, path, hint, message}.
function showError(where, data) {
  const e = (data && (data.error || (data.code && data))) || { code: "E_HTTP", message: "request failed", violations: [] };
  if (!e.violations && e.rule) e.violations = [e];
  const box = el("div", { class: "error" }, el("p", { class: "unsupported" }, e.code + ": ", proseEl(e.message || e.hint || "")));
  const t = el("table", {}, el("tr", {}, ...["code", "rule", "path", "hint", "allowed"].map((h) => el("th", {}, h))));
  for (const v of e.violations || []) t.append(el("tr", {}, el("td", {}, v.code), el("td", {}, v.rule), el("td", {}, v.path), el("td", {}, v.hint || ""), el("td", {}, (v.allowed || []).join(", "))));
  box.append(t);
  clear(where).append(box);
}

function parseBelief(text) {
  text = text.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  return text; // RFC 3339: the server parses it
}

// --- asking -------------------------------------------------------------------

function askBody(asOf) {
  const body = { question: $("question").value };
  const uids = $("uids").value.split(",").map((s) => s.trim()).filter(Boolean);
  if (uids.length) body.uids = uids;
  if (asOf !== undefined) body.as_of_tt = asOf;
  return body;
}

// busy disables the buttons that start a request while one is in flight;
// they come back whatever the request ended in (answer, refusal, error).
async function busy(what, fn) {
  const buttons = ["ask-button", "compare-button"].map($);
  for (const b of buttons) b.disabled = true;
  status(what);
  try {
    return await fn();
  } catch (e) {
    clearAnswer();
    showError($("answer-text"), { error: { code: "E_CONSOLE", message: e.message, violations: [] } });
  } finally {
    for (const b of buttons) b.disabled = false;
    status("");
  }
}

async function ask(ev) {
  if (ev) ev.preventDefault();
  await busy("asking…", async () => {
    $("compare").classList.add("hidden");
    const asOf = parseBelief($("as-of").value);
    const r = await api("/v1/ask", askBody(asOf));
    $("answer").classList.remove("hidden");
    if (!r.ok) {
      clearAnswer();
      $("answer-value").textContent = "refused";
      showError($("answer-text"), r.data);
      return;
    }
    await refreshStats();
    renderAnswer(r.data, asOf !== undefined);
    beliefTimes(r.data.uids);
  });
}

// clearAnswer empties everything the previous answer showed, so that a
// refusal never sits next to an earlier question's answer.
function clearAnswer() {
  last = null;
  for (const id of ["answer-value", "answer-text", "answer-belief", "answer-digest", "verify-result", "fresh-result", "reading", "withheld", "dag"]) clear($(id));
  clear($("claims").querySelector("tbody"));
  $("answer-header").classList.remove("earlier");
  $("answer-detail").classList.add("hidden");
  $("answer-title").textContent = "Refused";
  $("answer-digest").textContent = "—";
  for (const b of ["verify-button", "fresh-button", "refresh-button"]) $(b).disabled = true;
}

// renderAnswer shows one ask result; asked says a belief time was given.
function renderAnswer(a, asked) {
  clearAnswer();
  $("reading").append(readingView(a.reading));
  if (a.refusal) {
    $("answer-title").textContent = "Refused";
    $("answer-value").textContent = "refused";
    $("answer-text").textContent = a.refusal;
    return;
  }
  last = a;
  $("answer-title").textContent = "Certified answer";
  $("answer-detail").classList.remove("hidden");
  $("answer-value").append(answerEl(a.value, answerField(a)));
  $("answer-text").textContent = a.text || "(no claim survived the evidence gate)";
  beliefHeader(a, asked);
  $("answer-digest").textContent = a.trace_digest || "—";
  for (const b of ["verify-button", "fresh-button", "refresh-button"]) $(b).disabled = !a.trace_digest;
  const tb = $("claims").querySelector("tbody");
  for (const c of a.claims || []) tb.append(el("tr", {}, el("td", {}, c.id), el("td", {}, c.kind), el("td", { class: c.verdict }, c.verdict), el("td", {}, proseEl(c.reason))));
  const w = $("withheld");
  if ((a.withheld || []).length) {
    w.append(el("h3", {}, "Withheld"));
    const ul = el("ul", {});
    for (const c of a.withheld) ul.append(el("li", {}, el("span", { class: c.verdict }, c.id + " " + c.verdict), ": ", proseEl(c.reason)));
    w.append(ul);
  }
  renderDAG($("dag"), a.steps || []);
}

// beliefHeader says in the answer's header at which belief time it holds,
// and says so plainly when that is earlier than what the store believes now.
function beliefHeader(a, asked) {
  const h = $("answer-belief");
  const now = lastStats ? lastStats.last_tt : 0;
  if (!a.as_of_tt) { h.append("no belief time"); return; }
  if (now && a.as_of_tt < now) {
    $("answer-header").classList.add("earlier");
    h.append(asked ? "asked at an earlier belief time: as the store believed at " : "as the store believed at ", timeEl(a.as_of_tt),
      asked ? "" : " (the store has written since)", el("br", {}), "the store now believes as of ", timeEl(now));
    return;
  }
  h.append(asked ? "at belief time " : "as the store believes now, ", timeEl(a.as_of_tt));
}

// renderDAG lays the steps out in columns by dependency depth.
function renderDAG(box, steps) {
  clear(box);
  const depth = {};
  for (const s of steps) depth[s.step_id] = 1 + Math.max(0, ...(s.depends_on || []).map((d) => depth[d] || 0));
  const levels = [];
  for (const s of steps) (levels[depth[s.step_id] - 1] ||= []).push(s);
  for (const lv of levels) {
    const col = el("div", { class: "level" });
    for (const s of lv || []) col.append(stepCard(s));
    box.append(col);
  }
}

function stepCard(s) {
  const card = el("div", { class: "step", id: "step-" + s.step_id, "data-op": s.op });
  card.append(el("h4", {}, s.step_id + " ", el("code", {}, s.op), " ", el("span", { class: s.status }, s.status)));
  if ((s.depends_on || []).length) card.append(el("div", { class: "arrow" }, "← " + s.depends_on.join(", ")));
  card.append(argsView(s.args || {}));
  const dl = el("dl", {});
  const add = (k, v) => dl.append(el("dt", {}, k), el("dd", {}, v));
  add("completeness", s.complete ? "complete" : "incomplete" + (s.incomplete_reason ? ": " + s.incomplete_reason : ""));
  add("rows", s.rows_returned + " of " + s.rows_total + (s.truncated ? " (truncated)" : ""));
  add("call", el("code", { title: s.call_digest || "" }, short(s.call_digest)));
  add("result", el("code", { title: s.result_digest || "" }, short(s.result_digest)));
  if (s.error) add("error", s.error.code + ": " + s.error.message);
  card.append(dl);
  if (s.result) card.append(resultView(s.result, s.op, s.args));
  return card;
}

// argsView lists a step's arguments (times as dates); long ones fold.
function argsView(args) {
  const dl = el("dl", { class: "args" });
  for (const [k, v] of Object.entries(args)) dl.append(el("dt", {}, k), el("dd", {}, cell(k, v)));
  const n = JSON.stringify(args).length;
  if (n <= 600) return dl;
  return el("details", {}, el("summary", {}, "arguments (" + n + " characters, references resolved)"), dl);
}

// resultView shows a payload: its pictures (a chart, a graph), scalar
// fields, then each row list as a paged table.
function resultView(result, op, args) {
  const box = el("div", { class: "result" });
  const scalars = el("dl", {});
  const tables = [];
  for (const [k, v] of Object.entries(result)) {
    if (Array.isArray(v) && v.length && typeof v[0] === "object") tables.push(el("div", {}, el("strong", {}, k), pagedTable(v)));
    else scalars.append(el("dt", {}, k), el("dd", {}, cell(k, v)));
  }
  const viz = vizFor(op, args, result);
  if (viz) box.append(viz);
  box.append(scalars, ...tables);
  return box;
}

function pagedTable(rows) {
  const wrap = el("div", {});
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  let page = 0;
  const draw = () => {
    clear(wrap);
    const t = el("table", {}, el("tr", {}, ...cols.map((c) => el("th", {}, c))));
    for (const r of rows.slice(page * PAGE, (page + 1) * PAGE)) {
      t.append(el("tr", {}, ...cols.map((c) => el("td", {}, cell(c, r[c])))));
    }
    wrap.append(t);
    const pages = Math.ceil(rows.length / PAGE);
    if (pages > 1) {
      wrap.append(el("div", { class: "pager" },
        el("button", { type: "button", onclick: () => { page = Math.max(0, page - 1); draw(); } }, "‹"),
        "page " + (page + 1) + " of " + pages,
        el("button", { type: "button", onclick: () => { page = Math.min(pages - 1, page + 1); draw(); } }, "›")));
    }
  };
  draw();
  return wrap;
}

// --- belief time ----------------------------------------------------------------

// beliefTimes offers the transaction times at which the versions of the
// answer's uids were written: "just before" each re-asks as the store then believed.
async function beliefTimes(uids) {
  const box = clear($("belief-times"));
  const tts = new Set();
  if ((uids || []).length) {
    const r = await api("/v1/version_history", { kind: "node", uids, belief: "all", window: { t_a: 0, t_b: Number.MAX_SAFE_INTEGER }, limit: 10000 });
    if (r.ok) for (const row of r.data.result.rows) tts.add(row.tt_s);
  }
  const sorted = [...tts].sort((a, b) => a - b);
  if (!sorted.length) return;
  box.append(el("span", { class: "muted" }, "belief changed at:"));
  for (const tt of sorted) {
    box.append(el("button", { type: "button", class: "belief-chip", "data-tt": String(tt - 1), title: "ask as the store believed just before " + dateText(tt) + " (" + tt + " µs)",
      onclick: () => { $("as-of").value = String(tt - 1); compare(); } }, "just before " + dateText(tt)));
  }
}

async function versions(uids, asOf) {
  const out = [];
  for (const uid of uids || []) {
    const r = await api("/v1/entity_history", { uid, as_of_tt: asOf, limit: 10000 });
    if (r.ok) out.push(...r.data.result.rows);
  }
  return out;
}

async function compare() {
  const asOf = parseBelief($("as-of").value);
  if (asOf === undefined) { status("set a belief time to compare with now"); return; }
  await busy("comparing…", () => compareAt(asOf));
}

async function compareAt(asOf) {
  const [before, after] = await Promise.all([api("/v1/ask", askBody(asOf)), api("/v1/ask", askBody(undefined))]);
  await refreshStats();
  $("compare").classList.remove("hidden");
  for (const [box, r] of [[$("compare-before"), before], [$("compare-after"), after]]) {
    if (!r.ok) { showError(box, r.data); continue; }
    const a = r.data;
    const changed = before.ok && after.ok && answerString(before.data) !== answerString(after.data);
    clear(box).classList.toggle("changed", changed);
    box.append(el("h4", {}, box.id === "compare-before" ? "believed at " : "believed now, ", timeEl(a.as_of_tt)),
      el("p", { class: "value" }, a.refusal ? "refused" : answerEl(a.value, answerField(a))), el("pre", {}, a.text || a.refusal || ""),
      el("p", { class: "muted" }, "trace ", el("code", {}, short(a.trace_digest))));
    const rows = await versions(a.uids, a.as_of_tt);
    if (rows.length) box.append(el("strong", {}, "versions behind it"), pagedTable(rows.map((v) => ({ uid: v.uid, vt_s: v.vt_s, vt_e: v.vt_e, props: v.props, created_by: v.created_by, tt_s: v.tt_s }))));
  }
  if (after.ok) renderAnswer(after.data);
  $("answer").classList.remove("hidden");
}

async function verifyTrace() {
  if (!last || !last.trace_digest) return;
  const box = clear($("verify-result"));
  box.append("verifying…");
  const r = await api("/v1/trace_verify", { trace_digest: last.trace_digest });
  if (!r.ok) { showError(box, r.data); return; }
  clear(box).append(el("p", { class: r.data.reproduced ? "reproduced" : "differs", id: "verify-verdict" },
    ...(r.data.reproduced ? ["every digest reproduces at ", timeEl(r.data.as_of_tt)] : ["the trace does NOT reproduce"])));
  const t = el("table", {}, el("tr", {}, el("th", {}, "step"), el("th", {}, "op"), el("th", {}, "call"), el("th", {}, "result"), el("th", {}, "")));
  for (const s of r.data.steps) t.append(el("tr", {}, el("td", {}, s.step_id), el("td", {}, s.op), el("td", {}, el("code", {}, short(s.call_digest_again))),
    el("td", {}, el("code", {}, short(s.result_digest_again))), el("td", { class: s.reproduced ? "reproduced" : "differs" }, s.reproduced ? "reproduced" : "DIFFERS")));
  box.append(t);
}

// --- freshness -------------------------------------------------------------------

async function checkFresh() {
  if (!last || !last.trace_digest) return;
  const box = clear($("fresh-result"));
  box.append("checking…");
  const r = await api("/v1/trace_check", { trace_digest: last.trace_digest });
  if (!r.ok) { showError(box, r.data); return; }
  const c = r.data;
  const since = c.batches_since === 1 ? "1 batch" : c.batches_since + " batches";
  clear(box).append(el("p", { class: c.fresh ? "reproduced" : "differs", id: "fresh-verdict" },
    c.fresh ? "FRESH: nothing written since could change this answer (" + since + " since " : "POSSIBLY STALE: " + c.stale_steps + " of " + c.steps.length + " steps (" + since + " since ",
    timeEl(c.as_of_tt), ")"));
  if (c.fresh) return;
  const t = el("table", { id: "fresh-reasons" }, el("tr", {}, ...["step", "op", "batch", "tt", "write", "touched"].map((h) => el("th", {}, h))));
  for (const s of c.steps) {
    if (s.fresh) continue;
    for (const x of s.reasons) t.append(el("tr", {}, el("td", {}, s.step_id), el("td", {}, s.op), el("td", {}, x.batch), el("td", {}, timeEl(x.tt)), el("td", {}, x.op), el("td", {}, x.touched)));
    if (s.more_reasons) t.append(el("tr", {}, el("td", {}, s.step_id), el("td", { colspan: "5", class: "muted" }, "… and more batches meet it")));
    if (s.stale_inputs.length) t.append(el("tr", {}, el("td", {}, s.step_id), el("td", { colspan: "5" }, "reads possibly stale step(s) " + s.stale_inputs.join(", "))));
    if (!s.reasons.length && s.why) t.append(el("tr", {}, el("td", {}, s.step_id), el("td", { colspan: "5" }, s.why)));
  }
  box.append(t);
}

async function refreshTrace() {
  if (!last || !last.trace_digest) return;
  const box = clear($("fresh-result"));
  box.append("re-running at the current belief time…");
  const r = await api("/v1/trace_refresh", { trace_digest: last.trace_digest });
  if (!r.ok) { showError(box, r.data); return; }
  const d = r.data;
  clear(box).append(el("p", { class: d.answer_changed ? "differs" : "reproduced", id: "refresh-verdict" },
    d.answer_changed ? "the answer CHANGED" : "the answer is unchanged"));
  box.append(el("div", { class: "cols" },
    el("div", { class: "belief" }, el("h4", {}, "then, at ", timeEl(d.as_of_tt)), el("p", { class: "value", id: "refresh-old" }, answerEl(d.old_answer, answerField(last)))),
    el("div", { class: "belief" + (d.answer_changed ? " changed" : "") }, el("h4", {}, "now, at ", timeEl(d.new_as_of_tt)), el("p", { class: "value", id: "refresh-new" }, answerEl(d.new_answer, answerField(last))),
      el("p", { class: "muted" }, "trace ", el("code", { title: d.new_trace_digest }, short(d.new_trace_digest))))));
  const t = el("table", {}, el("tr", {}, ...["step", "op", "old", "new", ""].map((h) => el("th", {}, h))));
  for (const s of d.steps) t.append(el("tr", {}, el("td", {}, s.step_id), el("td", {}, s.op),
    el("td", {}, s.old_status + " ", el("code", {}, short(s.old_result_digest))), el("td", {}, s.new_status + " ", el("code", {}, short(s.new_result_digest))),
    el("td", { class: s.changed ? "differs" : "reproduced" }, s.changed ? "CHANGED" : "unchanged")));
  box.append(t);
}

// --- operator explorer -------------------------------------------------------------

let operators = [];

// placeholder says what an empty field means: the default (a time as a
// date, the open end as "latest belief" or "open").
function placeholder(name, s, type) {
  if (s.default === undefined) return isTimeField(name) ? "µs" : type;
  if (typeof s.default === "number" && s.default >= OPEN_END - 1e6) return name === "as_of_tt" ? "default: the latest belief" : "default: open";
  if (typeof s.default === "number" && isTimeField(name)) return "default " + dateText(s.default);
  return "default " + JSON.stringify(s.default);
}

function fieldFor(name, s, required) {
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  let input;
  if (s.enum) {
    input = el("select", { name });
    if (!required) input.append(el("option", { value: "" }, "(default)"));
    for (const v of s.enum) input.append(el("option", { value: v }, v));
  } else if (type === "boolean") {
    input = el("select", { name }, el("option", { value: "" }, "(default)"), el("option", { value: "true" }, "true"), el("option", { value: "false" }, "false"));
  } else if (type === "object" || type === "array" || !type) {
    input = el("textarea", { name, rows: "2", placeholder: "JSON" });
    if (s.properties && s.properties.t_a && s.properties.t_b && lastStats) input.value = JSON.stringify({ t_a: lastStats.vt_min, t_b: lastStats.vt_max + 1 });
  } else {
    input = el("input", { name, placeholder: placeholder(name, s, type) });
  }
  input.dataset.type = type || "json";
  return el("label", { class: "row" }, el("code", {}, name + (required ? "*" : "")), input, el("span", { class: "muted" }, s.description || ""));
}

function showOperator() {
  const t = operators.find((o) => o.name === $("op-select").value);
  const form = clear($("op-form"));
  clear($("op-result"));
  if (!t) return;
  $("op-summary").textContent = t.description;
  const req = t.input_schema.required || [];
  for (const [name, s] of Object.entries(t.input_schema.properties || {}).sort()) form.append(fieldFor(name, s, req.includes(name)));
  form.append(el("button", { type: "submit" }, "Run " + t.name));
}

function parseJSON(v) {
  try { return JSON.parse(v); } catch (e) { throw new Error("not JSON (" + e.message + ")"); }
}

async function runOperator(ev) {
  ev.preventDefault();
  const args = {};
  for (const f of $("op-form").querySelectorAll("[name]")) {
    const v = f.value.trim();
    if (v === "") continue;
    const type = f.dataset.type;
    try {
      if (type === "integer" || type === "number") {
        const n = Number(v);
        if (Number.isNaN(n) && !isTimeField(f.name)) throw new Error("not a number");
        args[f.name] = Number.isNaN(n) ? v : n; // a time may be written in RFC 3339
      } else args[f.name] = type === "string" ? v : parseJSON(v);
    } catch (e) { clear($("op-result")).append(el("p", { class: "unsupported" }, f.name + ": " + e.message)); return; }
  }
  const r = await api("/v1/" + $("op-select").value, args);
  const box = clear($("op-result"));
  if (!r.ok) { showError(box, r.data); return; }
  box.append(el("p", { class: "muted" }, "as of ", timeEl(r.data.as_of_tt), " · result ", el("code", { title: r.data.result_digest }, short(r.data.result_digest))), resultView(r.data.result, r.data.op, r.data.args));
}

// --- start ---------------------------------------------------------------------------

// refreshStats reads the store's figures and latest belief time again.
async function refreshStats() {
  const st = await api("/v1/stats");
  if (!st.ok) { showError($("store-stats"), st.data); return false; }
  lastStats = st.data;
  clear($("store-stats")).append(`${st.data.nodes} nodes · ${st.data.edge_versions} edge versions · ${st.data.batches} batches · belief `, timeEl(st.data.last_tt));
  showCard(st.data.card);
  return true;
}

// showCard puts the dataset card (what tgms stats prints) in the header:
// a one-line summary, opening to how facts are modelled, the rel types
// and labels with their counts, and the property names with their types.
function showCard(c) {
  const box = $("store-card");
  if (!c) { box.classList.add("hidden"); return; }
  const n = (xs) => (xs || []).length;
  const pl = (k, one, many) => `${k} ${k === 1 ? one : many}`;
  const summary = [pl(n(c.rel_types), "rel type", "rel types"), pl(n(c.labels), "label", "labels"), pl(n(c.properties), "property", "properties")];
  clear($("card-summary")).append("dataset card: " + summary.join(" · "));
  if (n(c.rel_types) > 0) $("card-summary").append(" · valid ", timeEl(c.vt_min), " – ", timeEl(c.vt_max));
  const counts = (title, xs, unit) => el("table", { class: "card-" + title.replace(" ", "-") },
    el("tr", {}, el("th", {}, title), el("th", {}, unit)),
    ...(xs || []).map((x) => el("tr", {}, el("td", {}, x.name), el("td", {}, String(x.count)))));
  clear($("card-body")).append(
    el("ul", { class: "card-model" }, ...(c.model || []).map((m) => el("li", {}, m))),
    counts("rel type", c.rel_types, "edge versions"),
    counts("label", c.labels, "node versions"),
    el("table", { class: "card-properties" }, el("tr", {}, el("th", {}, "property"), el("th", {}, "on"), el("th", {}, "types")),
      ...(c.properties || []).map((p) => el("tr", {}, el("td", {}, p.name), el("td", {}, p.on), el("td", {}, (p.types || []).join(" | "))))));
  box.classList.remove("hidden");
}

async function start() {
  const m = location.hash.match(/token=([^&]+)/);
  if (m) { token = decodeURIComponent(m[1]); sessionStorage.setItem("tgms-token", token); history.replaceState(null, "", location.pathname); }
  $("ask-form").addEventListener("submit", ask);
  $("compare-button").addEventListener("click", compare);
  $("verify-button").addEventListener("click", verifyTrace);
  $("fresh-button").addEventListener("click", checkFresh);
  $("refresh-button").addEventListener("click", refreshTrace);
  $("op-select").addEventListener("change", showOperator);
  $("op-form").addEventListener("submit", runOperator);
  if (!(await refreshStats())) return;
  const tl = await api("/v1/tools");
  operators = (tl.data.tools || []).filter((t) => t.operator);
  for (const t of operators) $("op-select").append(el("option", { value: t.name }, t.name));
  showOperator();
  document.body.dataset.ready = "true";
}

start();
