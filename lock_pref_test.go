package tgms

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// F10: a writer with a wait gets the store against readers that overlap
// without pause (some reader always holds the shared lock), because a
// waiting writer holds new readers back; the readers then continue.
func TestWriterPreferredOverContinuousReaders(t *testing.T) {
	dir := t.TempDir()
	closedStore(t, dir)
	var stop atomic.Bool
	var reads, refused atomic.Int64
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 7 * time.Millisecond) // staggered: always one in
			for !stop.Load() {
				db, err := quietOpen(dir, nil, Options{ReadOnly: true, Wait: 10 * time.Second})
				if err != nil {
					refused.Add(1)
					continue
				}
				time.Sleep(20 * time.Millisecond)
				db.Close()
				reads.Add(1)
			}
		}()
	}
	time.Sleep(100 * time.Millisecond)
	for w := range 3 {
		start := time.Now()
		db, err := quietOpen(dir, nil, Options{Wait: 3 * time.Second})
		if err != nil {
			stop.Store(true)
			wg.Wait()
			t.Fatalf("writer %d starved after %v (%d reads): %v", w, time.Since(start), reads.Load(), err)
		}
		db.Close()
		time.Sleep(50 * time.Millisecond)
	}
	stop.Store(true)
	wg.Wait()
	if reads.Load() == 0 || refused.Load() != 0 {
		t.Fatalf("%d reads, %d refused", reads.Load(), refused.Load())
	}
}

// Without a wait, a reader that meets a waiting writer is refused at once
// with ErrStoreInUse.
func TestReaderRefusedWhileWriterWaits(t *testing.T) {
	dir := t.TempDir()
	closedStore(t, dir)
	r, err := quietOpen(dir, nil, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		db, err := quietOpen(dir, nil, Options{Wait: 5 * time.Second})
		if err == nil {
			db.Close()
		}
		done <- err
	}()
	time.Sleep(200 * time.Millisecond) // the writer is queued
	if _, err := quietOpen(dir, nil, Options{ReadOnly: true}); !errors.Is(err, ErrStoreInUse) {
		t.Fatalf("a new reader got in while a writer waits: %v", err)
	}
	r.Close()
	if err := <-done; err != nil {
		t.Fatalf("writer: %v", err)
	}
}
