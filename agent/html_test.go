package agent_test

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/agent"
)

// The report's structure: its sections, element ids and headings, in
// order; no external assets; the question escaped.
func TestWriteHTMLStructure(t *testing.T) {
	db, _ := synthStore(t, 2000)
	q := storeQuestion(db, "n1")
	p := &scripted{plans: []string{naiveCount("n1", q.Card.VtMin, q.Card.VtMax)}, repair: true}
	q.Text += " <script>alert(1)</script>"
	res, err := agent.Ask(context.Background(), db, q, agent.Options{Planner: p})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := agent.WriteHTML(&buf, res); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	ids := regexp.MustCompile(`<section id="([a-z-]+)">\s*<h2>([^<]+)</h2>`).FindAllStringSubmatch(page, -1)
	var got []string
	for _, m := range ids {
		got = append(got, m[1]+"="+m[2])
	}
	want := "question=Question answer=Certified answer attempts=Plan attempts and repairs plan=Executed plan steps=Steps and evidence claims=Claims and verdicts withheld=Withheld claims"
	if strings.Join(got, " ") != want {
		t.Fatalf("sections:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	for _, id := range []string{`id="attempt-1"`, `id="attempt-2"`, `id="certified-text"`, `id="answer-value"`, `id="plan-json"`, `id="as-of"`, `id="step-s1"`, `id="trace-digest"`, `id="claim-c1"`, "E_LIMIT"} {
		if !strings.Contains(page, id) {
			t.Errorf("report lacks %s", id)
		}
	}
	if strings.Contains(page, "<script>alert") || !strings.Contains(page, "&lt;script&gt;") {
		t.Error("the question is not escaped")
	}
	if regexp.MustCompile(`(?i)(src|href)="?(https?:)?//`).MatchString(page) || strings.Contains(page, "<link") {
		t.Error("the report loads external assets")
	}

	// A refusal renders too.
	res, _ = agent.Ask(context.Background(), db, agent.Question{Text: "why?"}, agent.Options{})
	buf.Reset()
	if err := agent.WriteHTML(&buf, res); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `id="refusal"`) || !strings.Contains(buf.String(), `id="suggestions"`) {
		t.Error("refusal report lacks the refusal or its suggestions")
	}

	// The built-in reader's reading is shown.
	res, _ = agent.Ask(context.Background(), db, storeQuestion(db, "n1"), agent.Options{})
	buf.Reset()
	if err := agent.WriteHTML(&buf, res); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `id="reading"`) || !strings.Contains(buf.String(), "Read as: distinct nodes reachable from n1") {
		t.Error("report lacks the reading")
	}
}
