package main

import (
	"fmt"
	"io"
	"strings"

	bt "github.com/tgms-go/tgms/bitemporal"
	"github.com/tgms-go/tgms/engine"
)

// printCard prints the dataset card of 'tgms stats'.
func printCard(w io.Writer, c *engine.Card) {
	fmt.Fprintln(w, "\ndataset card (currently believed versions)")
	for _, m := range c.Model {
		fmt.Fprintf(w, "  model        %s\n", m)
	}
	if len(c.RelTypes) > 0 {
		fmt.Fprintf(w, "  valid time   %s .. %s\n", bt.FormatRFC3339(c.VtMin), bt.FormatRFC3339(c.VtMax))
	}
	for _, r := range c.RelTypes {
		fmt.Fprintf(w, "  rel type     %-24s %d edge versions\n", r.Name, r.Count)
	}
	for _, l := range c.Labels {
		fmt.Fprintf(w, "  label        %-24s %d node versions\n", l.Name, l.Count)
	}
	for _, p := range c.Props {
		fmt.Fprintf(w, "  property     %-5s %-18s %s\n", p.On, p.Name, strings.Join(p.Types, "|"))
	}
}
