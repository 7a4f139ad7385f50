// The stock TypeScript MCP SDK against `tgms serve`, as a desktop agent
// would use it. Usage:
//
//   node client.mjs stdio <tgms binary> <store dir> <cases.json>
//   node client.mjs stdio-writes <tgms binary> <store dir> <cases.json>
//   node client.mjs http  <http://host:port/mcp> <token or -> <cases.json>
//
// cases.json holds the arguments to send (written by the Go test). The
// script prints one JSON report on standard output; any exception the SDK
// throws (a schema it rejects, a result that does not fit its output
// schema) ends it with exit status 1 and the error on standard error.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, target, extra, casesFile] = process.argv.slice(2);
// JSON.parse reads every number as a double, as any JavaScript client does.
const cases = JSON.parse(readFileSync(casesFile, "utf8"));

function transport() {
  if (mode === "stdio" || mode === "stdio-writes") {
    const writes = mode === "stdio-writes" ? ["--allow-writes"] : [];
    return new StdioClientTransport({ command: target, args: ["serve", "--store", extra, "--mcp", "stdio", ...writes], stderr: "inherit" });
  }
  const headers = extra && extra !== "-" ? { Authorization: `Bearer ${extra}` } : {};
  return new StreamableHTTPClientTransport(new URL(target), { requestInit: { headers } });
}

// call returns the parsed JSON of a tool result: its structured content,
// or for a tool error the JSON text.
async function call(client, name, args) {
  const res = await client.callTool({ name, arguments: args });
  if (res.isError) {
    return { isError: true, body: JSON.parse(res.content[0].text) };
  }
  return { isError: false, body: res.structuredContent };
}

const client = new Client({ name: "tgms-stock-client", version: "1.0.0" });
await client.connect(transport());
const report = { mode };

const listed = await client.listTools();
report.tools = listed.tools.map((t) => t.name);
report.tools_list_bytes = Buffer.byteLength(JSON.stringify(listed));
// Every number a schema publishes must be one this client holds exactly.
report.unsafe_numbers = [];
const walk = (v, path) => {
  if (typeof v === "number" && Number.isInteger(v) && !Number.isSafeInteger(v)) report.unsafe_numbers.push(`${path}: ${v}`);
  if (v && typeof v === "object") for (const [k, e] of Object.entries(v)) walk(e, `${path}/${k}`);
};
for (const t of listed.tools) walk({ inputSchema: t.inputSchema, outputSchema: t.outputSchema }, t.name);

const op = await call(client, cases.operator.name, cases.operator.args);
report.operator = { isError: op.isError, result_digest: op.body.result_digest, rows_total: op.body.result?.rows_total };

const bad = await call(client, "validate_plan", { plan: cases.bad_plan, uids: cases.uids });
report.bad_plan = { isError: bad.isError, valid: bad.body.valid, rules: (bad.body.violations || []).map((v) => v.rule) };

const run = await call(client, "run_plan", { plan: cases.plan, uids: cases.uids });
report.run_plan = { isError: run.isError, ok: run.body.ok, trace_digest: run.body.trace_digest, answer: run.body.answer };

const read = await client.readResource({ uri: run.body.trace_uri });
const trace = JSON.parse(read.contents[0].text);
report.trace = { uri: run.body.trace_uri, trace_digest: trace.trace_digest, steps: trace.steps.length };

const refused = await call(client, "run_plan", { plan: cases.bad_plan, uids: cases.uids });
report.refused = { isError: refused.isError, code: refused.body.error?.code, rule: refused.body.error?.rule, path: refused.body.error?.path };

// Round trips: what the schemas let a JavaScript client write, and the
// values it got back, sent again as the double it holds.
report.round_trips = [];
for (const rt of cases.round_trips) {
  const got = await call(client, rt.tool, rt.args);
  report.round_trips.push({ name: rt.name, isError: got.isError, body: got.body });
}
const openEnd = 2 ** 62; // the store's open end, as a double (prints 4611686018427388000)
const echoed = await call(client, cases.operator.name, { ...cases.operator.args, window: { t_a: cases.operator.args.window.t_a, t_b: openEnd } });
report.open_end_double = { isError: echoed.isError, result_digest: echoed.body.result_digest, t_b: String(echoed.body.args?.window?.t_b) };

// A memory write (refused by a read-only server), then what recall says.
const remembered = await call(client, "remember", cases.memory.remember);
report.remember = { isError: remembered.isError, code: remembered.body.error?.code, tt: remembered.body.tt, provenance: remembered.body.provenance };
const recalled = await call(client, "recall", cases.memory.recall);
report.recall = { isError: recalled.isError, facts: recalled.body.facts };

await client.close();
process.stdout.write(JSON.stringify(report) + "\n");
