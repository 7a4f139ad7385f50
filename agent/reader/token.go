package reader

import (
	"regexp"
	"strings"
	"unicode"
)

// tokKind is what a token looks like before it is read.
type tokKind int

const (
	tWord    tokKind = iota // letters and digits: "reach", "n42", "3rd", "µs"
	tNum                    // an integer or decimal: "42", "1.5", "10,000"
	tISO                    // an ISO date or date-time, an RFC 3339 time: "2004-05-03", "2004-05-03T12:00:00+02:00"
	tSlash                  // a slashed date: "2004/05/03", "03/05/2004"
	tClock                  // a time of day: "15:30", "9:05:10.5", "12:00Z", "10:00+02:00"
	tWeek                   // an ISO week: "2004-W23"
	tQuarter                // a quarter: "Q3", "2004-Q3"
	tQuote                  // a quoted name: "Alice Smith"
	tPunct                  // anything else: , ? ( ) → .. ≥ = -
)

// token is one lexical unit of a question.
type token struct {
	kind tokKind
	text string // as written (a quote without its quotation marks)
	low  string // lower case, possessive 's dropped
	used bool   // consumed by a slot
	poss bool   // a number written with a possessive 's ("2013's")
}

var tokenRE = regexp.MustCompile(strings.Join([]string{
	`"[^"]*"|“[^”]*”`, // quoted name
	`\d{4}-[Ww]\d{1,2}`,
	`\d{4}-[Qq][1-4]`,
	`\d{4}-\d{1,2}-\d{1,2}(?:[Tt]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:?\d{2})?)?`,
	`\d{1,4}/\d{1,2}/\d{1,4}`,
	`\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]\b|[+-]\d{2}:?\d{2})?`,
	`\d+(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`,
	`\b(?:[iI]\.[eE]|[eE]\.[gG])\.`,
	`[\p{L}_][\p{L}\p{N}_]*(?:['’][\p{L}]+)?`,
	`\.\.|->|→|>=|<=|≥|≤|[^\s\p{L}\p{N}]`,
}, "|"))

// tokenize splits a question into tokens. Words keep their spelling in
// text; low is lower case without a possessive ending ("n42's" → "n42").
func tokenize(s string) []*token {
	var out []*token
	for _, m := range tokenRE.FindAllString(s, -1) {
		t := &token{text: m, low: strings.ToLower(m)}
		r := []rune(m)
		switch {
		case len(r) >= 2 && (r[0] == '"' && r[len(r)-1] == '"' || r[0] == '“' && r[len(r)-1] == '”'):
			t.kind = tQuote
			t.text = strings.TrimSpace(string(r[1 : len(r)-1]))
			t.low = strings.ToLower(t.text)
		case len(m) >= 6 && (m[5] == 'W' || m[5] == 'w') && m[4] == '-':
			t.kind = tWeek
		case strings.ContainsAny(m, "Qq") && len(m) == 7 && m[4] == '-':
			t.kind = tQuarter
		case unicode.IsDigit(r[0]) && strings.Count(m, "-") >= 2:
			t.kind = tISO
		case unicode.IsDigit(r[0]) && strings.Contains(m, "/"):
			t.kind = tSlash
		case unicode.IsDigit(r[0]) && strings.Contains(m, ":"):
			t.kind = tClock
		case unicode.IsDigit(r[0]):
			t.kind = tNum
			t.low = strings.ReplaceAll(m, ",", "")
		case len(m) == 4 && m[1] == '.' && m[3] == '.':
			// "i.e.", "e.g.": one word, read as the discourse marker it is.
			t.kind, t.low = tWord, strings.ToLower(m[:3])
		case unicode.IsLetter(r[0]) || r[0] == '_':
			t.kind = tWord
			if t.low == "o'clock" || t.low == "o’clock" {
				t.low = "o'clock"
			} else if i := strings.IndexAny(t.low, "'’"); i > 0 {
				t.low = t.low[:i] // n42's, people’s
			}
			if len(t.low) == 2 && (t.low[0] == 'q') && t.low[1] >= '1' && t.low[1] <= '4' {
				t.kind = tQuarter
			}
		default:
			t.kind = tPunct
		}
		// "2013's": a year's possessive reads as the year.
		if t.kind == tWord && t.low == "s" && len(out) >= 2 && (out[len(out)-1].text == "'" || out[len(out)-1].text == "’") && out[len(out)-2].kind == tNum {
			out = out[:len(out)-1]
			out[len(out)-1].poss = true
			continue
		}
		out = append(out, t)
	}
	return out
}

// holidays rewrites the fixed-date holidays of the Gregorian calendar
// into the day and month they name, keeping their spelling: "New Year's
// Day 1970" reads as 1 January 1970, "Christmas Day" as 25 December,
// "New Year's Eve" as 31 December. Movable feasts (Easter) are left
// alone and stay unknown words.
func holidays(toks []*token) []*token {
	var out []*token
	for i := 0; i < len(toks); i++ {
		low := func(k int) string {
			if i+k < len(toks) && toks[i+k].kind == tWord {
				return toks[i+k].low
			}
			return ""
		}
		day, month, n := "", "", 0
		switch {
		case low(0) == "new" && low(1) == "year" && strings.ContainsAny(toks[i+1].text, "'’") && low(2) == "day":
			day, month, n = "1", "january", 3
		case low(0) == "new" && low(1) == "year" && strings.ContainsAny(toks[i+1].text, "'’") && low(2) == "eve":
			day, month, n = "31", "december", 3
		case low(0) == "christmas" && low(1) == "day":
			day, month, n = "25", "december", 2
		case low(0) == "christmas" && low(1) == "eve":
			day, month, n = "24", "december", 2
		}
		if n == 0 {
			out = append(out, toks[i])
			continue
		}
		text := toks[i].text
		for _, t := range toks[i+1 : i+n-1] {
			text += " " + t.text
		}
		out = append(out, &token{kind: tNum, text: text, low: day}, &token{kind: tWord, text: toks[i+n-1].text, low: month})
		i += n - 1
	}
	return out
}
