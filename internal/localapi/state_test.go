package localapi

import (
	"net/http"
	"testing"
	"time"
)

func TestPruneBoundsTheState(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	st := seedState(now)
	for i := 0; i < maxKept+50; i++ {
		id := "req_" + itoa(i)
		at := now.Add(time.Duration(i) * time.Second)
		st.Ops[id] = &operation{ID: id, Done: true, DoneAt: at}
		st.Idempotency[id] = &idemEntry{CreatedAt: at}
	}
	st.Ops["running"] = &operation{ID: "running", StartAt: now, DoneAt: now.Add(time.Hour)}
	st.Idempotency["hanging"] = &idemEntry{CreatedAt: now, InFlightUntil: now.Add(time.Hour)}
	st.prune(now.Add(time.Hour - time.Minute))
	if len(st.Ops) != maxKept || len(st.Idempotency) != maxKept {
		t.Fatalf("kept %d ops, %d keys", len(st.Ops), len(st.Idempotency))
	}
	if st.Ops["running"] == nil || st.Idempotency["hanging"] == nil {
		t.Fatal("pruned live entries")
	}
	if st.Ops["req_0"] != nil || st.Ops["req_"+itoa(maxKept+49)] == nil {
		t.Fatal("pruned the wrong end")
	}
	st.prune(now.Add(48 * time.Hour))
	if len(st.Ops) != 1 || len(st.Idempotency) != 0 {
		t.Fatalf("after a day: %d ops, %d keys", len(st.Ops), len(st.Idempotency))
	}
}

// A read through the state file is saved too (its counters and what it
// settled), without the flush a mutation gets: a second emulator on the
// same file, as another process would be, sees both at once.
func TestReadsAndMutationsReachTheSharedStateFile(t *testing.T) {
	path := t.TempDir() + "/state.json"
	a := newEnv(t, Config{StatePath: path})
	expectStatus(t, a.do("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": "shared", "playspec_id": 1, "marquee_id": 1}}), http.StatusCreated)
	expectStatus(t, a.do("GET", "/api/playgrounds", nil), http.StatusOK)
	expectStatus(t, a.do("GET", "/api/playgrounds", nil), http.StatusOK)
	b := newEnv(t, Config{StatePath: path, Now: a.clock.Now})
	st := b.srv.Stats()
	if n := st.Requests["GET /api/playgrounds"]["200"]; n != 2 {
		t.Fatalf("the other emulator counts %d reads, want 2: %v", n, st.Requests)
	}
	if st.Creates["shared"] != 1 {
		t.Fatalf("the other emulator counts creates %v", st.Creates)
	}
}
