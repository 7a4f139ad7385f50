package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/tgms-go/tgms"
	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/pgstore"
)

// A --store argument that starts with postgres:// names a store in
// PostgreSQL (package pgstore); these functions are the commands' paths
// for it. The password never appears in output: URLs are printed redacted.

func openPG(cmd *cobra.Command, store string, write bool) (*pgstore.Store, error) {
	s, err := pgstore.Open(cmd.Context(), store, pgstore.Options{Write: write, Wait: storeFlags.wait})
	if err != nil {
		var ce *pgstore.ChecksumError
		if errors.As(err, &ce) {
			return nil, fmt.Errorf("%w: %v", tgms.ErrStoreDamaged, err)
		}
		return nil, err
	}
	return s, nil
}

func pgIngest(cmd *cobra.Command, store string, src tgms.Source, again bool, events []bt.Event, label, source string) error {
	s, err := openPG(cmd, store, true)
	if err != nil {
		return err
	}
	defer s.Close()
	start := time.Now()
	res, err := s.IngestFrom(cmd.Context(), src, again, events, label)
	if errors.Is(err, tgms.ErrRepeatIngest) {
		return inputError{err}
	}
	if err != nil {
		return asInput(err)
	}
	el := time.Since(start)
	st := s.Stats()
	fmt.Fprintf(cmd.OutOrStdout(), "ingested %d events from %s in %d batches (%.0f events/s)\n", res.Events, source, res.Batches, float64(res.Events)/el.Seconds())
	fmt.Fprintf(cmd.OutOrStdout(), "store %s: %d nodes, %d edge versions, last tt %s\n", pgstore.Redact(store), st.Nodes, st.EdgeVersions, bt.FormatBoth(st.LastTT))
	return nil
}

func pgWrite(cmd *cobra.Command, store, opsFile string, ops []bt.Op) error {
	s, err := openPG(cmd, store, true)
	if err != nil {
		return err
	}
	defer s.Close()
	tt, err := s.Write(cmd.Context(), ops...)
	if err != nil {
		return asInput(fmt.Errorf("%s: batch refused, nothing written: %w", opsFile, err))
	}
	fmt.Fprintf(cmd.OutOrStdout(), "wrote %d ops at tt %s\n", len(ops), bt.FormatBoth(tt))
	return nil
}

func pgStats(cmd *cobra.Command, store string, asJSON bool) error {
	s, err := openPG(cmd, store, false)
	if err != nil {
		return err
	}
	defer s.Close()
	st := s.Stats()
	out := storeStats{
		Store: pgstore.Redact(store), Nodes: st.Nodes, NodeVersions: st.NodeVersions, EdgeVersions: st.EdgeVersions,
		Batches: st.Batches, LastTT: st.LastTT, LastTTRFC3339: bt.FormatRFC3339(st.LastTT),
		VtMin: st.VtMin, VtMax: st.VtMax, VtMinRFC3339: bt.FormatRFC3339(st.VtMin), VtMaxRFC3339: bt.FormatRFC3339(st.VtMax),
		RelTypes: st.RelTypes, Digest: s.Digest(),
	}
	if asJSON {
		return printJSON(cmd.OutOrStdout(), out)
	}
	w := cmd.OutOrStdout()
	fmt.Fprintf(w, "store          %s (schema %s)\n", out.Store, s.Schema())
	fmt.Fprintf(w, "nodes          %d\n", out.Nodes)
	fmt.Fprintf(w, "node versions  %d\n", out.NodeVersions)
	fmt.Fprintf(w, "edge versions  %d\n", out.EdgeVersions)
	fmt.Fprintf(w, "batches        %d\n", out.Batches)
	fmt.Fprintf(w, "last tt        %s\n", bt.FormatBoth(out.LastTT))
	fmt.Fprintf(w, "valid time     %s .. %s\n", bt.FormatBoth(out.VtMin), bt.FormatBoth(out.VtMax))
	fmt.Fprintf(w, "rel types      %v\n", out.RelTypes)
	fmt.Fprintf(w, "digest         %s\n", out.Digest)
	return nil
}

func pgDigest(cmd *cobra.Command, store string) error {
	s, err := openPG(cmd, store, false)
	if err != nil {
		return err
	}
	defer s.Close()
	fmt.Fprintln(cmd.OutOrStdout(), s.Digest())
	return nil
}
