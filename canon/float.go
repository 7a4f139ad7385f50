package canon

import (
	"math"
	"strconv"
)

// AppendFloat appends f to dst the way Python's repr(float) spells it: the
// shortest digits that round-trip, in fixed notation when the decimal
// exponent e satisfies -4 <= e < 16 (always with a fractional part, so 3.0
// not 3) and in exponential notation otherwise (1e-05, 1.5e+16).
//
// The caller guarantees f is finite; for NaN and ±Inf AppendFloat writes
// NaN, Infinity and -Infinity, which are not valid JSON.
func AppendFloat(dst []byte, f float64) []byte {
	if math.IsNaN(f) {
		return append(dst, "NaN"...)
	}
	if math.IsInf(f, 1) {
		return append(dst, "Infinity"...)
	}
	if math.IsInf(f, -1) {
		return append(dst, "-Infinity"...)
	}

	// strconv writes [-]d[.ddd]e(+|-)dd[d].
	var scratch [32]byte
	b := strconv.AppendFloat(scratch[:0], f, 'e', -1, 64)
	if b[0] == '-' {
		dst = append(dst, '-')
		b = b[1:]
	}

	// Split off the exponent.
	ei := len(b) - 4 // 'e' sits 4 or 5 bytes from the end
	if b[ei] != 'e' {
		ei--
	}
	exp := 0
	for _, c := range b[ei+2:] {
		exp = exp*10 + int(c-'0')
	}
	if b[ei+1] == '-' {
		exp = -exp
	}

	// Significant digits without the decimal point.
	var digBuf [24]byte
	digits := append(digBuf[:0], b[0])
	if ei > 1 {
		digits = append(digits, b[2:ei]...)
	}
	nd := len(digits)

	switch {
	case exp >= 16 || exp < -4:
		dst = append(dst, digits[0])
		if nd > 1 {
			dst = append(dst, '.')
			dst = append(dst, digits[1:]...)
		}
		dst = append(dst, 'e')
		if exp < 0 {
			dst = append(dst, '-')
			exp = -exp
		} else {
			dst = append(dst, '+')
		}
		if exp < 10 {
			dst = append(dst, '0')
		}
		return strconv.AppendInt(dst, int64(exp), 10)
	case exp < 0:
		dst = append(dst, '0', '.')
		for i := -1; i > exp; i-- {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	default:
		intLen := exp + 1
		if nd <= intLen {
			dst = append(dst, digits...)
			for i := nd; i < intLen; i++ {
				dst = append(dst, '0')
			}
			return append(dst, '.', '0')
		}
		dst = append(dst, digits[:intLen]...)
		dst = append(dst, '.')
		return append(dst, digits[intLen:]...)
	}
}
