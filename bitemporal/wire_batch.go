package bitemporal

import (
	"fmt"

	"github.com/tgms-go/tgms/canon"
)

// The batch header of the op JSONL format: an optional first line
//
//	{"provenance":{"authority":"user","source":..,"actor":..,"ref":..,"note":..},"override":false}
//
// states the batch's provenance (authority required; see Provenance) and
// whether it may replace facts a user stated (override, default false).
// A line without "op" and with "provenance" or "override" is a header;
// files without one are batches without stated provenance, as before.

// IsBatchHeader reports whether a decoded JSONL line is a batch header.
func IsBatchHeader(m map[string]any) bool {
	if _, op := m["op"]; op {
		return false
	}
	_, p := m["provenance"]
	_, o := m["override"]
	return p || o
}

// DecodeBatchHeader reads a batch header line into the batch's Prov and
// Override.
func DecodeBatchHeader(data []byte, b *Batch) error {
	v, err := canon.Parse(data)
	if err != nil {
		return err
	}
	m, ok := v.(map[string]any)
	if !ok || !IsBatchHeader(m) {
		return fmt.Errorf("a batch header is an object {\"provenance\": {...}, \"override\": false}")
	}
	return DecodeBatchFields(m, b)
}

// DecodeBatchFields reads "provenance" and "override" from a decoded
// object (a header line, or a tool's arguments) into b; other keys are
// left to the caller.
func DecodeBatchFields(m map[string]any, b *Batch) error {
	for k := range m {
		if k != "provenance" && k != "override" && k != "ops" {
			return fmt.Errorf("/%s: unknown batch field (use provenance, override)", k)
		}
	}
	if v, ok := m["override"]; ok && v != nil {
		o, ok := v.(bool)
		if !ok {
			return fmt.Errorf("/override: must be true or false, got %s", canon.Kind(v))
		}
		b.Override = o
	}
	if v, ok := m["provenance"]; ok && v != nil {
		p, err := ParseProvenance(v)
		if err != nil {
			return err
		}
		b.Prov = &p
	}
	return nil
}

// IsHeaderLine reports whether one JSONL line is a batch header (a cheap
// parse; malformed text is not a header).
func IsHeaderLine(data []byte) bool {
	v, err := canon.Parse(data)
	if err != nil {
		return false
	}
	m, ok := v.(map[string]any)
	return ok && IsBatchHeader(m)
}
