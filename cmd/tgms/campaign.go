package main

import "github.com/spf13/cobra"

func newCampaign() *cobra.Command { return &cobra.Command{Use: "campaign", Hidden: true} }
