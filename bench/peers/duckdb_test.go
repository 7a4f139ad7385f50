//go:build duckdb

package peers

import "testing"

func TestDuckDBAgrees(t *testing.T) { agreeOn(t, "duckdb") }
