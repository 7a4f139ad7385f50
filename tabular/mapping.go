package tabular

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"

	"go.yaml.in/yaml/v3"
)

// Mapping says how a table's columns become events, node versions or
// changes. It is read from YAML (ReadMapping) and from flags; see the
// package documentation for every key.
type Mapping struct {
	Format     string            `yaml:"format,omitempty"`
	Src        string            `yaml:"src,omitempty"`
	Dst        string            `yaml:"dst,omitempty"`
	Time       string            `yaml:"time,omitempty"`
	End        string            `yaml:"end,omitempty"`
	TimeFormat string            `yaml:"time_format,omitempty"`
	TZ         string            `yaml:"tz,omitempty"`
	RelType    string            `yaml:"rel_type,omitempty"`
	RelTypeCol string            `yaml:"rel_type_col,omitempty"`
	Props      []string          `yaml:"props,omitempty"`
	Types      map[string]string `yaml:"types,omitempty"`
	Label      string            `yaml:"label,omitempty"`
	LabelCol   string            `yaml:"label_col,omitempty"`
	UIDPrefix  string            `yaml:"uid_prefix,omitempty"`

	// Node tables.
	UID       string `yaml:"uid,omitempty"`
	ValidFrom string `yaml:"valid_from,omitempty"`
	ValidTo   string `yaml:"valid_to,omitempty"`

	// Change logs.
	RecordedAt  string `yaml:"recorded_at,omitempty"`
	Op          string `yaml:"op,omitempty"`
	Disc        string `yaml:"disc,omitempty"`
	PropsJSON   string `yaml:"props_json,omitempty"`
	ToValidFrom string `yaml:"to_valid_from,omitempty"`
	ToValidTo   string `yaml:"to_valid_to,omitempty"`
}

// ReadMapping reads a YAML mapping file; unknown keys are refused.
func ReadMapping(path string) (*Mapping, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseMapping(b, path)
}

// ParseMapping parses YAML mapping text; name is used in errors.
func ParseMapping(b []byte, name string) (*Mapping, error) {
	m := &Mapping{}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(m); err != nil && err.Error() != "EOF" {
		return nil, fmt.Errorf("mapping %s: %v (keys: %s)", name, err, mappingKeys())
	}
	return m, nil
}

func mappingKeys() string {
	t := reflect.TypeFor[Mapping]()
	var keys []string
	for i := range t.NumField() {
		tag := t.Field(i).Tag.Get("yaml")
		if j := bytes.IndexByte([]byte(tag), ','); j >= 0 {
			tag = tag[:j]
		}
		keys = append(keys, tag)
	}
	slices.Sort(keys)
	return fmt.Sprint(keys)
}

// Override returns m with every setting that o gives replacing m's (flags
// override the mapping file). Types merge column by column: o's type for
// a column replaces m's, and m's other columns keep theirs.
func (m Mapping) Override(o *Mapping) Mapping {
	types := m.Types
	if len(o.Types) > 0 {
		types = make(map[string]string, len(m.Types)+len(o.Types))
		maps.Copy(types, m.Types)
		maps.Copy(types, o.Types)
	}
	mv := reflect.ValueOf(&m).Elem()
	ov := reflect.ValueOf(o).Elem()
	for i := range mv.NumField() {
		if f := ov.Field(i); !f.IsZero() {
			mv.Field(i).Set(f)
		}
	}
	m.Types = types
	return m
}
