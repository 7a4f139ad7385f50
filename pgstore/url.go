package pgstore

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/jackc/pgx/v5"
)

// IsURL reports whether a --store argument names a PostgreSQL store.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// DefaultSchema is the schema used when the URL names none.
const DefaultSchema = "tgms"

// ParseURL parses postgres://USER@HOST:PORT/DB?schema=NAME into a pgx
// configuration and the schema name (DefaultSchema when absent). Every
// other parameter is libpq's; the password comes from the URL, PGPASSWORD,
// a password file or a service file, as libpq finds it.
func ParseURL(raw string) (*pgx.ConnConfig, string, error) {
	u, err := url.Parse(raw)
	if err != nil || !IsURL(raw) {
		return nil, "", fmt.Errorf("store %s is not a PostgreSQL URL (postgres://USER@HOST:PORT/DB?schema=NAME)", Redact(raw))
	}
	q := u.Query()
	schema := q.Get("schema")
	q.Del("schema")
	if schema == "" {
		schema = DefaultSchema
	}
	if !schemaName.MatchString(schema) {
		return nil, "", fmt.Errorf("store %s: schema %q is not a lower-case SQL identifier ([a-z_][a-z0-9_]*, at most 63 bytes)", Redact(raw), schema)
	}
	u.RawQuery = q.Encode()
	cfg, err := pgx.ParseConfig(u.String())
	if err != nil {
		return nil, "", fmt.Errorf("store %s: %v", Redact(raw), redactErr(err, u))
	}
	return cfg, schema, nil
}

// Redact returns raw with any password replaced by "xxxxx".
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(an unparsable URL)"
	}
	return u.Redacted()
}

func redactErr(err error, u *url.URL) string {
	msg := err.Error()
	if p, ok := u.User.Password(); ok && p != "" {
		msg = strings.ReplaceAll(msg, p, "xxxxx")
	}
	return msg
}
