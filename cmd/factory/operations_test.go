package factory

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/reliability"
)

// The record keeps paths without their query, in a 0600 file; an entry
// older than the journal's is dropped, the newest maxOperations are kept,
// and an id recorded again is replaced.
func TestOperationsRecord(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	now := time.Date(2026, 1, 2, 12, 0, 0, 0, time.UTC)
	remember := func(api, id, method, path string, at time.Time) {
		t.Helper()
		if err := rememberOperation(dir, api, id, method, path, at); err != nil {
			t.Fatal(err)
		}
	}
	remember("local", "req_old", "POST", "/api/playgrounds/a/operations", now.Add(-reliability.JournalMaxAge-time.Minute))
	remember("local", "req_1", "post", "/api/playgrounds/a/logs?tail=5&token=s3cret", now)
	o, ok := lookupOperation(dir, "local", "req_1")
	if !ok || o.Method != "POST" || o.Path != "/api/playgrounds/a/logs" {
		t.Errorf("req_1: %+v %v", o, ok)
	}
	if _, ok := lookupOperation(dir, "local", "req_old"); ok {
		t.Error("an entry older than the journal's was kept")
	}
	if _, ok := lookupOperation(dir, "http://127.0.0.1:7878", "req_1"); ok {
		t.Error("found under another API")
	}
	info, err := os.Stat(filepath.Join(dir, operationsFile))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("record file: %v %v", info, err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, operationsFile))
	if got := string(data); len(got) == 0 || strings.Contains(got, "s3cret") {
		t.Errorf("the query was kept: %s", got)
	}

	remember("local", "req_1", "DELETE", "/api/playgrounds/a", now)
	if o, _ := lookupOperation(dir, "local", "req_1"); o.Method != "DELETE" {
		t.Errorf("recorded again: %+v", o)
	}
	for i := range maxOperations + 5 {
		remember("local", fmt.Sprintf("req_n%d", i), "POST", "/api/marquees/m/ssh_keys", now)
	}
	if list := readOperations(filepath.Join(dir, operationsFile)); len(list) != maxOperations {
		t.Errorf("%d entries kept, want %d", len(list), maxOperations)
	}
	if _, ok := lookupOperation(dir, "local", fmt.Sprintf("req_n%d", maxOperations+4)); !ok {
		t.Error("the newest entry was dropped")
	}
	if _, ok := lookupOperation(dir, "local", "req_n0"); ok {
		t.Error("the oldest entry was kept past the bound")
	}
}
