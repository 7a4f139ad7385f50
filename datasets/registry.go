package datasets

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Format says how the lines of a SNAP file are laid out.
type Format uint8

// The SNAP line formats.
const (
	// FormatTemporal is "SRC DST SECONDS", fields separated by spaces or tabs.
	FormatTemporal Format = iota + 1
	// FormatSignedCSV is "SOURCE,TARGET,RATING,SECONDS"; the rating becomes
	// the edge property {"rating": int}.
	FormatSignedCSV
)

// String returns a short name of the format.
func (f Format) String() string {
	switch f {
	case FormatTemporal:
		return "src dst seconds"
	case FormatSignedCSV:
		return "source,target,rating,seconds"
	}
	return fmt.Sprintf("format(%d)", uint8(f))
}

// Spec describes one dataset: where it comes from, how it is pinned and how
// its lines map onto events.
type Spec struct {
	Name     string // registry name, e.g. "collegemsg"
	FileName string // file name as published, e.g. "CollegeMsg.txt.gz"
	URL      string // where Download fetches it
	SHA256   string // lowercase hex SHA-256 of the decompressed content; "" = not pinned
	RelType  string // rel_type given to every event
	Format   Format // line layout
	Nodes    int    // distinct node uids in the pinned file (informational)
	Events   int    // events (data lines) in the pinned file (informational)
	Title    string // one-line description
}

var registry = []Spec{
	{
		Name:     "collegemsg",
		FileName: "CollegeMsg.txt.gz",
		URL:      "https://snap.stanford.edu/data/CollegeMsg.txt.gz",
		SHA256:   "e00ba2415373dee52c00616065bcceaa4750e78de60d1855c76470600f10740f",
		RelType:  "MSG",
		Format:   FormatTemporal,
		Nodes:    1899,
		Events:   59835,
		Title:    "private messages in an online student community (UC Irvine, 2004)",
	},
	{
		Name:     "email-eu",
		FileName: "email-Eu-core-temporal.txt.gz",
		URL:      "https://snap.stanford.edu/data/email-Eu-core-temporal.txt.gz",
		SHA256:   "1835c94dc6685dcf2a614a1b6a0275b323dd4002f7aa111fbe9f76db8864391f",
		RelType:  "EMAIL",
		Format:   FormatTemporal,
		Nodes:    986,
		Events:   332334,
		Title:    "e-mails inside a European research institution; times are seconds from 0",
	},
	{
		Name:     "bitcoinotc",
		FileName: "soc-sign-bitcoinotc.csv.gz",
		URL:      "https://snap.stanford.edu/data/soc-sign-bitcoinotc.csv.gz",
		SHA256:   "22b08170d37407697764acabc1b8b361ffad2d71c7c9dc002d3702548c0ca8e1",
		RelType:  "TRUST",
		Format:   FormatSignedCSV,
		Nodes:    5881,
		Events:   35592,
		Title:    "signed trust ratings (-10..10) on the Bitcoin OTC platform, 2010-2016",
	},
}

// Names returns the registered dataset names, sorted.
func Names() []string {
	out := make([]string, len(registry))
	for i, s := range registry {
		out[i] = s.Name
	}
	slices.Sort(out)
	return out
}

// Lookup returns the registered dataset called name.
func Lookup(name string) (Spec, error) {
	for _, s := range registry {
		if s.Name == name {
			return s, nil
		}
	}
	return Spec{}, fmt.Errorf("datasets: unknown dataset %q: known datasets are %s", name, strings.Join(Names(), ", "))
}

// Locate looks for a local copy of the dataset in dirs, in order: first the
// published file name (e.g. CollegeMsg.txt.gz), then the same name without
// ".gz" (a decompressed copy; Load accepts both). With no dirs it looks in
// the current directory. It only checks that a regular file exists; Load
// verifies the content.
func Locate(spec Spec, dirs ...string) (string, bool) {
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	names := []string{spec.FileName}
	if plain := strings.TrimSuffix(spec.FileName, ".gz"); plain != spec.FileName {
		names = append(names, plain)
	}
	for _, d := range dirs {
		for _, n := range names {
			if n == "" {
				continue
			}
			p := filepath.Join(d, n)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				return p, true
			}
		}
	}
	return "", false
}
