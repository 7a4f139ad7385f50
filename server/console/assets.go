package console

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

//go:embed assets
var embedded embed.FS

// asset is one embedded file, ready to serve.
type asset struct {
	body  []byte
	gz    []byte // body gzip-compressed; nil when compressing does not pay
	etag  string // quoted, from the body's SHA-256
	ctype string
}

// assetSet is every embedded file by its path under assets/.
type assetSet map[string]*asset

// loadAssets reads and compresses the embedded files once per process.
var loadAssets = sync.OnceValue(func() assetSet {
	set := assetSet{}
	err := fs.WalkDir(embedded, "assets", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := embedded.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(body)
		a := &asset{body: body, etag: `"` + hex.EncodeToString(sum[:12]) + `"`, ctype: contentType(p)}
		if len(body) >= 1024 {
			var b bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
			zw.Write(body)
			zw.Close()
			if b.Len() < len(body)*9/10 {
				a.gz = b.Bytes()
			}
		}
		set[strings.TrimPrefix(p, "assets/")] = a
		return nil
	})
	if err != nil {
		panic("console: reading the embedded assets: " + err.Error())
	}
	return set
})

func contentType(p string) string {
	switch path.Ext(p) {
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".html":
		return "text/html; charset=utf-8"
	case "", ".md":
		return "text/plain; charset=utf-8" // LICENSE, README.md
	}
	if t := mime.TypeByExtension(path.Ext(p)); t != "" {
		return t
	}
	return "application/octet-stream"
}

// serve writes the asset at name (a path under assets/), or 404.
func (s assetSet) serve(w http.ResponseWriter, r *http.Request, name string) {
	a := s[name]
	if a == nil {
		http.Error(w, "404 page not found: no console asset "+name, http.StatusNotFound)
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.ctype)
	h.Set("Cache-Control", "no-cache") // revalidate: a new binary may carry new assets
	body, etag := a.body, a.etag
	if a.gz != nil {
		h.Set("Vary", "Accept-Encoding")
		if acceptsGzip(r.Header.Get("Accept-Encoding")) {
			h.Set("Content-Encoding", "gzip")
			body, etag = a.gz, strings.TrimSuffix(a.etag, `"`)+`-gz"`
		}
	}
	h.Set("ETag", etag)
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(body))
}

// acceptsGzip reads an Accept-Encoding header (RFC 9110 §12.5.3): gzip,
// or *, listed with a quality above 0.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "gzip" && coding != "*" {
			continue
		}
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		if q > 0 {
			return true
		}
	}
	return false
}
