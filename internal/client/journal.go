package client

import (
	"bytes"
	"crypto/hmac"
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

// Journal returns the outcome journal of this client's state store (every
// API and profile sharing the store), for listing and forgetting entries.
func (c *Client) Journal() *reliability.Journal { return c.journal }

// claimKey chooses a mutation's Idempotency-Key: the one given, or a key
// reused from the journal, or a new one (journaled). settle, called with
// the mutation's final error, removes the entry when the answer was
// definitive.
//
// A given key is journaled too, flagged explicit and without a signature,
// so `fibe ops pending` lists it while its outcome is unknown; no claim
// ever hands it to a run that did not give it. A POST that only reads or
// tests (ReadOnlyRequest) is never journaled. The entry keeps the path
// without its query: the query's values may be secrets, so only the
// signature covers them.
func (c *Client) claimKey(m mutation) (key string, settle func(error)) {
	noop := func(error) {}
	journaled := c.journalWindow > 0 && !ReadOnlyRequest(m.method, m.path)
	if m.mo.IdempotencyKey != "" {
		key = m.mo.IdempotencyKey
		if !journaled {
			return key, noop
		}
		e := reliability.JournalEntry{Key: key, Explicit: true, Method: m.method, Path: pathOnly(m.path),
			Origin: c.base.String(), Profile: c.profile, Label: describe(m.method, m.path, m.body)}
		if err := c.journal.Put(e); err != nil {
			c.trace.printf("journal not written: %v", err)
			return key, noop
		}
		return key, c.settleJournal(key, false)
	}
	key = reliability.NewIdempotencyKey()
	if !journaled {
		return key, noop
	}
	sig, err := c.signature(m.method, m.path, m.body)
	if err != nil {
		return key, noop
	}
	fresh := reliability.JournalEntry{Signature: sig, Key: key, Method: m.method, Path: pathOnly(m.path),
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
			c.emitTo(m.mo.OnEvent, Event{Kind: EventKeyReuse, Method: m.method, URL: pathOnly(m.path), IdempotencyKey: key,
				Label: got.Label, Started: got.Created, Resource: m.resource})
		}
	}
	if err != nil {
		// The journal is a convenience: a store that cannot be written
		// must not stop the mutation.
		c.trace.printf("journal not written: %v", err)
		return key, noop
	}
	return key, c.settleJournal(key, m.mo.KeepJournaled)
}

// settleJournal removes the entry of key once the mutation's final error
// is definitive (with keep, only when it failed: the caller forgets a
// success itself, ForgetJournaled).
func (c *Client) settleJournal(key string, keep bool) func(error) {
	return func(err error) {
		if !definitive(err) || (err == nil && keep) {
			return
		}
		if rerr := c.journal.Remove(key); rerr != nil {
			c.trace.printf("journal entry %s not removed: %v", key, rerr)
		}
	}
}

// readOnlyPOSTs are the routes under /api whose POST only reads or tests
// (docs/contract.md §10): a logs snapshot, a status refresh, a connection
// test. "*" is any one segment. Such a POST is never journaled, on any
// door, and asks for no confirmation.
var readOnlyPOSTs = [][]string{
	{"playgrounds", "*", "logs"},
	{"playgrounds", "*", "status"},
	{"marquees", "*", "connection_tests"},
	{"compose_validations"},
	{"repo_status_checks"},
}

// ReadOnlyRequest reports whether a request changes nothing on the server:
// a GET, HEAD or OPTIONS, or a POST to one of the read-only routes. path
// is a path under the API ("/api/playgrounds/x/logs", with or without
// /api, a query ignored).
func ReadOnlyRequest(method, path string) bool {
	switch strings.ToUpper(method) {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return true
	case http.MethodPost:
	default:
		return false
	}
	p := strings.Trim(pathOnly(path), "/")
	p = strings.TrimPrefix(p, "api/")
	segs := strings.Split(p, "/")
	for _, route := range readOnlyPOSTs {
		if len(route) != len(segs) {
			continue
		}
		match := true
		for i, want := range route {
			if want == "*" && segs[i] == "" || want != "*" && want != segs[i] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// pathOnly is a path without its query: what the journal keeps and shows.
func pathOnly(path string) string {
	p, _, _ := strings.Cut(path, "?")
	return p
}

// HandOff marks the journal entry of key handed off: its caller stopped
// waiting before the operation ended, so a run of the same mutation
// reuses the key whatever the journal window (until the server's replay
// window closes) and resumes the operation instead of starting another.
func (c *Client) HandOff(key string) {
	entries, err := c.journal.List()
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.Key == key && !e.Explicit && !e.HandedOff {
			e.HandedOff = true
			if err := c.journal.Put(e); err != nil {
				c.trace.printf("journal entry %s not marked handed off: %v", key, err)
			}
		}
	}
}

// ForgetJournaled removes the journal entry of key, kept by a mutation
// sent with KeepJournaled, once what followed it ended.
func (c *Client) ForgetJournaled(key string) {
	if key == "" {
		return
	}
	if err := c.journal.Remove(key); err != nil {
		c.trace.printf("journal entry %s not removed: %v", key, err)
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
// canonical body hash, API origin and profile, keyed (HMAC-SHA256) by the
// API key. A body may hold a secret's value; keyed, the signature in a
// journal (a shared store's included) cannot confirm a guess of it without
// the key. The server scopes idempotency keys to the API key anyway, so
// another key has nothing to reuse.
func (c *Client) signature(method, path string, body any) (string, error) {
	bodyHash, err := canonicalHash(body)
	if err != nil {
		return "", err
	}
	h := hmac.New(sha256.New, []byte(c.apiKey))
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
	path = pathOnly(path) // a query's values may be secrets
	p := strings.TrimPrefix(path, "/api/")
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
