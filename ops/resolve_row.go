package ops

import (
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
)

// resolveRow is a resolve_entities row without at, built from the store's
// columns and encoded straight to canonical JSON: the uid, its canonical
// version's label and name, and the match score. Its encoding and
// Footprint are byte for byte those of its map form (Map).
type resolveRow struct {
	uid, label string
	name       any // props.name decoded, nil when absent; float-free
	match      int64
}

// resolveRowKeys is the length of the map form's keys, together.
const resolveRowKeys = int64(len("uidlabelnamematch"))

// AppendCanonical appends the row's canonical JSON: its members in key
// byte order.
func (r *resolveRow) AppendCanonical(b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"label":`...)
	b = appendPlain(b, r.label, &err)
	b = append(b, `,"match":`...)
	b = canon.AppendInt(b, r.match)
	b = append(b, `,"name":`...)
	if r.name == nil {
		b = append(b, "null"...)
	} else {
		var nerr error
		if b, nerr = canon.AppendValue(b, r.name); nerr != nil && err == nil {
			err = nerr
		}
	}
	b = append(b, `,"uid":`...)
	b = appendPlain(b, r.uid, &err)
	return append(b, '}'), err
}

// Footprint is canon.Footprint of the row's map form.
func (r *resolveRow) Footprint() int64 {
	return 48 + 4*16 + resolveRowKeys + 16 + int64(len(r.uid)) + 16 + int64(len(r.label)) + canon.Footprint(r.name) + 16
}

// Map is the row as a map, as the operator built it before rows were
// typed.
func (r *resolveRow) Map() map[string]any {
	return map[string]any{"uid": r.uid, "label": r.label, "name": r.name, "match": r.match}
}

// resolveName is props.name as stored (any JSON type; nil if absent), and
// whether the bag holds no float (a typed row may then carry it: the
// digest rounds floats, which a typed row does not). A bag without a
// "name" key is not decoded.
func resolveName(props bt.Props) (name any, floatFree bool) {
	if props == "" || !strings.Contains(string(props), `"name"`) {
		return nil, true
	}
	_, floats := canon.TextFootprint(props.JSON())
	return props.Map()["name"], !floats
}

// appendPlain is appendText in one pass over a string of ASCII that
// needs no escape (no control character below 0x20, '"' or '\\'): most
// uids and labels, copied as they are.
func appendPlain(b []byte, s string, err *error) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' {
			return appendText(b, s, err)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
