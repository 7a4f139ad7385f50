package pgstore

import (
	"hash/crc32"
	"net/url"
	"strconv"
	"strings"
	"testing"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/eventlog"
)

// ParseURL accepts only PostgreSQL URLs with a valid schema name, and
// neither its errors nor Redact show a password.
func FuzzParseURL(f *testing.F) {
	for _, s := range []string{
		"postgres://u@h:5432/db?schema=tgms",
		"postgres://u:secretpw@h:5432/db?schema=Bad-Name",
		"postgresql://u:secretpw@h/db?sslmode=bogus",
		"postgres://u:secretpw@[::1",
		"/var/lib/store",
		"postgres://u@h/db?schema=" + strings.Repeat("a", 64),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		cfg, schema, err := ParseURL(raw)
		pw := ""
		if u, perr := url.Parse(raw); perr == nil {
			pw, _ = u.User.Password()
		}
		if err != nil {
			if len(pw) >= 6 && strings.Contains(err.Error(), pw) && !strings.Contains(Redact(raw), pw) {
				t.Fatalf("error %q shows the password", err)
			}
			return
		}
		if cfg == nil || !schemaName.MatchString(schema) || !IsURL(raw) {
			t.Fatalf("accepted %q with schema %q", raw, schema)
		}
	})
}

// A batch row is accepted only when its checksum, payload and columns
// agree, and then it decodes to what was encoded.
func FuzzVerifyRow(f *testing.F) {
	rec := &eventlog.Record{TT: 42, Seq: 3, Source: "s", Ops: []bt.Op{bt.AssertNode("a", "L", `{"w":1}`, bt.Interval{Start: 1, End: 9})}}
	f.Add(eventlog.AppendRecord(nil, rec), int64(42), int64(3), "s", false)
	f.Add([]byte{1, 2, 3}, int64(1), int64(1), "", true)
	f.Fuzz(func(t *testing.T, payload []byte, tt, seq int64, source string, wrongSum bool) {
		sum := int64(crc32.Checksum(payload, castagnoli))
		if wrongSum {
			sum = (sum + 1) % (1 << 32)
		}
		r, err := verifyRow(tt, seq, source, payload, sum)
		if err != nil {
			if ce := (*ChecksumError)(nil); !asChecksum(err, &ce) || ce.TT != tt {
				t.Fatalf("refusal %v does not name tt %d", err, tt)
			}
			return
		}
		if wrongSum {
			t.Fatal("a wrong checksum was accepted")
		}
		if r.TT != tt || r.Seq != uint64(seq) || r.Source != source {
			t.Fatalf("accepted a row whose columns disagree with its payload: %+v vs %d %d %q", r, tt, seq, source)
		}
	})
}

func asChecksum(err error, ce **ChecksumError) bool {
	c, ok := err.(*ChecksumError)
	*ce = c
	return ok
}

// FuzzParseNotice: a notice is accepted only for its schema and a decimal
// tt, and then says exactly that tt.
func FuzzParseNotice(f *testing.F) {
	f.Add("tgms 1700000000000000", "tgms")
	f.Add("other 5", "tgms")
	f.Add("tgms", "tgms")
	f.Add("tgms  5", "tgms")
	f.Add("tgms 05", "tgms")
	f.Add("tgms -9223372036854775808", "tgms")
	f.Fuzz(func(t *testing.T, payload, schema string) {
		tt, ok := parseNotice(payload, schema)
		if !ok {
			return
		}
		if want := schema + " " + strconv.FormatInt(tt, 10); payload != want {
			t.Fatalf("parseNotice(%q, %q) = %d, which prints as %q", payload, schema, tt, want)
		}
	})
}
