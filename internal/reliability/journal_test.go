package reliability

import (
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/reliability/reliabilitytest"
)

func TestJournalClaimReusesWithinWindowOnly(t *testing.T) {
	clock := reliabilitytest.NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	j := NewJournal(NewMemoryStore(), clock)
	first, reused, err := j.Claim("sig", 15*time.Minute, JournalEntry{Signature: "sig", Key: "k1"})
	if err != nil || reused || first.Key != "k1" {
		t.Fatalf("first claim = %+v reused=%v err=%v", first, reused, err)
	}
	clock.Advance(10 * time.Minute)
	again, reused, _ := j.Claim("sig", 15*time.Minute, JournalEntry{Signature: "sig", Key: "k2"})
	if !reused || again.Key != "k1" {
		t.Fatalf("claim inside the window = %+v reused=%v, want k1 reused", again, reused)
	}
	clock.Advance(10 * time.Minute)
	late, reused, _ := j.Claim("sig", 15*time.Minute, JournalEntry{Signature: "sig", Key: "k3"})
	if reused || late.Key != "k3" {
		t.Fatalf("claim after the window = %+v reused=%v, want a new k3", late, reused)
	}
	if err := j.Remove("k1"); err != nil {
		t.Fatal(err)
	}
	list, _ := j.List()
	if len(list) != 1 || list[0].Key != "k3" {
		t.Fatalf("list = %+v, want only k3", list)
	}
	clock.Advance(JournalMaxAge + time.Minute)
	if list, _ := j.List(); len(list) != 0 {
		t.Fatalf("entries older than %s must vanish, got %+v", JournalMaxAge, list)
	}
}

func TestJournalConcurrentClaimsShareOneKey(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	keys := make([]string, 16)
	for i := range keys {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			j := NewJournal(NewFileStore(filepath.Join(dir, "state")), nil)
			e, _, err := j.Claim("sig", time.Minute, JournalEntry{Signature: "sig", Key: string(rune('a' + i))})
			if err != nil {
				t.Error(err)
			}
			keys[i] = e.Key
		}(i)
	}
	wg.Wait()
	for _, k := range keys {
		if k != keys[0] {
			t.Fatalf("claims got different keys %v", keys)
		}
	}
}

// A handed-off entry is claimed after the window too, until JournalMaxAge.
func TestJournalClaimsAHandedOffEntryWhateverTheWindow(t *testing.T) {
	clock := reliabilitytest.NewClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	j := NewJournal(NewMemoryStore(), clock)
	first, _, _ := j.Claim("sig", time.Minute, JournalEntry{Signature: "sig", Key: "k1"})
	first.HandedOff = true
	if err := j.Put(first); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Hour)
	again, reused, _ := j.Claim("sig", time.Minute, JournalEntry{Signature: "sig", Key: "k2"})
	if !reused || again.Key != "k1" {
		t.Fatalf("claim an hour after a hand-off = %+v reused=%v, want k1", again, reused)
	}
	clock.Advance(JournalMaxAge)
	late, reused, _ := j.Claim("sig", time.Minute, JournalEntry{Signature: "sig", Key: "k3"})
	if reused || late.Key != "k3" {
		t.Fatalf("claim past the replay window = %+v reused=%v, want a new k3", late, reused)
	}
}
