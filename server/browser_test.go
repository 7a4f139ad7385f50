package server_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
// ask a question, read the reading and the certified answer off the page,
// compare with a belief time before the correction, verify the trace, ask
// whether it is still fresh (before and after a second writer corrects the
// node it counts, then refresh it) and run an operator from the explorer. The screenshot is saved in the test's
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
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/")); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
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
	waitText := func(sel, want string) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](fmt.Sprintf(`(document.querySelector(%q)||{}).textContent === %q`, sel, want))
	}
	waitContains := func(sel, want string) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](fmt.Sprintf(`((document.querySelector(%q)||{}).textContent||"").includes(%q)`, sel, want))
	}

	step("load", chromedp.Poll[chromedp.Void](`document.body.dataset.ready === "true"`), waitContains("#store-stats", "5 nodes"))
	step("ask",
		chromedp.SetValue(chromedp.CSS("#question"), testdb.VersionsQuestion()),
		chromedp.Click(chromedp.CSS("#ask-button")),
		waitText("#answer-value", "3"),
		waitContains("#reading", "version-count"),
		waitContains("#reading", "the number of versions of node a"),
		waitContains("#answer-text", "[c1] The count is 3"),
		waitContains("#claims", "supported"),
		waitContains("#dag", "entity_history"),
		chromedp.Poll[chromedp.Void](`document.querySelectorAll(".belief-chip").length >= 2`))
	if got := text("#reading"); !strings.Contains(got, "intent") || !strings.Contains(got, "current belief") {
		t.Fatalf("reading on the page: %q", got)
	}
	before := fmt.Sprint(s.Corrected - 1)
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
		waitContains("#op-result", "rows_total4"))
	step("scroll to the top", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "console.png")
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("TGMS_SCREENSHOT_DIR"); dir != "" {
		os.WriteFile(filepath.Join(dir, "console.png"), png, 0o644)
	}
	t.Logf("screenshot %s (%d bytes)", out, len(png))
}
