package client

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/fibegg/fibe/internal/reliability"
)

// The outcome journal's policy (docs/contract.md §10): a mutation without an
// explicit key is journaled under its signature before its first attempt,
// and a definitive answer removes it, so the same mutation run again within
// the journal window (a re-run CI job, an agent calling a tool again) sends
// the key of the run that lost its answer and gets the replay. The storage
// is reliability.Journal in the client's state store.

// DefaultJournalWindow is the journal window the command line uses when
// nothing is configured.
const DefaultJournalWindow = 15 * time.Minute

// Journal returns the outcome journal of this client's state store (every
// API and profile sharing the store), for listing and forgetting entries.
func (c *Client) Journal() *reliability.Journal { return c.journal }

// claimKey chooses a mutation's Idempotency-Key: the one given, or a key
// reused from the journal, or a new one (journaled). settle, called with
// the mutation's final error, removes the entry when the answer was
// definitive.
func (c *Client) claimKey(m mutation) (key string, settle func(error)) {
	noop := func(error) {}
	if m.mo.IdempotencyKey != "" {
		return m.mo.IdempotencyKey, noop
	}
	key = reliability.NewIdempotencyKey()
	if m.noJournal || c.journalWindow <= 0 {
		return key, noop
	}
	sig, err := c.signature(m.method, m.path, m.body)
	if err != nil {
		return key, noop
	}
	fresh := reliability.JournalEntry{Signature: sig, Key: key, Method: m.method, Path: m.path,
		Origin: c.base.String(), Profile: c.profile, Label: describe(m.method, m.path, m.body)}
	if m.mo.NewKey {
		err = c.journal.Put(fresh)
	} else {
		var got reliability.JournalEntry
		var reused bool
		got, reused, err = c.journal.Claim(sig, c.journalWindow, fresh)
		if err == nil && reused {
			key = got.Key
			c.trace.printf("journal: reusing idempotency key %s of the unfinished %s at %s", key, got.Label, got.Created.Format(time.RFC3339))
			c.emit(Event{Kind: EventKeyReuse, Method: m.method, URL: m.path, IdempotencyKey: key,
				Label: got.Label, Started: got.Created, Resource: m.resource})
		}
	}
	if err != nil {
		// The journal is a convenience: a store that cannot be written
		// must not stop the mutation.
		c.trace.printf("journal not written: %v", err)
		return key, noop
	}
	return key, func(err error) {
		if !definitive(err) {
			return
		}
		if rerr := c.journal.Remove(key); rerr != nil {
			c.trace.printf("journal entry %s not removed: %v", key, rerr)
		}
	}
}

// definitive reports whether a mutation's final error settles it: success
// (including a 202 handed back unwaited), a terminal 4xx, an accepted
// operation that failed remotely, or an error before anything was sent.
// A 5xx, a timeout, a reset, an open breaker, a cancel, a 409 in flight or
// 429 after the budget, or a wait that ran out leaves the outcome unknown.
func definitive(err error) bool {
	if err == nil {
		return true
	}
	e, ok := AsError(err)
	if !ok {
		return true // failed before sending (encoding the body)
	}
	switch {
	case e.Code == CodeCancelled || e.Code == CodeCircuitOpen || e.Code == CodeAsyncTimeout:
		return false
	case e.Code == CodeInvalidArgument:
		return true // refused before anything was sent
	case e.Async:
		return true // the operation ran and failed; running it again is a new operation
	case e.Status >= 200 && e.Status <= 299:
		return true // applied, but its answer did not decode
	case e.Status >= 400 && e.Status <= 499:
		return !e.Retryable && !e.OutcomeUnknown
	}
	return false
}

// signature identifies an operation across processes: method, path,
// canonical body hash, API origin and profile.
func (c *Client) signature(method, path string, body any) (string, error) {
	bodyHash, err := canonicalHash(body)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, part := range []string{method, path, bodyHash, c.base.String(), c.profile} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// canonicalHash hashes body as canonical JSON: sorted keys, numbers as
// written, no insignificant space. A nil body hashes as "".
func canonicalHash(body any) (string, error) {
	if body == nil {
		return "", nil
	}
	raw, ok := body.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			return "", err
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", err
	}
	canon, err := json.Marshal(v) // maps marshal with sorted keys
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(canon)
	return hex.EncodeToString(sum[:]), nil
}

// describe names a mutation the way a user would ("rollout demo",
// "create playground", "DELETE /api/agents/7"), from the method, the path
// and at most the action type of an operation: no other part of the body.
func describe(method, path string, body any) string {
	p := strings.TrimPrefix(strings.SplitN(path, "?", 2)[0], "/api/")
	segs := strings.Split(strings.Trim(p, "/"), "/")
	for i, s := range segs {
		if u, err := url.PathUnescape(s); err == nil {
			segs[i] = u
		}
	}
	known := len(segs) > 0 && (segs[0] == "playgrounds" || segs[0] == "marquees")
	if !known {
		return method + " " + path
	}
	kind := strings.TrimSuffix(segs[0], "s")
	switch {
	case len(segs) == 1 && method == http.MethodPost:
		return "create " + kind
	case len(segs) == 2 && method == http.MethodDelete:
		return "delete " + segs[1]
	case len(segs) == 2 && (method == http.MethodPatch || method == http.MethodPut):
		return "update " + segs[1]
	case len(segs) == 3 && segs[2] == "operations":
		if m, ok := body.(map[string]any); ok {
			if a, ok := m["action_type"].(string); ok && a != "" {
				return strings.ReplaceAll(a, "_", " ") + " " + segs[1]
			}
		}
		return "operation on " + segs[1]
	case len(segs) == 3 && segs[2] == "expiration":
		return "extend " + segs[1]
	}
	return method + " " + path
}
