// Package canon defines the canonical JSON text and SHA-256 digests used for
// store digests, result digests and persisted property bags. Two values have
// the same canonical text exactly when they are equal in the value model
// below, so the text (and its digest) can be compared byte for byte. The
// encoding matches Python's
//
//	json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
//
// for the values both accept; testdata/gen.py produces the golden files the
// tests check against from exactly that call.
//
// # Value model
//
// A JSON value is held in Go as one of:
//
//	null          nil
//	true, false   bool
//	string        string (valid UTF-8)
//	integer       int64   -- a number whose text has no '.', 'e' or 'E'
//	float         float64 -- a number whose text has '.', 'e' or 'E'
//	array         []any
//	object        map[string]any
//
// The integer/float split follows the text, not the value, and survives a
// round trip: 1 stays an integer, 1.0 stays a float and is written back as
// 1.0, and 1e2 is a float written back as 100.0. Parse rejects integers
// outside the int64 range rather than turning them into floats.
//
// Marshal also accepts int, int8, int16, int32, uint8, uint16, uint32, and
// uint64 and uint when they fit in int64, all encoded as integers; []string
// and map[string]string; Raw (text that is already canonical, copied
// verbatim); and any Appender. It rejects every other type (float32 and
// json.Number included), NaN and ±Inf, and strings with invalid UTF-8.
//
// # Canonical text
//
//   - No whitespace anywhere; "," between elements, ":" between key and value.
//   - Object keys are sorted by their UTF-8 bytes (the same as code point
//     order), at every level.
//   - null, true, false as usual; integers in plain decimal ("-0" reads as
//     the integer 0, written "0").
//   - Strings are written as raw UTF-8. Only these are escaped: '"' as \",
//     '\' as \\, U+000A as \n, U+000D as \r, U+0009 as \t, U+0008 as \b,
//     U+000C as \f, and every other code point below U+0020 as \u00xx with
//     lowercase hex. In particular '/', '<', '>', '&', U+007F, U+2028 and
//     U+2029 and all non-ASCII text are written unescaped.
//   - Floats are written as Python's repr(float) does. Take the shortest
//     digits that round-trip (strconv.FormatFloat(x, 'e', -1, 64)) and their
//     decimal exponent e (the x in d.ddd·10^x). If -4 <= e < 16, use fixed
//     notation with exactly those digits, adding ".0" when there is no
//     fractional part. Otherwise use d or d.ddd (never d.0), then 'e', a
//     sign that is always present, and at least two exponent digits.
//     Negative zero is -0.0.
//
// # Test vectors
//
//	["a","b","R",""]       sha256 f39a58802118efa2055a9e26...
//	["a","b","KNOWS",""]   sha256 46a4b5c81e461c86b9c87718...
//
//	0.0 -> 0.0             -0.0 -> -0.0           3.0 -> 3.0
//	0.1 -> 0.1             1e-05 -> 1e-05         0.0001 -> 0.0001
//	1e9 -> 1000000000.0    1e15 -> 1000000000000000.0
//	1e16 -> 1e+16          1.5e16 -> 1.5e+16      1e100 -> 1e+100
//	123456789012345.6 -> 123456789012345.6
//	5e-324 -> 5e-324       1.7976931348623157e308 -> 1.7976931348623157e+308
//
//	"\u2028" -> "<U+2028 raw>"   "<>&/" -> "<>&/"   "\u001F" -> "\u001f"
//	"\u007f" -> "<U+007F raw>"   "\/" -> "/"        "\u00e9" -> "é"
//
//	{"ab":1,"a":2,"abc":3,"":4}   -> {"":4,"a":2,"ab":1,"abc":3}
//	{"é":1,"z":2,"日":3,"Z":4}     -> {"Z":4,"z":2,"é":1,"日":3}
//	{ "b" : 1e2, "a" : [1.0, -0] } -> {"a":[1.0,0],"b":100.0}
//
// # Parsing
//
// Parse is a strict, hand-written parser for RFC 8259 JSON that produces the
// value model. Beyond the grammar it rejects trailing data after the value,
// duplicate object keys (after unescaping; the error names the key), invalid
// UTF-8, \u escapes of lone surrogates (such as \ud800), integers outside
// int64, floats that overflow float64, and nesting deeper than MaxDepth
// (512). Every error is a *SyntaxError whose text reads
// "canon: offset N: ..." with N the zero-based byte offset of the problem.
// Canonicalize is Parse followed by Marshal, and it is idempotent.
// ParseString is Parse of text held in a string; the strings it returns
// share memory with that text where they needed no unescaping.
//
// # Digests and rounding
//
// Digest is the lowercase hex SHA-256 of the canonical text; DigestBytes
// hashes text the caller already has. Round9 rounds a float to nine decimal
// places through its 'f' text, and RoundFloats applies it to every float in
// a value (copying only the containers whose floats change), failing on
// non-finite floats with ErrNonFiniteOutput ("non-finite float in operator
// output"). RoundedDigest is Digest(RoundFloats(v)) without the copy.
// Footprint is a value's in-memory size by a fixed rule (the unit of the
// operators' memory budget), and Summarize computes RoundedDigest and
// Footprint in one walk, stopping early with ErrFootprint past a limit.
package canon
