package tools_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tgms-go/tgms/internal/servertest/testdb"
	"github.com/tgms-go/tgms/server/tools"
)

// TestAskDoesNotEchoALongQuestion: the reply to a 1 MiB question is not
// larger than a small multiple of its request: the question comes back as
// a digest and a prefix, never whole.
func TestAskDoesNotEchoALongQuestion(t *testing.T) {
	s := testdb.New(t)
	svc := tools.New(s.DB, tools.Options{})
	for _, q := range []string{
		"How many versions of node a " + strings.Repeat("does the store hold ", 1<<16) + "?",
		strings.Repeat("x", 1<<20),
	} {
		out, f := svc.Call(context.Background(), "ask", map[string]any{"question": q})
		if f != nil {
			t.Fatalf("ask: %v", f)
		}
		b, err := tools.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > 64<<10 {
			t.Errorf("a %d-byte question got a %d-byte reply: %.600s", len(q), len(b), b)
		}
		r := out.(*tools.AskResult)
		if r.QuestionSHA256 == "" || len(r.Question) > 1024 {
			t.Errorf("question echoed as %d bytes with digest %q", len(r.Question), r.QuestionSHA256)
		}
	}
}

// TestRefusalDoesNotEchoALongRequest: a refusal that names a 1 MiB
// argument (in its message and its path, at the top and in the
// violation) quotes its beginning and digest, not the whole of it.
func TestRefusalDoesNotEchoALongRequest(t *testing.T) {
	s := testdb.New(t)
	svc := tools.New(s.DB, tools.Options{})
	name := strings.Repeat("u", 1<<20)
	_, f := svc.Call(context.Background(), "stats", map[string]any{name: 1})
	if f == nil {
		t.Fatal("an unknown argument was accepted")
	}
	b, err := tools.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 16<<10 {
		t.Errorf("a %d-byte argument name was refused with %d bytes: %.300s", len(name), len(b), b)
	}
}
