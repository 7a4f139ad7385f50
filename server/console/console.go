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
// The header shows the store's figures and its dataset card (how facts
// are modelled, rel types, labels and property types, as tgms stats
// prints it). The page has an ask box (the reading, the certified answer with its
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

import "net/http"

// policy is the page's Content-Security-Policy: scripts, styles and data
// from this origin only.
const policy = "default-src 'self'; style-src 'self'; script-src 'self'; img-src 'self' data:; frame-ancestors 'none'"

// Handler serves the page at / and its assets under /console/. Each asset
// carries an ETag (a browser revalidates and gets 304 Not Modified) and is
// sent gzip-compressed to a client that accepts it.
func Handler() http.Handler {
	files := loadAssets()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /console/{path...}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		files.serve(w, r, r.PathValue("path"))
	})
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", policy)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		files.serve(w, r, "index.html")
	})
	return mux
}
