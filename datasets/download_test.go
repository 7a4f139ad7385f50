package datasets

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// fileServer serves body at /data.txt.gz (404 elsewhere) and counts hits.
func fileServer(t *testing.T, body *[]byte) (*httptest.Server, *atomic.Int64) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path != "/data.txt.gz" {
			http.NotFound(w, r)
			return
		}
		w.Write(*body)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// dirEntries lists dir, to check that no temporary files are left behind.
func dirEntries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

func TestDownload(t *testing.T) {
	content := []byte("# test\n1 2 3\n4 5 6\n")
	body := gz(t, content)
	srv, hits := fileServer(t, &body)
	spec := Spec{Name: "tiny", FileName: "data.txt.gz", URL: srv.URL + "/data.txt.gz", SHA256: pin(content), RelType: "MSG", Format: FormatTemporal}
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "sub", "dir") // created on demand

	p, err := download(ctx, srv.Client(), spec, dir)
	if err != nil {
		t.Fatal(err)
	}
	if p != filepath.Join(dir, spec.FileName) || hits.Load() != 1 {
		t.Fatalf("path %s, %d requests", p, hits.Load())
	}
	if got, _ := os.ReadFile(p); !bytes.Equal(got, body) {
		t.Error("downloaded file differs from the served body")
	}
	if es := dirEntries(t, dir); len(es) != 1 {
		t.Errorf("dir holds %v, want only the data file", es)
	}
	evs, err := Load(spec, p)
	if err != nil || len(evs) != 2 {
		t.Fatalf("Load after Download: %v, %d events", err, len(evs))
	}

	// A verified copy is not fetched again.
	if _, err := download(ctx, srv.Client(), spec, dir); err != nil || hits.Load() != 1 {
		t.Errorf("second download: %v, %d requests (want 1)", err, hits.Load())
	}

	// A corrupt copy is replaced.
	if err := os.WriteFile(p, []byte("1 2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := download(ctx, srv.Client(), spec, dir); err != nil || hits.Load() != 2 {
		t.Errorf("re-download: %v, %d requests (want 2)", err, hits.Load())
	}
	if got, _ := os.ReadFile(p); !bytes.Equal(got, body) {
		t.Error("corrupt copy was not replaced")
	}

	// A plain (uncompressed) body verifies too: the pin is on the content.
	plainBody := content
	srv2, _ := fileServer(t, &plainBody)
	spec2 := spec
	spec2.URL = srv2.URL + "/data.txt.gz"
	dir2 := t.TempDir()
	if _, err := download(ctx, srv2.Client(), spec2, dir2); err != nil {
		t.Errorf("plain body: %v", err)
	}
}

func TestDownloadMismatch(t *testing.T) {
	content := []byte("1 2 3\n")
	body := gz(t, content)
	srv, _ := fileServer(t, &body)
	spec := Spec{Name: "tiny", FileName: "data.txt.gz", URL: srv.URL + "/data.txt.gz", SHA256: strings.Repeat("0", 64), RelType: "MSG", Format: FormatTemporal}
	dir := t.TempDir()
	p, err := download(context.Background(), srv.Client(), spec, dir)
	var ce *ChecksumError
	if p != "" || !errors.As(err, &ce) {
		t.Fatalf("path %q, err %v; want a *ChecksumError", p, err)
	}
	if ce.Actual != pin(content) || ce.Expected != spec.SHA256 || !strings.Contains(err.Error(), spec.URL) {
		t.Errorf("error %v", err)
	}
	if es := dirEntries(t, dir); len(es) != 0 {
		t.Errorf("dir holds %v after a failed download, want nothing", es)
	}
}

func TestDownloadErrors(t *testing.T) {
	body := gz(t, []byte("1 2 3\n"))
	srv, _ := fileServer(t, &body)
	base := Spec{Name: "tiny", FileName: "data.txt.gz", SHA256: pin([]byte("1 2 3\n")), RelType: "MSG", Format: FormatTemporal}
	ctx := context.Background()

	s := base
	s.URL = srv.URL + "/missing.gz"
	dir := t.TempDir()
	if _, err := download(ctx, srv.Client(), s, dir); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("404: err %v", err)
	}
	if es := dirEntries(t, dir); len(es) != 0 {
		t.Errorf("dir holds %v after a failed download", es)
	}

	s = base
	if _, err := download(ctx, srv.Client(), s, t.TempDir()); err == nil || !strings.Contains(err.Error(), "no download URL") {
		t.Errorf("no URL: err %v", err)
	}

	s = base
	s.FileName = "../evil.gz"
	if _, err := download(ctx, srv.Client(), s, t.TempDir()); err == nil {
		t.Error("file name with a path: no error")
	}

	s = base
	s.URL = srv.URL + "/data.txt.gz"
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Download(cctx, s, t.TempDir()); err == nil || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: err %v", err)
	}
}
