package client

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/reliability"
)

// journalClient is one invocation of the CLI: a client on a shared state
// directory, with the journal on and no retries, so one lost answer ends
// the run.
func journalClient(t *testing.T, url, dir, profile string, events *eventLog) *Client {
	t.Helper()
	return emulatorClient(t, url, func(o *Options) {
		o.StateDir, o.Profile, o.JournalWindow = dir, profile, 15*time.Minute
		o.Policy.MaxRetries = reliability.NoRetries
		o.Policy.BreakerThreshold = 1000
		if events != nil {
			o.OnEvent = events.add
		}
	})
}

func pending(t *testing.T, c *Client) []reliability.JournalEntry {
	t.Helper()
	list, err := c.Journal().List()
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// The case the journal exists for: a create commits, its answer is lost,
// and the same create run again (no key copied) is a replay, not a second
// playground nor "name has already been taken".
func TestJournalReRunOfLostCreateIsAReplay(t *testing.T) {
	s, url := emulator(t, localapi.Config{Seed: 1, Chaos: "commit-then-502=1"})
	dir := t.TempDir()
	body := map[string]any{"name": "lost-1", "playspec_id": "web", "marquee_id": "local"}

	first := journalClient(t, url, dir, "default", nil)
	_, _, err := first.Playgrounds.Create(ctxT(t), body, MutationOptions{}, WaitOptions{})
	e := mustError(t, err, CodeInternal)
	if !e.OutcomeUnknown {
		t.Fatalf("a lost answer must leave the outcome unknown: %+v", e)
	}
	if n := s.Stats().Creates["lost-1"]; n != 1 {
		t.Fatalf("the first attempt must have committed, creates = %d", n)
	}
	list := pending(t, first)
	if len(list) != 1 || list[0].Key != e.IdempotencyKey || list[0].Label != "create playground" || list[0].Profile != "default" {
		t.Fatalf("journal after the lost answer = %+v (key %s)", list, e.IdempotencyKey)
	}
	path := filepath.Join(dir, "journal.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("journal file mode: %v %v", fi.Mode(), err)
	}
	if strings.Contains(string(data), "lost-1") || strings.Contains(string(data), localapi.DefaultAPIKey) {
		t.Fatalf("the journal must hold no body and no secret: %s", data)
	}

	if err := s.SetChaos(""); err != nil {
		t.Fatal(err)
	}
	events := &eventLog{}
	again := journalClient(t, url, dir, "default", events)
	p, resp, err := again.Playgrounds.Create(ctxT(t), map[string]any{"marquee_id": "local", "playspec_id": "web", "name": "lost-1"}, MutationOptions{}, WaitOptions{})
	if err != nil {
		t.Fatalf("re-run: %v", err)
	}
	if !resp.Replayed || resp.IdempotencyKey != e.IdempotencyKey || p.Name != "lost-1" {
		t.Fatalf("re-run must replay key %s: %+v", e.IdempotencyKey, resp)
	}
	if n := s.Stats().Creates["lost-1"]; n != 1 {
		t.Fatalf("creates = %d after the re-run, want 1", n)
	}
	reused := events.kinds(EventKeyReuse)
	if len(reused) != 1 || reused[0].IdempotencyKey != e.IdempotencyKey || reused[0].Label != "create playground" || reused[0].Started.IsZero() {
		t.Fatalf("key-reuse events = %+v", reused)
	}
	if list := pending(t, again); len(list) != 0 {
		t.Fatalf("a success must remove the entry: %+v", list)
	}
}

// --new-key opts out, an explicit key wins, another profile or another
// body is another operation, and a terminal 4xx removes the entry.
func TestJournalOptOutsAndOtherOperations(t *testing.T) {
	s, url := emulator(t, localapi.Config{Seed: 1, Chaos: "commit-then-502=1"})
	dir := t.TempDir()
	body := map[string]any{"name": "opt-1", "playspec_id": "web", "marquee_id": "local"}
	c := journalClient(t, url, dir, "default", nil)
	_, _, err := c.Playgrounds.Create(ctxT(t), body, MutationOptions{}, WaitOptions{})
	lost := mustError(t, err, CodeInternal).IdempotencyKey

	_, _, err = c.Playgrounds.Create(ctxT(t), body, MutationOptions{IdempotencyKey: "explicit-1"}, WaitOptions{})
	if e := mustError(t, err, CodeInternal); e.IdempotencyKey != "explicit-1" {
		t.Fatalf("an explicit key must win: %+v", e)
	}
	if err := s.SetChaos(""); err != nil {
		t.Fatal(err)
	}
	other := journalClient(t, url, dir, "ci", nil)
	_, _, err = other.Playgrounds.Create(ctxT(t), body, MutationOptions{}, WaitOptions{})
	if e := mustError(t, err, CodeValidation); e.IdempotencyKey == lost {
		t.Fatalf("another profile reused the key: %+v", e)
	}
	_, _, err = c.Playgrounds.Create(ctxT(t), body, MutationOptions{NewKey: true}, WaitOptions{})
	if e := mustError(t, err, CodeValidation); e.IdempotencyKey == lost {
		t.Fatalf("--new-key reused the key: %+v", e)
	}
	// The lost create, and the lost create with the given key, flagged
	// explicit and never claimed by a run without it.
	list := pending(t, c)
	if len(list) != 2 || list[0].Key != lost || list[0].Explicit || list[1].Key != "explicit-1" || !list[1].Explicit || list[1].Signature != "" {
		t.Fatalf("terminal 4xx answers must leave only the two lost creates: %+v", list)
	}
	// Another body (another name) is another operation.
	if _, resp, err := c.Playgrounds.Create(ctxT(t), map[string]any{"name": "opt-2", "playspec_id": "web", "marquee_id": "local"}, MutationOptions{}, WaitOptions{}); err != nil || resp.Replayed {
		t.Fatalf("another body: %v %+v", err, resp)
	}
	// The lost one finishes as a replay.
	if _, resp, err := c.Playgrounds.Create(ctxT(t), body, MutationOptions{}, WaitOptions{}); err != nil || !resp.Replayed {
		t.Fatalf("re-run: %v %+v", err, resp)
	}
	if s.Stats().Creates["opt-1"] != 1 || len(pending(t, c)) != 1 {
		t.Fatalf("creates %v, pending %+v", s.Stats().Creates, pending(t, c))
	}
	// Only a run that gives the key again finishes the explicit one.
	// (Its first attempt met the name taken: the definitive answer is that 422.)
	_, _, err = c.Playgrounds.Create(ctxT(t), body, MutationOptions{IdempotencyKey: "explicit-1"}, WaitOptions{})
	mustError(t, err, CodeValidation)
	if list := pending(t, c); len(list) != 0 {
		t.Fatalf("pending %+v", list)
	}
}

// POSTs that only read or test are not journaled, and without a window
// nothing is.
func TestJournalSkipsReadsAndTests(t *testing.T) {
	_, url := emulator(t, localapi.Config{})
	c := journalClient(t, url, t.TempDir(), "default", nil)
	if _, _, err := c.Playgrounds.Create(ctxT(t), map[string]any{"name": "r-1", "playspec_id": "web", "marquee_id": "local"}, MutationOptions{}, WaitOptions{}); err != nil {
		t.Fatal(err)
	}
	store := &countingStore{Store: c.store}
	c.journal = reliability.NewJournal(store, c.clock)
	if _, _, err := c.Playgrounds.Logs(ctxT(t), "r-1", "", 5, MutationOptions{}, WaitOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Playgrounds.RefreshStatus(ctxT(t), "r-1", MutationOptions{}, WaitOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Marquees.TestConnection(ctxT(t), "local", MutationOptions{}, WaitOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Playgrounds.Get(ctxT(t), "r-1"); err != nil {
		t.Fatal(err)
	}
	if n := store.updates(); n != 0 {
		t.Fatalf("reads and tests touched the journal %d times", n)
	}
	off := emulatorClient(t, url, func(o *Options) { o.StateDir = t.TempDir() })
	off.journal = reliability.NewJournal(store, off.clock)
	if _, _, err := off.Playgrounds.Action(ctxT(t), "r-1", "rollout", false, MutationOptions{}, WaitOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := store.updates(); n != 0 {
		t.Fatalf("a zero window must turn the journal off; %d updates", n)
	}
}

// Two invocations running the same mutation at once share one key: the
// server applies it once and answers the other with a replay (after a 409
// in flight, which is waited out).
func TestJournalConcurrentRunsShareTheKey(t *testing.T) {
	// Every answer takes 300 ms, so both runs claim before either settles:
	// a run that starts after the other's answer is a new operation.
	s, url := emulator(t, localapi.Config{Chaos: "latency=1:300ms"})
	dir := t.TempDir()
	body := map[string]any{"name": "twin-1", "playspec_id": "web", "marquee_id": "local"}
	keys := make([]string, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range 2 {
		c := emulatorClient(t, url, func(o *Options) {
			o.StateDir, o.JournalWindow = dir, time.Minute
			o.Policy.MaxRetries = 20
		})
		wg.Add(1)
		go func() {
			defer wg.Done()
			var resp *Response
			_, resp, errs[i] = c.Playgrounds.Create(ctxT(t), body, MutationOptions{}, WaitOptions{})
			if resp != nil {
				keys[i] = resp.IdempotencyKey
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
	}
	if keys[0] != keys[1] || s.Stats().Creates["twin-1"] != 1 {
		t.Fatalf("keys %v, creates %d", keys, s.Stats().Creates["twin-1"])
	}
}

func TestJournalDefinitiveAnswers(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{nil, true},
		{&Error{Status: 422, Code: CodeValidation}, true},
		{&Error{Status: 404, Code: CodeNotFound}, true},
		{&Error{Status: 409, Code: CodeConflict, Retryable: true}, false}, // in flight
		{&Error{Status: 429, Code: CodeRateLimited, Retryable: true}, false},
		{&Error{Status: 503, Code: CodeInternal, Retryable: true, OutcomeUnknown: true}, false},
		{&Error{Code: CodeRequestTimeout, OutcomeUnknown: true}, false},
		{&Error{Code: CodeNetwork}, false},
		{&Error{Code: CodeCircuitOpen}, false},
		{&Error{Code: CodeCancelled}, false},
		{&Error{Code: CodeAsyncTimeout, Async: true}, false},
		{&Error{Code: CodeRemoteFailed, Async: true}, true},
		{&Error{Status: 200, Code: CodeInvalidResponse}, true},
	} {
		if got := definitive(tc.err); got != tc.want {
			t.Errorf("definitive(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}

func TestJournalSignatureIsCanonical(t *testing.T) {
	c := emulatorClient(t, "http://127.0.0.1:1", func(o *Options) { o.Profile = "p" })
	a, _ := c.signature("POST", "/api/x", map[string]any{"a": 1, "b": map[string]any{"c": "d", "e": []any{1, 2}}})
	b, _ := c.signature("POST", "/api/x", json.RawMessage(`{"b":{"e":[1,2],"c":"d"},  "a":1}`))
	if a == "" || a != b {
		t.Fatalf("key order or spacing changed the signature: %s vs %s", a, b)
	}
	for _, other := range []func() (string, error){
		func() (string, error) { return c.signature("PATCH", "/api/x", map[string]any{"a": 1}) },
		func() (string, error) { return c.signature("POST", "/api/y", map[string]any{"a": 1}) },
		func() (string, error) { return c.signature("POST", "/api/x", map[string]any{"a": 2}) },
	} {
		if s, _ := other(); s == a {
			t.Fatal("different operations share a signature")
		}
	}
	d := emulatorClient(t, "http://127.0.0.1:1", func(o *Options) { o.Profile = "q" })
	if s, _ := d.signature("POST", "/api/x", map[string]any{"a": 1, "b": map[string]any{"c": "d", "e": []any{1, 2}}}); s == a {
		t.Fatal("another profile shares the signature")
	}
	k := emulatorClient(t, "http://127.0.0.1:1", func(o *Options) { o.Profile, o.APIKey = "p", "fibe_other_key" })
	if s, _ := k.signature("POST", "/api/x", map[string]any{"a": 1, "b": map[string]any{"c": "d", "e": []any{1, 2}}}); s == a {
		t.Fatal("another API key shares the signature: a journal would confirm a guessed body without the key")
	}
}

func TestJournalDescribe(t *testing.T) {
	for _, tc := range [][4]string{
		{"POST", "/api/playgrounds", "", "create playground"},
		{"POST", "/api/playgrounds/demo/operations", "hard_restart", "hard restart demo"},
		{"DELETE", "/api/marquees/prod-eu", "", "delete prod-eu"},
		{"PATCH", "/api/playgrounds/a%2Fb", "", "update a/b"},
		{"POST", "/api/playgrounds/demo/expiration", "", "extend demo"},
		{"POST", "/api/agents", "", "POST /api/agents"},
	} {
		var body any
		if tc[2] != "" {
			body = map[string]any{"action_type": tc[2]}
		}
		if got := describe(tc[0], tc[1], body); got != tc[3] {
			t.Errorf("describe(%s %s) = %q, want %q", tc[0], tc[1], got, tc[3])
		}
	}
}

type countingStore struct {
	reliability.Store
	mu sync.Mutex
	n  int
}

// count notes one journal transition.
func (s *countingStore) count() {
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
}

func (s *countingStore) JournalPut(e reliability.JournalEntry, now time.Time) error {
	s.count()
	return s.Store.JournalPut(e, now)
}

func (s *countingStore) JournalRemove(key string, now time.Time) error {
	s.count()
	return s.Store.JournalRemove(key, now)
}

func (s *countingStore) JournalClaim(sig string, window time.Duration, fresh reliability.JournalEntry, now time.Time) (reliability.JournalEntry, bool, error) {
	s.count()
	return s.Store.JournalClaim(sig, window, fresh, now)
}

func (s *countingStore) updates() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

// The raw API door journals as the services do: a read-only POST of
// contract §10 never (it replayed stale log lines), a query's values never
// (only the signature covers them, so ?a=1 and ?a=2 stay two operations),
// and a given key flagged explicit, never handed to a run without it.
func TestJournalOfTheRawAPI(t *testing.T) {
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		apiError(w, http.StatusBadGateway, "INTERNAL_ERROR", "lost", nil)
	})
	dir := t.TempDir()
	c := emulatorClient(t, srv.URL, func(o *Options) {
		o.StateDir, o.JournalWindow = dir, 15*time.Minute
		o.Policy.MaxRetries = reliability.NoRetries
		o.Policy.BreakerThreshold = 1000
	})
	for _, p := range []string{"playgrounds/x/logs", "/api/playgrounds/x/status", "marquees/m/connection_tests?x=1"} {
		if _, err := c.API(ctxT(t), APIRequest{Method: "POST", Path: p, Body: json.RawMessage(`{}`)}); err == nil {
			t.Fatal("no error")
		}
	}
	if list := pending(t, c); len(list) != 0 {
		t.Fatalf("read-only POSTs journaled: %+v", list)
	}
	send := func(path string, mo MutationOptions) string {
		t.Helper()
		_, err := c.API(ctxT(t), APIRequest{Method: "POST", Path: path, Mutation: mo})
		return mustError(t, err, CodeInternal).IdempotencyKey
	}
	k1 := send("marquees/local/ssh_keys?access_token=SECRET1", MutationOptions{})
	k2 := send("marquees/local/ssh_keys?access_token=SECRET2", MutationOptions{})
	if k1 == k2 {
		t.Fatal("two queries were one operation")
	}
	if again := send("marquees/local/ssh_keys?access_token=SECRET1", MutationOptions{}); again != k1 {
		t.Fatalf("the same query is the same operation: %s, want %s", again, k1)
	}
	send("marquees/local/ssh_keys?access_token=SECRET3", MutationOptions{IdempotencyKey: "given-1"})
	if k := send("marquees/local/ssh_keys?access_token=SECRET3", MutationOptions{}); k == "given-1" {
		t.Fatal("a given key was handed to a run that did not give it")
	}
	list := pending(t, c)
	explicit := 0
	for _, e := range list {
		if e.Path != "/api/marquees/local/ssh_keys" || strings.Contains(e.Label, "SECRET") {
			t.Errorf("entry shows the query: %+v", e)
		}
		if e.Explicit {
			explicit++
		}
	}
	if len(list) != 4 || explicit != 1 {
		t.Fatalf("pending %+v", list)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		if data, _ := os.ReadFile(f); strings.Contains(string(data), "SECRET") {
			t.Errorf("%s keeps a query value: %s", filepath.Base(f), data)
		}
	}
}

func TestReadOnlyRequest(t *testing.T) {
	for _, c := range []struct {
		method, path string
		want         bool
	}{
		{"GET", "/api/playgrounds", true},
		{"POST", "/api/playgrounds/x/logs", true},
		{"post", "playgrounds/x/status?y=1", true},
		{"POST", "/api/marquees/m/connection_tests", true},
		{"POST", "/api/playgrounds/x/operations", false},
		{"POST", "/api/playgrounds//logs", false},
		{"POST", "/api/playgrounds/x/logs/more", false},
		{"DELETE", "/api/playgrounds/x/logs", false},
		{"PATCH", "/api/playgrounds/x/status", false},
		{"POST", "/api/marquees/unpaid", false},
	} {
		if got := ReadOnlyRequest(c.method, c.path); got != c.want {
			t.Errorf("ReadOnlyRequest(%s, %s) = %v", c.method, c.path, got)
		}
	}
}

// A mutation sent with a given key whose answer is lost is journaled,
// flagged explicit: a later run without the key neither reuses it nor
// clears it, and only a run that gives the key again finishes it (a
// replay, not a second create).
func TestJournalExplicitKeyOfALostAnswer(t *testing.T) {
	s, url := emulator(t, localapi.Config{Seed: 1, Chaos: "commit-then-502=1"})
	dir := t.TempDir()
	body := map[string]any{"name": "given-1", "playspec_id": "web", "marquee_id": "local"}
	const given = "deploy-2026-12-03-given"

	first := journalClient(t, url, dir, "default", nil)
	_, _, err := first.Playgrounds.Create(ctxT(t), body, MutationOptions{IdempotencyKey: given}, WaitOptions{})
	if e := mustError(t, err, CodeInternal); !e.OutcomeUnknown || e.IdempotencyKey != given {
		t.Fatalf("a lost answer with a given key: %+v", e)
	}
	list := pending(t, first)
	if len(list) != 1 || list[0].Key != given || !list[0].Explicit || list[0].Signature != "" || list[0].Label != "create playground" {
		t.Fatalf("pending after the lost answer = %+v", list)
	}
	if err := s.SetChaos(""); err != nil {
		t.Fatal(err)
	}

	// The same create without the key: another operation (the name is
	// taken by the lost one), never the given key.
	events := &eventLog{}
	other := journalClient(t, url, dir, "default", events)
	_, _, err = other.Playgrounds.Create(ctxT(t), body, MutationOptions{}, WaitOptions{})
	if e := mustError(t, err, CodeValidation); e.IdempotencyKey == given {
		t.Fatalf("a run without the key was handed it: %+v", e)
	}
	if reused := events.kinds(EventKeyReuse); len(reused) != 0 {
		t.Fatalf("a run without the key reused one: %+v", reused)
	}
	if list := pending(t, other); len(list) != 1 || list[0].Key != given || !list[0].Explicit {
		t.Fatalf("pending after a run without the key = %+v", list)
	}

	// Given again, the key finishes it: the server replays the create.
	again := journalClient(t, url, dir, "default", nil)
	p, resp, err := again.Playgrounds.Create(ctxT(t), body, MutationOptions{IdempotencyKey: given}, WaitOptions{})
	if err != nil {
		t.Fatalf("the run with the key: %v", err)
	}
	if !resp.Replayed || resp.IdempotencyKey != given || p.Name != "given-1" {
		t.Fatalf("the run with the key must replay it: %+v", resp)
	}
	if n := s.Stats().Creates["given-1"]; n != 1 {
		t.Fatalf("creates = %d, want 1", n)
	}
	if list := pending(t, again); len(list) != 0 {
		t.Fatalf("the replay must remove the entry: %+v", list)
	}
}
