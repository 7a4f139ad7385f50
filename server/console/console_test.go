package console_test

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/server/console"
)

func get(t *testing.T, h http.Handler, path string) (*http.Response, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	res := rec.Result()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(b)
}

// TestPageAssets: every script and stylesheet the page names is embedded
// and served from this origin, nothing is loaded from elsewhere, and the
// page keeps its Content-Security-Policy.
func TestPageAssets(t *testing.T) {
	h := console.Handler()
	res, page := get(t, h, "/")
	if res.StatusCode != 200 {
		t.Fatalf("GET / = %d", res.StatusCode)
	}
	csp := res.Header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'self'", "script-src 'self'", "style-src 'self'"} {
		if !strings.Contains(csp, want) {
			t.Fatalf("Content-Security-Policy %q lacks %q", csp, want)
		}
	}
	refs := regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllStringSubmatch(page, -1)
	want := map[string]bool{"/console/vendor/uplot/uPlot.iife.min.js": false, "/console/vendor/uplot/uPlot.min.css": false,
		"/console/vendor/cytoscape/cytoscape.min.js": false, "/console/format.js": false, "/console/viz.js": false,
		"/console/app.js": false, "/console/style.css": false}
	for _, m := range refs {
		ref := m[1]
		if !strings.HasPrefix(ref, "/console/") {
			t.Errorf("the page loads %q from outside the console's assets", ref)
			continue
		}
		r, body := get(t, h, ref)
		if r.StatusCode != 200 || len(body) == 0 {
			t.Errorf("GET %s = %d, %d bytes", ref, r.StatusCode, len(body))
		}
		if _, ok := want[ref]; ok {
			want[ref] = true
		}
	}
	for ref, seen := range want {
		if !seen {
			t.Errorf("the page does not load %s", ref)
		}
	}
	if !strings.Contains(page, `id="__________cytoscape_stylesheet"`) {
		t.Errorf("no element with Cytoscape's stylesheet id: it would add an inline <style> the policy refuses")
	}
}

// TestVendoredLibraries: each embedded library is the minified build, with
// its licence beside it and no reference to a source map or another origin.
func TestVendoredLibraries(t *testing.T) {
	h := console.Handler()
	for _, lib := range []struct {
		path, licence, banner string
		maxBytes, maxLines    int
	}{
		{"/console/vendor/uplot/uPlot.iife.min.js", "/console/vendor/uplot/LICENSE", "uPlot (v1.6.32)", 80 << 10, 5},
		{"/console/vendor/cytoscape/cytoscape.min.js", "/console/vendor/cytoscape/LICENSE", "The Cytoscape Consortium", 480 << 10, 60},
	} {
		res, js := get(t, h, lib.path)
		if res.StatusCode != 200 {
			t.Fatalf("GET %s = %d", lib.path, res.StatusCode)
		}
		if len(js) > lib.maxBytes || strings.Count(js, "\n") > lib.maxLines {
			t.Errorf("%s: %d bytes, %d lines: not the minified build", lib.path, len(js), strings.Count(js, "\n"))
		}
		if !strings.Contains(js[:min(len(js), 2000)], lib.banner) {
			t.Errorf("%s does not start with its banner %q", lib.path, lib.banner)
		}
		if strings.Contains(js, "sourceMappingURL") {
			t.Errorf("%s names a source map that is not embedded", lib.path)
		}
		res, lic := get(t, h, lib.licence)
		if res.StatusCode != 200 || !strings.Contains(lic, "Permission is hereby granted, free of charge") || !strings.Contains(lic, "Copyright") {
			t.Errorf("GET %s = %d: no MIT licence text", lib.licence, res.StatusCode)
		}
	}
}

// TestAssetTransfer: a client that accepts gzip gets the compressed bytes
// of the same file, a revalidation with the ETag gets 304, and a path that
// is not an asset (a folder, a missing file) is 404.
func TestAssetTransfer(t *testing.T) {
	h := console.Handler()
	_, plain := get(t, h, "/console/vendor/cytoscape/cytoscape.min.js")
	req := httptest.NewRequest("GET", "/console/vendor/cytoscape/cytoscape.min.js", nil)
	req.Header.Set("Accept-Encoding", "gzip, deflate")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	res := rec.Result()
	if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != "gzip" || res.Header.Get("Vary") != "Accept-Encoding" {
		t.Fatalf("gzip request: %d, Content-Encoding %q, Vary %q", res.StatusCode, res.Header.Get("Content-Encoding"), res.Header.Get("Vary"))
	}
	zr, err := gzip.NewReader(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	unzipped, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if string(unzipped) != plain || rec.Body.Len() >= len(plain)/2 {
		t.Fatalf("gzip body: %d bytes unzipping to %d, plain %d (equal: %v)", rec.Body.Len(), len(unzipped), len(plain), string(unzipped) == plain)
	}
	for _, enc := range []string{"", "gzip"} {
		req := httptest.NewRequest("GET", "/console/app.js", nil)
		req.Header.Set("Accept-Encoding", enc)
		first := httptest.NewRecorder()
		h.ServeHTTP(first, req)
		etag := first.Result().Header.Get("ETag")
		if etag == "" || first.Result().Header.Get("Content-Type") != "text/javascript; charset=utf-8" {
			t.Fatalf("app.js (%q): ETag %q, Content-Type %q", enc, etag, first.Result().Header.Get("Content-Type"))
		}
		req.Header.Set("If-None-Match", etag)
		again := httptest.NewRecorder()
		h.ServeHTTP(again, req)
		if again.Code != http.StatusNotModified || again.Body.Len() != 0 {
			t.Fatalf("app.js (%q) revalidated with %s: %d, %d bytes", enc, etag, again.Code, again.Body.Len())
		}
	}
	for _, p := range []string{"/console/vendor/", "/console/vendor", "/console/nope.js", "/index.html.bak"} {
		if res, _ := get(t, h, p); res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", p, res.StatusCode)
		}
	}
}
