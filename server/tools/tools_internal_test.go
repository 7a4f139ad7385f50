package tools

import (
	"context"
	"testing"
	"time"

	"github.com/tgms-go/tgms/internal/servertest/testdb"
)

func TestBusy(t *testing.T) {
	s := testdb.New(t)
	svc := New(s.DB, Options{Heavy: 1, Deadline: 50 * time.Millisecond})
	svc.heavy <- struct{}{} // one heavy call is running
	_, f := svc.Call(context.Background(), "temporal_reachability", s.ReachArgs())
	if f == nil || f.Code != EBusy || f.Status != statusUnavailable || len(f.Violations) != 1 {
		t.Fatalf("a heavy call past the bound: %+v", f)
	}
	if _, f := svc.Call(context.Background(), "stats", nil); f != nil {
		t.Fatalf("a light call was refused while heavy calls ran: %v", f)
	}
	<-svc.heavy
	if _, f := svc.Call(context.Background(), "temporal_reachability", s.ReachArgs()); f != nil {
		t.Fatalf("after the heavy call ended: %v", f)
	}
}
