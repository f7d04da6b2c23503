package reliability

import (
	"encoding/json"
	"sort"
	"time"
)

// JournalEntry is one mutation whose outcome is not known yet: written
// before its first attempt, removed by a definitive answer. It holds no
// body and no secret, only the hash of the operation (its Signature).
type JournalEntry struct {
	Signature string    `json:"signature"` // hash of method, path, canonical body, API origin, profile
	Key       string    `json:"key"`       // the Idempotency-Key sent with it
	Method    string    `json:"method"`
	Path      string    `json:"path"`
	Origin    string    `json:"origin"`
	Profile   string    `json:"profile,omitempty"`
	Label     string    `json:"label,omitempty"` // what the user would call it ("rollout demo")
	Created   time.Time `json:"created"`
	// Explicit: the caller gave the key (--idempotency-key, the MCP
	// idempotency_key, a console form's). Listed, never claimed: only a run
	// that gives the key again uses it. Such an entry has no Signature.
	Explicit bool `json:"explicit,omitempty"`
	// HandedOff: the mutation was accepted and its caller stopped waiting
	// before it ended (an MCP call that ran out of its budget). Claimed
	// whatever the window, until JournalMaxAge: calling again resumes it.
	HandedOff bool `json:"handed_off,omitempty"`
}

// JournalMaxAge is how long an entry is kept at most: the server's replay
// window, after which a key means nothing.
const JournalMaxAge = 24 * time.Hour

// journalKey is the store record holding every entry (all APIs, all
// profiles), so `fibe ops pending` sees them all.
const journalKey = "journal"

// Journal is the outcome journal over a Store. Each method is one atomic
// transition of the store (JournalPut, JournalClaim, ...).
type Journal struct {
	store Store
	clock Clock
}

// NewJournal returns the journal kept in store.
func NewJournal(store Store, clock Clock) *Journal {
	if clock == nil {
		clock = SystemClock()
	}
	return &Journal{store: store, clock: clock}
}

type journalFile map[string]JournalEntry // by key

func decodeJournal(data []byte, now time.Time) journalFile {
	f := journalFile{}
	if len(data) > 0 && json.Unmarshal(data, &f) != nil {
		f = journalFile{} // a torn or corrupt file reads as empty
	}
	for k, e := range f {
		if now.Sub(e.Created) > JournalMaxAge || e.Key == "" {
			delete(f, k)
		}
	}
	return f
}

// Put records e (keyed by e.Key), replacing an entry with the same key.
func (j *Journal) Put(e JournalEntry) error {
	if e.Created.IsZero() {
		e.Created = j.clock.Now()
	}
	return j.store.JournalPut(e, j.clock.Now())
}

// Remove drops the entry of key; it is not an error when there is none.
func (j *Journal) Remove(key string) error {
	return j.store.JournalRemove(key, j.clock.Now())
}

// Clear drops every entry.
func (j *Journal) Clear() error {
	return j.store.JournalClear(j.clock.Now())
}

// List returns the entries younger than JournalMaxAge, oldest first.
func (j *Journal) List() ([]JournalEntry, error) {
	out, err := j.store.JournalList(j.clock.Now())
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(a, b int) bool {
		if !out[a].Created.Equal(out[b].Created) {
			return out[a].Created.Before(out[b].Created)
		}
		return out[a].Key < out[b].Key
	})
	return out, nil
}

// Claim returns the newest entry for signature created within window (or
// handed off, whenever it was created), or,
// when there is none, records fresh (whose Signature must be signature) and
// returns it. Two processes claiming the same signature at once get the
// same entry, so they send the same key.
func (j *Journal) Claim(signature string, window time.Duration, fresh JournalEntry) (JournalEntry, bool, error) {
	now := j.clock.Now()
	if fresh.Created.IsZero() {
		fresh.Created = now
	}
	return j.store.JournalClaim(signature, window, fresh, now)
}

// claimJournal is the transition of Claim on a decoded journal: the newest
// entry for signature created within window, or fresh recorded in f.
func claimJournal(f journalFile, signature string, window time.Duration, fresh JournalEntry, now time.Time) (JournalEntry, bool) {
	got, reused := fresh, false
	for _, e := range f {
		if !e.Explicit && e.Signature == signature && (now.Sub(e.Created) <= window || e.HandedOff) &&
			(!reused || e.Created.After(got.Created)) {
			got, reused = e, true
		}
	}
	if !reused {
		f[fresh.Key] = fresh
	}
	return got, reused
}
