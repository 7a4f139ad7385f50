package agent

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/exec"
)

// WriteHTML writes a self-contained report of one Ask: the question, the
// certified answer, every plan attempt with its admission verdict, the
// admitted plan, each step with its belief time, completeness and digests,
// the claims with their verdicts and the withheld claims with their
// reasons. It loads nothing from anywhere; every value is escaped.
func WriteHTML(w io.Writer, r *Result) error {
	return reportTmpl.Execute(w, r)
}

var reportTmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"when": func(t int64) string {
		if t == 0 {
			return "—"
		}
		return bt.FormatBoth(t)
	},
	"json": func(v any) string {
		if v == nil {
			return "null"
		}
		b, err := canon.Marshal(v)
		if err != nil {
			b, _ = json.Marshal(v)
		}
		return string(b)
	},
	"pretty": func(v any) string {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return fmt.Sprint(v)
		}
		return string(b)
	},
	"short": func(d string) string {
		if len(d) > 16 {
			return d[:16] + "…"
		}
		return d
	},
	"fields": func(m map[string]string) string {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var out []string
		for _, k := range keys {
			out = append(out, k+": "+m[k])
		}
		return strings.Join(out, ", ")
	},
	"window": func(e *exec.Evidence) string {
		if e == nil || e.Basis.Window == nil {
			return "—"
		}
		return bt.FormatBoth(e.Basis.Window.Start) + " .. " + bt.FormatBoth(e.Basis.Window.End)
	},
	"inc": func(i int) int { return i + 1 },
}).Parse(reportHTML))

const reportHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>TGMS answer report</title>
<style>
body{font-family:system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#222}
h1{font-size:1.5rem}h2{font-size:1.2rem;border-bottom:1px solid #ccc;margin-top:2rem}
table{border-collapse:collapse;width:100%;font-size:.9rem}td,th{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f4f4f4}pre{background:#f7f7f7;padding:.6rem;overflow-x:auto;font-size:.85rem}
.ok{color:#116611}.bad{color:#aa1111}.muted{color:#777}code{font-size:.85rem}
</style>
</head>
<body>
<h1>TGMS answer report</h1>
<section id="question">
<h2>Question</h2>
<p>{{.Question.Text}}</p>
{{with .Reading}}<p id="reading"><strong>{{.Line}}</strong></p>
<details><summary>reading</summary><pre id="reading-json">{{pretty .}}</pre></details>{{end}}
{{if .Suggestions}}<ul id="suggestions">{{range .Suggestions}}<li>try: {{.}}</li>{{end}}</ul>{{end}}
<p class="muted">task uids: {{if .Question.UIDs}}{{range $i, $u := .Question.UIDs}}{{if $i}}, {{end}}<code>{{$u}}</code>{{end}}{{else}}(none){{end}}</p>
</section>
<section id="answer">
<h2>Certified answer</h2>
{{if .Refusal}}<p class="bad" id="refusal">{{.Refusal}}</p>{{end}}
{{with .Certified}}<pre id="certified-text">{{.Text}}</pre>
<p>claims {{.Metrics.Claims}}, supported {{.Metrics.Supported}}, emitted {{.Metrics.Emitted}}, withheld {{len .Withheld}}</p>{{end}}
<p>value: <code id="answer-value">{{json .Value}}</code>{{if .Kind}} <span class="muted">({{.Kind}})</span>{{end}}</p>
</section>
<section id="attempts">
<h2>Plan attempts and repairs</h2>
{{if not .Attempts}}<p class="muted">No plan was emitted.</p>{{end}}
{{range .Attempts}}<div class="attempt" id="attempt-{{.N}}">
<h3>Attempt {{.N}}: {{if .Admitted}}{{if .RuntimeError}}<span class="bad">admitted, failed at run time</span>{{else}}<span class="ok">admitted</span>{{end}}{{else}}<span class="bad">rejected</span>{{end}}</h3>
{{if .Violations}}<table><tr><th>code</th><th>rule</th><th>step</th><th>path</th><th>message</th><th>hint</th></tr>
{{range .Violations}}<tr><td>{{.Code}}</td><td>{{.Rule}}</td><td>{{.StepID}}</td><td><code>{{.Path}}</code></td><td>{{.Message}}</td><td>{{.Hint}}</td></tr>
{{end}}</table>{{end}}
{{with .RuntimeError}}<p class="bad">runtime error {{.Code}} at step {{.StepID}}: {{.Message}}{{if .Hint}} — {{.Hint}}{{end}}</p>{{end}}
{{if .PlannerError}}<p class="bad">planner: {{.PlannerError}}</p>{{end}}
<details><summary>plan</summary><pre>{{if .Plan}}{{pretty .Plan}}{{else}}{{.Raw}}{{end}}</pre></details>
</div>
{{end}}
</section>
<section id="plan">
<h2>Executed plan</h2>
{{with .Trace}}<pre id="plan-json">{{pretty .Plan}}</pre>{{else}}<p class="muted">No plan ran.</p>{{end}}
</section>
<section id="steps">
<h2>Steps and evidence</h2>
{{with .Trace}}<p>belief time (as_of_tt): <span id="as-of">{{when .AsOfTT}}</span></p>
<table><tr><th>step</th><th>op</th><th>status</th><th>belief time</th><th>window</th><th>completeness</th><th>call digest</th><th>result digest</th></tr>
{{range .Steps}}<tr id="step-{{.StepID}}"><td>{{.StepID}}</td><td>{{.Op}}</td><td>{{.Status}}{{with .Error}}<br><span class="bad">{{.Code}}: {{.Message}}</span>{{end}}</td>
<td>{{with .Evidence}}{{when .Basis.AsOfTT}}{{else}}—{{end}}</td><td>{{window .Evidence}}</td>
<td>{{with .Evidence}}{{with .Completeness}}{{if .Complete}}<span class="ok">complete</span>{{else}}<span class="bad">incomplete</span>{{end}}; rows {{.RowsReturned}} of {{.RowsTotal}}{{if .Truncated}}, truncated{{end}}{{if .Tainted}}, tainted{{end}}{{if .Reason}}<br>{{.Reason}}{{end}}<br><span class="muted">{{fields .Fields}}</span>{{end}}{{else}}—{{end}}</td>
<td><code title="{{.CallDigest}}">{{short .CallDigest}}</code></td><td><code title="{{.ResultDigest}}">{{short .ResultDigest}}</code></td></tr>
{{end}}</table>
<p>trace digest: <code id="trace-digest">{{.TraceDigest}}</code></p>{{else}}<p class="muted">Nothing was executed.</p>{{end}}
</section>
<section id="claims">
<h2>Claims and verdicts</h2>
{{with .Certified}}{{if .Claims}}<table><tr><th>claim</th><th>kind</th><th>step</th><th>path</th><th>verdict</th><th>reason</th><th>sentence</th></tr>
{{range .Claims}}<tr id="claim-{{.ID}}"><td>{{.ID}}</td><td>{{.Kind}}</td><td>{{.Step}}</td><td><code>{{.Path}}</code></td><td class="{{if .Emitted}}ok{{else}}bad{{end}}">{{.Verdict}}</td><td>{{.Reason}}</td><td>{{.Sentence}}</td></tr>
{{end}}</table>{{else}}<p class="muted">The reporter made no claims.</p>{{end}}{{else}}<p class="muted">No answer was verified.</p>{{end}}
</section>
<section id="withheld">
<h2>Withheld claims</h2>
{{with .Certified}}{{if .Withheld}}<table><tr><th>claim</th><th>kind</th><th>verdict</th><th>reason</th></tr>
{{range .Withheld}}<tr id="withheld-{{.ID}}"><td>{{.ID}}</td><td>{{.Kind}}</td><td class="bad">{{.Verdict}}</td><td>{{.Reason}}</td></tr>
{{end}}</table>{{else}}<p class="muted">None.</p>{{end}}{{else}}<p class="muted">None.</p>{{end}}
</section>
</body>
</html>
`
