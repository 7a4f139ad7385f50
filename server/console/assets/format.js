// TGMS console: how values are shown to a person. Times are µs since the
// epoch, UTC; the page shows them as dates with the µs on hover.
"use strict";

const OPEN_END = 2 ** 62;

const $ = (id) => document.getElementById(id);
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k.startsWith("on")) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
  }
  for (const k of kids) if (k !== null && k !== undefined) e.append(k instanceof Node ? k : String(k));
  return e;
}
function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); return e; }

// Result fields that hold a time (µs) and fields that hold a length of time.
const TIME_FIELDS = new Set(["t", "t1", "t2", "t_a", "t_b", "tt", "tt_s", "tt_e", "vt_s", "vt_e", "vt_min", "vt_max",
  "as_of_tt", "new_as_of_tt", "last_tt", "checked_tt", "saved_at", "arrival", "departure", "earliest_arrival",
  "latest_departure", "traversed_at", "start", "end"]);
function isTimeField(name) {
  return TIME_FIELDS.has(name) || /^(min|max)_vt_s(_first_k|_last_k)?$/.test(name);
}
function isDurationField(name) {
  return /(^|_)(duration|delay|gap|span|stride|wait|delta)(_|$)/.test(name);
}

// dateText renders µs as "2024-01-01 01:00:00 UTC", with six fraction
// digits when the time is not on a whole second; the open end 2^62 is "open".
function dateText(us) {
  if (typeof us !== "number" || !Number.isFinite(us)) return String(us);
  if (us >= OPEN_END - 1e6) return "open";
  const ms = Math.floor(us / 1000);
  const iso = new Date(ms).toISOString(); // 2024-01-01T01:00:00.000Z
  const frac = ((us % 1e6) + 1e6) % 1e6;
  const base = iso.slice(0, 10) + " " + iso.slice(11, 19);
  return (frac ? base + "." + String(frac).padStart(6, "0") : base) + " UTC";
}
function isoText(us) {
  return us >= OPEN_END - 1e6 ? "" : new Date(Math.floor(us / 1000)).toISOString();
}
function fmtTime(us) { return dateText(us); }

// timeEl is a <time> showing the date, with the raw µs as its title.
function timeEl(us) {
  if (typeof us !== "number") return el("span", {}, show(us));
  const title = us >= OPEN_END - 1e6 ? "open end (2^62 µs)" : us + " µs";
  const attrs = { class: "time", title, "data-us": String(us) };
  const iso = isoText(us);
  if (iso) attrs.datetime = iso;
  return el("time", attrs, dateText(us));
}

// durationText renders µs as "2 h 30 min", "1.5 s" or "17 µs".
function durationText(us) {
  if (typeof us !== "number" || !Number.isFinite(us)) return String(us);
  if (us === 0) return "0";
  const neg = us < 0 ? "−" : "";
  let rest = Math.abs(us);
  if (rest < 1000) return neg + rest + " µs";
  if (rest < 1e6) return neg + +(rest / 1000).toFixed(3) + " ms";
  const parts = [];
  for (const [n, name] of [[7 * 86400e6, "w"], [86400e6, "d"], [3600e6, "h"], [60e6, "min"]]) {
    if (rest >= n) { parts.push(Math.floor(rest / n) + " " + name); rest %= n; }
  }
  if (rest) parts.push(+(rest / 1e6).toFixed(6) + " s");
  return neg + parts.join(" ");
}
function durationEl(us) {
  if (typeof us !== "number") return el("span", {}, show(us));
  return el("span", { class: "duration", title: us + " µs" }, durationText(us));
}

// proseEl shows a server's explanation with the µs times in it (15 or 16
// digits, 1973 to 2096) as dates, the digits on hover.
function proseEl(text) {
  const s = el("span", {});
  let at = 0;
  for (const m of String(text || "").matchAll(/\b\d{15,16}\b/g)) {
    const us = Number(m[0]);
    if (us < 1e14 || us > 4e15) continue;
    s.append(text.slice(at, m.index), timeEl(us));
    at = m.index + m[0].length;
  }
  s.append(String(text || "").slice(at));
  return s;
}

function show(v) { return v === null || v === undefined ? "null" : (typeof v === "object" ? JSON.stringify(v) : String(v)); }

// cell shows one field's value: times and durations in words, a window
// {t_a, t_b} as an interval, anything else as it is.
function cell(name, v) {
  if (typeof v === "number" && isTimeField(name)) return timeEl(v);
  if (typeof v === "number" && isDurationField(name)) return durationEl(v);
  if (isWindow(v)) return intervalEl(v.t_a, v.t_b);
  if (Array.isArray(v) && v.length && v.every((e) => e && typeof e.src === "string" && typeof e.dst === "string")) return edgesEl(v);
  return document.createTextNode(show(v));
}
// edgesEl shows a list of edges, one "a→b at t" a line.
function edgesEl(edges) {
  const s = el("span", { class: "edges" });
  edges.forEach((e, i) => {
    if (i) s.append(el("br", {}));
    s.append(e.src + "→" + e.dst);
    const t = typeof e.t === "number" ? e.t : e.vt_s;
    if (typeof t === "number") s.append(" at ", timeEl(t));
  });
  return s;
}
function isWindow(v) {
  return v && typeof v === "object" && !Array.isArray(v) && typeof v.t_a === "number" && typeof v.t_b === "number" &&
    Object.keys(v).every((k) => k === "t_a" || k === "t_b");
}
function intervalEl(a, b) {
  return el("span", { class: "interval" }, "[", timeEl(a), ", ", timeEl(b), ")");
}

// answerEl shows an answer value; field names the result field it came
// from (so a time shows as a date).
function answerEl(v, field) {
  if (v === null || v === undefined) return document.createTextNode("null (withheld)");
  if (isWindow(v)) return intervalEl(v.t_a, v.t_b);
  if (Array.isArray(v) && v.every((x) => typeof x === "string")) return setEl(v);
  if (typeof v === "number" && field) return cell(field, v);
  return document.createTextNode(show(v));
}
// setEl shows a set of uids: how many, the first 40, the rest folded.
function setEl(uids) {
  const box = el("span", { class: "set", "data-size": String(uids.length) });
  box.append(el("span", { class: "set-size" }, uids.length === 1 ? "1 member" : uids.length + " members"), el("br", {}));
  const head = uids.slice(0, 40);
  box.append(el("span", { class: "members" }, uids.length ? head.join(", ") : "(the empty set)"));
  if (uids.length > head.length) box.append(el("details", {}, el("summary", {}, "and " + (uids.length - head.length) + " more"), el("span", { class: "members" }, uids.slice(40).join(", "))));
  return box;
}

function answerField(a) {
  const at = (a.attempts || []).filter((x) => x.admitted).pop();
  const from = at && at.plan && at.plan.answer_spec && at.plan.answer_spec.from;
  if (typeof from !== "string") return "";
  const m = from.match(/([A-Za-z_][A-Za-z0-9_]*)$/);
  return m ? m[1] : "";
}
function answerString(a) { return a.refusal ? "refused" : (a.value === null || a.value === undefined ? "null (withheld)" : show(a.value)); }

// --- the reading ---------------------------------------------------------------

// readingView shows how a question was read: one sentence whose slots are
// marked (hover: the words they came from), then the slots one per line.
function readingView(r) {
  const box = el("div", { class: "reading" });
  if (!r) return box;
  if (r.source === "plan") return planReading(box, r);
  const p = el("p", { class: "sentence", id: "reading-sentence" });
  const slots = el("table", { class: "slots", id: "reading-slots" }, el("tr", {}, el("th", {}, "slot"), el("th", {}, "read as"), el("th", {}, "from the words")));
  const slot = (name, value, written) => {
    const s = el("span", { class: "slot", "data-slot": name }, value);
    if (written) s.title = "from “" + written + "”";
    slots.append(el("tr", { "data-slot": name }, el("td", {}, name), el("td", {}, value.cloneNode ? value.cloneNode(true) : value), el("td", { class: "muted" }, written || "(filled in)")));
    return s;
  };
  const nodeSlot = (n) => {
    const v = n.uid ? n.uid + (n.by_name ? " (the name “" + n.written + "”" + (n.matches ? ", " + n.matches + " match" + (n.matches === 1 ? "" : "es") : "") + ")" : "") : "“" + n.written + "”, resolved by name";
    return slot(n.role, document.createTextNode(v), n.written);
  };
  // The nodes are marked where the summary names them, else listed after it.
  const summary = el("strong", {});
  const rest = markWords(summary, r.summary || r.intent, r.nodes || [], nodeSlot);
  p.append("Read as ", summary);
  for (const n of rest) p.append(", " + n.role + " ", nodeSlot(n));
  if (r.window) {
    p.append(", over events in ", slot("window", intervalEl(r.window.t_a, r.window.t_b), r.window.written));
    if (r.window.written_end_inclusive) p.append(" (the written end included)");
  }
  for (const i of r.instants || []) p.append(", " + i.role + " ", slot(i.role, timeEl(i.t), i.written));
  if (r.bucket) p.append(", in buckets of ", slot("bucket", durationEl(r.bucket.us), r.bucket.written));
  if (r.delta) p.append(", within ", slot("delta", durationEl(r.delta.us), r.delta.written));
  if (r.k) p.append(", the top ", slot("k", document.createTextNode(String(r.k)), ""));
  for (const [k, v] of Object.entries(r.options || {}).sort()) p.append(", " + k + " ", slot(k, document.createTextNode(v), ""));
  const b = r.belief || {};
  if (b.now || !b.as_of_tt) p.append(", as the store believes ", slot("belief", document.createTextNode("now"), b.written));
  else p.append(", as the store believed ", slot("belief", el("span", {}, b.before ? "just before " : "at ", timeEl(b.before ? b.as_of_tt + 1 : b.as_of_tt)), b.written));
  p.append(".");
  box.append(p);
  const meta = el("p", { class: "muted" }, "intent ", el("code", {}, r.intent), " · answer kind ", el("code", {}, r.answer_kind || "—"));
  box.append(meta, slots);
  if ((r.notes || []).length) {
    const ul = el("ul", { class: "notes" });
    for (const n of r.notes) ul.append(el("li", {}, n));
    box.append(el("p", { class: "muted" }, "filled in:"), ul);
  }
  return box;
}

// markWords appends text to box with each node's mention (its uid, or for
// a node named in words the quoted name) replaced by mark(node); it returns
// the nodes the text does not mention. The last mention is taken: a uid
// like "a" can also be an article, and the reader names nodes after their
// preposition ("earliest arrival at d of a time-respecting path from a").
function markWords(box, text, nodes, mark) {
  const byWord = new Map();
  for (const n of nodes) {
    const w = n.by_name ? "\"" + n.written + "\"" : n.uid;
    if (w && !byWord.has(w)) byWord.set(w, n);
  }
  const words = [...byWord.keys()].sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const last = new Map(); // node → [start, end]
  if (words.length) {
    for (const m of text.matchAll(new RegExp("(^|[^\\p{L}\\p{N}_])(" + words.join("|") + ")(?=$|[^\\p{L}\\p{N}_])", "gu"))) {
      const start = m.index + m[1].length;
      last.set(byWord.get(m[2]), [start, start + m[2].length]);
    }
  }
  let at = 0;
  for (const [n, [start, end]] of [...last].sort((x, y) => x[1][0] - y[1][0])) {
    box.append(text.slice(at, start), mark(n));
    at = end;
  }
  box.append(text.slice(at));
  return nodes.filter((n) => !last.has(n));
}

// planReading shows what the pipeline settled on when no reader read the
// question (a model planner), or why it was refused.
function planReading(box, r) {
  const p = el("p", { class: "sentence", id: "reading-sentence" });
  if (r.refusal) {
    p.append(el("strong", { class: "unsupported" }, "Not read: "), r.refusal);
    return box.append(p), box;
  }
  p.append("Planned as ", el("strong", {}, r.shape || "a plan"), " (", r.answer_kind || "—", ") with ", (r.operators || []).join(" → ") || "no step");
  if ((r.uids || []).length) p.append(" over ", r.uids.join(", "));
  if (r.as_of_tt) p.append(", as the store believed at ", timeEl(r.as_of_tt));
  p.append(".");
  box.append(p);
  return box;
}
