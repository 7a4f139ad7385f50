package canon

// Footprint is the in-memory size of a value of the value model, in bytes,
// by a fixed rule: 16 per scalar (nil, bool, number, and any type other
// than string, []any and map[string]any), 16 plus the length per string,
// 24 per array plus its items, 48 per object plus, per member, 16 plus the
// key length plus its value; a Sized value says its own. It is
// deterministic, so a budget refusal made on it reproduces, and close to
// what the Go runtime holds.
func Footprint(v any) int64 {
	switch x := v.(type) {
	case string:
		return 16 + int64(len(x))
	case []any:
		n := int64(24)
		for _, e := range x {
			n += Footprint(e)
		}
		return n
	case map[string]any:
		n := int64(48)
		for k, e := range x {
			n += 16 + int64(len(k)) + Footprint(e)
		}
		return n
	case Sized:
		return x.Footprint()
	}
	return 16
}
