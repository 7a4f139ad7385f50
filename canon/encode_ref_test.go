package canon

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math"
	"testing"

	"pgregory.net/rapid"
)

// refMarshal and refRoundedDigest are Marshal and RoundedDigest built on the
// reference encoder.
func refMarshal(v any) ([]byte, error) { return refAppendValue(nil, v, 0, nil) }

func refRoundedDigest(v any) (string, bool, error) {
	var r refRounding
	b, err := refAppendValue(nil, v, 0, &r)
	if err != nil {
		return "", false, err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), r.changed, nil
}

// checkAgainstReference fails t unless the encoder agrees with the
// reference on v: the same text or the same error for Marshal, the same
// digest, change flag or error for Summarize, whose footprint is
// Footprint(v), and ErrFootprint exactly when a limit below it is passed.
func checkAgainstReference(t interface{ Fatalf(string, ...any) }, v any) {
	got, err := Marshal(v)
	want, werr := refMarshal(v)
	if !errors.Is(err, werr) && (err == nil || werr == nil || err.Error() != werr.Error()) {
		t.Fatalf("Marshal error %v, reference %v (value %#v)", err, werr, v)
	}
	if err == nil && !bytes.Equal(got, want) {
		t.Fatalf("Marshal = %s, reference %s", got, want)
	}
	wd, wc, werr := refRoundedDigest(v)
	fp := Footprint(v)
	s, err := Summarize(v, math.MaxInt64)
	if (err == nil) != (werr == nil) || (err != nil && err.Error() != werr.Error()) {
		t.Fatalf("Summarize error %v, reference %v (value %#v)", err, werr, v)
	}
	if err != nil {
		return
	}
	if s.Digest != wd || s.Changed != wc || s.Footprint != fp {
		t.Fatalf("Summarize = %+v, reference digest %s changed %v, Footprint %d (value %s)", s, wd, wc, fp, want)
	}
	if _, err := Summarize(v, fp-1); !errors.Is(err, ErrFootprint) {
		t.Fatalf("Summarize(max %d) of a value of footprint %d: error %v, want ErrFootprint", fp-1, fp, err)
	}
	if s2, err := Summarize(v, fp); err != nil || s2 != s {
		t.Fatalf("Summarize(max %d) of a value of footprint %d = %+v, %v; want %+v", fp, fp, s2, err, s)
	}
}

// FuzzEncodeReference compares the encoder with the reference on parsed
// documents.
func FuzzEncodeReference(f *testing.F) {
	for _, s := range []string{
		`null`, `[1,2.5,"x"]`, `{"b":1,"a":{"d":[0.30000000000000004],"c":"\n"}}`,
		`{"abcdefgh":1,"abcdefg":2,"abcdefghi":3,"abcdefgh\u0000":4,"":5,"é":6,"日":7,"z":8}`,
		`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17}`,
		`{"rows":[{"uid":"n0","vt_s":5,"props":{"note":"corrected","revised":true}}],"rows_total":1}`,
		`[{"a":1,"b":2,"c":3},{"c":1,"b":2,"a":3},{"a":1,"b":2,"d":3},{"a":1,"b":2},{"a":[{"x":1,"y":2,"z":3}],"b":2,"c":{"x":1,"y":2,"w":3}}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		if err != nil {
			return
		}
		checkAgainstReference(t, v)
	})
}

// refSpecialFloats are the floats the property draws on purpose, a real
// negative zero among them (a -0.0 literal is +0 in Go).
var refSpecialFloats = []any{math.NaN(), math.Inf(-1), 1.0 / 3, 0.1 + 0.2, math.Copysign(0, -1)}

func TestRefSpecialsHoldNegativeZero(t *testing.T) {
	n := 0
	for _, v := range refSpecialFloats {
		if f, ok := v.(float64); ok && f == 0 && math.Signbit(f) {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d negative zeros among the special floats, want 1", n)
	}
}

// TestEncodeReferenceProperty compares the encoder with the reference on
// generated values, including the types Parse never produces and keys
// that share long prefixes, which the sort must still order by bytes.
func TestEncodeReferenceProperty(t *testing.T) {
	key := rapid.OneOf(
		rapid.SampledFrom([]string{"", "a", "ab", "abcdefgh", "abcdefg", "abcdefghi", "abcdefgh\x00", "abcdefgh\xff", "é", "日", "\x7f", "\xff"}),
		rapid.StringMatching(`[ab\x00é]{0,12}`),
		rapid.String(),
	)
	scalar := rapid.OneOf(
		rapid.Just[any](nil), rapid.Bool().AsAny(), rapid.Int64().AsAny(), rapid.Int().AsAny(),
		rapid.Float64().AsAny(), rapid.SampledFrom(refSpecialFloats),
		rapid.String().AsAny(), key.AsAny(),
		rapid.SliceOfN(key, 0, 3).AsAny(), rapid.MapOfN(key, rapid.String(), 0, 3).AsAny(),
		rapid.Uint64().AsAny(), rapid.Just[any](Raw(`{"x":1}`)),
	)
	var value func(depth int) *rapid.Generator[any]
	value = func(depth int) *rapid.Generator[any] {
		if depth == 0 {
			return scalar
		}
		return rapid.OneOf(scalar,
			rapid.Map(rapid.SliceOfN(value(depth-1), 0, 5), func(a []any) any { return a }),
			rapid.Map(rapid.MapOfN(key, value(depth-1), 0, 24), func(m map[string]any) any { return m }),
		)
	}
	rapid.Check(t, func(t *rapid.T) {
		checkAgainstReference(t, value(3).Draw(t, "v"))
	})
}
