// Package console is the web console of `tgms serve`: one page and its
// scripts, embedded in the binary (no CDN, no build step, works offline),
// that talk to the HTTP API (package httpapi).
//
// Assets: index.html and style.css; format.js (times as UTC dates with the
// µs on hover, durations, the reading as a sentence with its slots),
// viz.js (series and bursts as uPlot charts; reachability, paths, motif
// instances and subgraphs as Cytoscape graphs) and app.js (the page). The
// two libraries are the npm packages' minified builds with their licences
// under assets/vendor (see its README.md for versions and checksums).
//
// The page has an ask box (the reading, the certified answer with its
// belief time in the header, the claims and the withheld ones; a refusal
// clears the previous answer), the plan as a DAG of steps (operator,
// arguments, completeness, digests, a picture of the result where it has
// one and paged result rows), a belief-time control
// (re-ask at any transaction time, and the answers before and after side
// by side with the versions behind them), a "verify this trace" button
// (re-execution at the recorded belief time, every digest compared), an
// "is this still fresh?" button (FRESH, or the writes since that may have
// changed it) with a refresh showing the old and new answer side by side,
// and an operator explorer whose forms are generated from the operators'
// argument schemas.
//
// A server started with --token needs the token once in the address,
// http://host:port/#token=..., which the page keeps for the session and
// sends as a bearer token.
package console

import (
	"embed"
	"io/fs"
	"net/http"
)

//go:embed assets
var assets embed.FS

// Handler serves the page at / and its assets under /console/.
func Handler() http.Handler {
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err)
	}
	files := http.FileServerFS(sub)
	mux := http.NewServeMux()
	mux.Handle("GET /console/", http.StripPrefix("/console/", files))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self'; script-src 'self'; img-src 'self' data:; frame-ancestors 'none'")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		http.ServeFileFS(w, r, sub, "index.html")
	})
	return mux
}
