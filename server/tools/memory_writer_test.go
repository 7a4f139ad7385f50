package tools_test

import (
	"github.com/tgms-go/tgms"
	"github.com/tgms-go/tgms/canon"
	"github.com/tgms-go/tgms/server/tools"
)

// memoryWriter is the writer the memory tool tests write through.
func memoryWriter(db *tgms.DB) tools.Writer { return db }

func parseCanon(b []byte) any { v, _ := canon.Parse(b); return v }
