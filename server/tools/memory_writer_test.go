package tools_test

import (
	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/server/tools"
)

// memoryWriter is the writer the memory tool tests write through.
func memoryWriter(db *tgms.DB) tools.Writer { return plainWriter{db} }

type plainWriter struct{ db *tgms.DB }

func (w plainWriter) Write(ops ...bt.Op) (bt.Time, error) { return w.db.Write(ops...) }
func (w plainWriter) WriteProvenance(_ tools.Provenance, _ bool, ops ...bt.Op) (bt.Time, error) {
	return w.db.Write(ops...)
}

func parseCanon(b []byte) any { v, _ := canon.Parse(b); return v }
