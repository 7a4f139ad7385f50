package canon

import (
	"testing"
)

func hasFloat(v any) bool {
	switch x := v.(type) {
	case float64:
		return true
	case []any:
		for _, e := range x {
			if hasFloat(e) {
				return true
			}
		}
	case map[string]any:
		for _, e := range x {
			if hasFloat(e) {
				return true
			}
		}
	}
	return false
}

// checkTextFootprint compares TextFootprint of the canonical form of the
// JSON text in with Footprint of its decoded value.
func checkTextFootprint(t *testing.T, in string) {
	t.Helper()
	v, err := ParseString(in)
	if err != nil {
		return
	}
	c, err := Marshal(v)
	if err != nil {
		return
	}
	size, floats := TextFootprint(string(c))
	if want := Footprint(v); size != want {
		t.Fatalf("TextFootprint(%s) = %d, Footprint %d", c, size, want)
	}
	if floats != hasFloat(v) {
		t.Fatalf("TextFootprint(%s) says floats %v, the value %v", c, floats, hasFloat(v))
	}
}

func TestTextFootprint(t *testing.T) {
	for _, in := range []string{
		`{}`, `[]`, `null`, `true`, `false`, `0`, `-12`, `9223372036854775807`, `-9223372036854775808`,
		`0.5`, `1e21`, `-2.5e-7`, `""`, `"a\"b\\c"`, `"\u0000\u001f\n\t\r\b\f"`, `"é日本😀"`,
		`{"a":1,"b":[1,2,{"c":null}],"d":{"e":"f"}}`, `{"k":[[],{},[[]]],"x":0.25}`,
		`{"\u0001":"\u007f","😀":["é",-1,true,false,null]}`, `[1,[2,[3,[4.5]]]]`,
	} {
		checkTextFootprint(t, in)
	}
}

func FuzzTextFootprint(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5,"x\ny"],"b":{}}`, `"😀\u0001"`, `[null,true,false,-0.0]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		checkTextFootprint(t, in)
		TextFootprint(in) // any text: no panic
	})
}
