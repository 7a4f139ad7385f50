package bitemporal

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tgms-go/tgms/canon"
)

// Authority says who stands behind a batch's facts.
type Authority uint8

// The authorities, in their wire order (the event log stores the number).
const (
	AuthNone   Authority = iota // not stated
	AuthUser                    // user: a person asserted it
	AuthModel                   // model: an agent inferred it
	AuthImport                  // import: a bulk load
	AuthSystem                  // system: the store or a tool on its own behalf
	numAuthorities
)

var authNames = [...]string{"", "user", "model", "import", "system"}

// AuthorityNames lists the wire names of the authorities.
func AuthorityNames() []string { return append([]string(nil), authNames[1:]...) }

// String returns the wire name ("user", ...), or "" when not stated.
func (a Authority) String() string {
	if int(a) < len(authNames) {
		return authNames[a]
	}
	return fmt.Sprintf("authority(%d)", uint8(a))
}

// ParseAuthority maps a wire name to its authority.
func ParseAuthority(s string) (Authority, bool) {
	for i, n := range authNames {
		if i > 0 && n == s {
			return Authority(i), true
		}
	}
	return AuthNone, false
}

// Provenance says where a batch's facts came from: Source names the
// system or document they were taken from, Authority who stands behind
// them, Actor the agent or person that wrote them, Ref the evidence (a
// message id, a document URI, an episode id) and Note a free remark.
//
// Every version carries the provenance of the batch that wrote it (and,
// once closed, of the batch that closed it). A batch that states none gets
// its default (DefaultProvenance): import, with the ingest's source text,
// for a batch that bulk-loads events, and system for any other. Derived is
// true on such a default; a stated provenance equal to the default is the
// default (Resolve), so a batch means the same whether or not it spelled
// its default out, and stores written before provenance existed read as
// written with their defaults.
type Provenance struct {
	Source    string
	Authority Authority
	Actor     string
	Ref       string
	Note      string
	Derived   bool // the batch's default, not stated by it
}

// MaxProvenanceText bounds each text field of a provenance, in bytes.
const MaxProvenanceText = 4096

// IsImport reports whether a batch with this source text and ops is a bulk
// load: it names an ingest source or holds an ingest op.
func IsImport(source string, ops []Op) bool {
	if source != "" {
		return true
	}
	for i := range ops {
		if ops[i].Kind == OpIngest {
			return true
		}
	}
	return false
}

// DefaultProvenance is the provenance of a batch that states none.
func DefaultProvenance(source string, ops []Op) Provenance {
	if IsImport(source, ops) {
		return Provenance{Authority: AuthImport, Source: source, Derived: true}
	}
	return Provenance{Authority: AuthSystem, Derived: true}
}

// Resolve returns the provenance of a batch with this stated provenance
// (nil or AuthNone: none stated), source text and ops: the stated one, or
// the default when none was stated or the stated one equals it.
func Resolve(stated *Provenance, source string, ops []Op) Provenance {
	def := DefaultProvenance(source, ops)
	if stated == nil || stated.Authority == AuthNone {
		return def
	}
	p := *stated
	p.Derived = false
	if p.Source == "" && def.Authority == AuthImport && p.Authority == AuthImport {
		p.Source = def.Source
	}
	if p.Source == def.Source && p.Authority == def.Authority && p.Actor == "" && p.Ref == "" && p.Note == "" {
		return def
	}
	return p
}

// Validate checks a stated provenance: a known authority and text fields
// that are valid UTF-8 without NUL, at most MaxProvenanceText bytes each.
// Errors name the field as a JSON Pointer below /provenance.
func (p *Provenance) Validate() error {
	if p.Authority == AuthNone || p.Authority >= numAuthorities {
		return fmt.Errorf("/provenance/authority: must be one of %s", strings.Join(AuthorityNames(), ", "))
	}
	for _, f := range p.fields() {
		if len(f.v) > MaxProvenanceText {
			return fmt.Errorf("/provenance/%s: %d bytes, over the limit of %d", f.k, len(f.v), MaxProvenanceText)
		}
		if !utf8.ValidString(f.v) || strings.ContainsRune(f.v, 0) {
			return fmt.Errorf("/provenance/%s: must be UTF-8 text without NUL", f.k)
		}
	}
	return nil
}

type provField struct{ k, v string }

// fields lists the text fields in key order.
func (p *Provenance) fields() [4]provField {
	return [4]provField{{"actor", p.Actor}, {"note", p.Note}, {"ref", p.Ref}, {"source", p.Source}}
}

// Map renders the provenance as a JSON object: authority always, the text
// fields when not empty, and "derived": true on a default.
func (p *Provenance) Map() map[string]any {
	m := map[string]any{"authority": p.Authority.String()}
	for _, f := range p.fields() {
		if f.v != "" {
			m[f.k] = f.v
		}
	}
	if p.Derived {
		m["derived"] = true
	}
	return m
}

// ParseProvenance reads a provenance object {source, authority, actor,
// ref, note} (authority required, the rest optional strings). Errors name
// the field as a JSON Pointer below /provenance.
func ParseProvenance(v any) (Provenance, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return Provenance{}, fmt.Errorf("/provenance: must be an object {\"authority\": %s, \"source\", \"actor\", \"ref\", \"note\"}", strings.Join(AuthorityNames(), "|"))
	}
	var p Provenance
	for k, x := range m {
		s, ok := x.(string)
		if !ok {
			return Provenance{}, fmt.Errorf("/provenance/%s: must be a string", k)
		}
		switch k {
		case "authority":
			a, ok := ParseAuthority(s)
			if !ok {
				return Provenance{}, fmt.Errorf("/provenance/authority: %q is not one of %s", s, strings.Join(AuthorityNames(), ", "))
			}
			p.Authority = a
		case "source":
			p.Source = s
		case "actor":
			p.Actor = s
		case "ref":
			p.Ref = s
		case "note":
			p.Note = s
		default:
			return Provenance{}, fmt.Errorf("/provenance/%s: unknown field (use source, authority, actor, ref, note)", k)
		}
	}
	if p.Authority == AuthNone {
		return Provenance{}, fmt.Errorf("/provenance/authority: is required (one of %s)", strings.Join(AuthorityNames(), ", "))
	}
	return p, p.Validate()
}

// appendDigest appends the provenance's digest object (Map without
// "derived") as canonical JSON: keys in byte order, empty text fields left
// out.
func (p *Provenance) appendDigest(b []byte) []byte {
	kv := [5]provField{{"actor", p.Actor}, {"authority", p.Authority.String()}, {"note", p.Note}, {"ref", p.Ref}, {"source", p.Source}}
	b = append(b, '{')
	n := 0
	for _, f := range kv {
		if f.v == "" {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = append(b, '"')
		b = append(b, f.k...)
		b = append(b, `":`...)
		b = canon.AppendString(b, f.v)
	}
	return append(b, '}')
}

// Batch is one atomic write: ops with the provenance the batch states (nil:
// none, the default applies) and Override, which lets a model-authority
// batch replace facts a user stated (see package writecheck).
type Batch struct {
	Ops      []Op
	Prov     *Provenance
	Override bool
}
