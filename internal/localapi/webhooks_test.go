package localapi

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"
)

// hookCall is one request a receiver got, with when it came.
type hookCall struct {
	header http.Header
	body   []byte
	at     time.Time
}

// receiver is a real webhook receiver on 127.0.0.1 that answers with the
// status codes it is given, in turn (the last one for ever after).
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	calls  []hookCall
	codes  []int
	notify chan struct{}
}

func newReceiver(t *testing.T, codes ...int) *receiver {
	t.Helper()
	rcv := &receiver{codes: codes, notify: make(chan struct{}, 64)}
	rcv.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rcv.mu.Lock()
		rcv.calls = append(rcv.calls, hookCall{header: r.Header.Clone(), body: body, at: time.Now()})
		code := http.StatusOK
		if n := len(rcv.calls); len(rcv.codes) > 0 {
			code = rcv.codes[min(n, len(rcv.codes))-1]
		}
		rcv.mu.Unlock()
		w.WriteHeader(code)
		rcv.notify <- struct{}{}
	}))
	t.Cleanup(rcv.Close)
	return rcv
}

// waitCalls waits (10 s at most) until the receiver has n requests.
func (r *receiver) waitCalls(t *testing.T, n int) []hookCall {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		r.mu.Lock()
		if len(r.calls) >= n {
			out := append([]hookCall(nil), r.calls...)
			r.mu.Unlock()
			return out
		}
		r.mu.Unlock()
		select {
		case <-r.notify:
		case <-deadline:
			t.Fatalf("the receiver got %d requests, want %d", len(r.calls), n)
		}
	}
}

func hmacHex(body []byte, secret string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// newHookEnv is an emulator on the real clock (deliveries are timed by it).
func newHookEnv(t *testing.T, speed float64) *env {
	t.Helper()
	return newEnv(t, Config{Speed: speed, Now: time.Now})
}

func (e *env) createEndpoint(url, secret string, events ...string) map[string]any {
	e.t.Helper()
	obj := map[string]any{"url": url, "events": events}
	if secret != "" {
		obj["secret"] = secret
	}
	r := e.do("POST", "/api/webhook_endpoints", map[string]any{"webhook_endpoint": obj})
	expectStatus(e.t, r, http.StatusCreated)
	return r.json(e.t)
}

// waitDelivery polls the endpoint's deliveries (10 s at most) until one
// has the status.
func (e *env) waitDelivery(endpoint int64, status string) map[string]any {
	e.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		r := e.do("GET", "/api/webhook_endpoints/"+strconv.FormatInt(endpoint, 10)+"/deliveries", nil)
		expectStatus(e.t, r, http.StatusOK)
		var env struct {
			Data []map[string]any `json:"data"`
		}
		if err := json.Unmarshal(r.body, &env); err != nil {
			e.t.Fatal(err)
		}
		for _, d := range env.Data {
			if d["status"] == status {
				return d
			}
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("no %s delivery within 10 s: %s", status, r.body)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestWebhookDeliveriesAreSignedWithEveryHeader(t *testing.T) {
	e := newHookEnv(t, 50)
	rcv := newReceiver(t)
	const secret = "receiver-secret-0123456789"
	ep := e.createEndpoint(rcv.URL+"/hook", secret, "marquee.created", "marquee.destroyed")
	if ep["secret"] != secret {
		t.Fatalf("create answer secret = %v", ep["secret"])
	}
	id := num(ep["id"])

	r := e.do("POST", "/api/marquees", map[string]any{"marquee": map[string]any{"name": "hooked", "host": "hooked.example.test"}})
	expectStatus(t, r, http.StatusCreated)
	mq := r.json(t)
	r = e.do("POST", "/api/webhook_endpoints/"+strconv.FormatInt(id, 10)+"/test_deliveries", nil)
	expectStatus(t, r, http.StatusCreated)

	calls := rcv.waitCalls(t, 2)
	events := map[string]hookCall{}
	deliveries := map[string]bool{}
	for _, c := range calls {
		if got, want := c.header.Get("X-Webhook-Signature"), hmacHex(c.body, secret); got != want {
			t.Errorf("X-Webhook-Signature = %q, want %q", got, want)
		}
		var p struct {
			Event     string         `json:"event"`
			Timestamp string         `json:"timestamp"`
			Data      map[string]any `json:"data"`
		}
		if err := json.Unmarshal(c.body, &p); err != nil {
			t.Fatalf("body %q: %v", c.body, err)
		}
		if _, err := time.Parse(time.RFC3339, p.Timestamp); err != nil {
			t.Errorf("timestamp %q is not RFC 3339", p.Timestamp)
		}
		if c.header.Get("X-Webhook-Event") != p.Event {
			t.Errorf("X-Webhook-Event %q, body event %q", c.header.Get("X-Webhook-Event"), p.Event)
		}
		d := c.header.Get("X-Webhook-Delivery")
		if d == "" || deliveries[d] {
			t.Errorf("X-Webhook-Delivery %q empty or repeated", d)
		}
		deliveries[d] = true
		if c.header.Get("X-Idempotency-Key") == "" {
			t.Error("no X-Idempotency-Key")
		}
		if c.header.Get("Content-Type") != "application/json" {
			t.Errorf("Content-Type %q", c.header.Get("Content-Type"))
		}
		events[p.Event] = c
		if p.Event == "marquee.created" && p.Data["name"] != "hooked" {
			t.Errorf("marquee.created data = %v", p.Data)
		}
	}
	if _, ok := events["marquee.created"]; !ok {
		t.Errorf("no marquee.created delivery; got %v", events)
	}
	if _, ok := events["webhook.test"]; !ok {
		t.Errorf("no webhook.test delivery (sent even without the subscription); got %v", events)
	}

	// Both recorded as delivered, with the receiver's code and one attempt.
	d := e.waitDelivery(id, "delivered")
	if num(d["response_code"]) != 200 || num(d["attempt"]) != 1 || d["delivered_at"] == nil {
		t.Errorf("delivery = %v", d)
	}
	// The secret is never shown again.
	r = e.do("GET", "/api/webhook_endpoints/"+strconv.FormatInt(id, 10), nil)
	if got := r.json(t); got["secret"] != nil || got["last_triggered_at"] == nil {
		t.Errorf("get = %s", r.body)
	}

	// An event the endpoint does not subscribe to is not sent.
	r = e.do("PATCH", "/api/marquees/"+strconv.FormatInt(num(mq["id"]), 10), map[string]any{"marquee": map[string]any{"port": 2222}})
	expectStatus(t, r, http.StatusOK)
	r = e.do("DELETE", "/api/marquees/"+strconv.FormatInt(num(mq["id"]), 10), nil)
	if r.status >= 300 {
		t.Fatalf("delete marquee: %d %s", r.status, r.body)
	}
	calls = rcv.waitCalls(t, 3)
	var last struct {
		Event string `json:"event"`
	}
	_ = json.Unmarshal(calls[2].body, &last)
	if last.Event != "marquee.destroyed" {
		t.Errorf("third delivery is %q, want marquee.destroyed (marquee.updated is not subscribed)", last.Event)
	}
}

func TestAFailingReceiverIsRetriedThenRecordedAsFailed(t *testing.T) {
	const speed = 100 // backoffs of 10, 40 and 160 ms
	e := newHookEnv(t, speed)
	rcv := newReceiver(t, http.StatusInternalServerError)
	ep := e.createEndpoint(rcv.URL+"/hook", "", "webhook.test")
	secret, _ := ep["secret"].(string)
	if len(secret) < minSecretLen {
		t.Fatalf("generated secret %q", secret)
	}
	id := num(ep["id"])
	expectStatus(t, e.do("POST", "/api/webhook_endpoints/"+strconv.FormatInt(id, 10)+"/test_deliveries", nil), http.StatusCreated)

	calls := rcv.waitCalls(t, 4)
	key := calls[0].header.Get("X-Idempotency-Key")
	for i, c := range calls {
		if c.header.Get("X-Idempotency-Key") != key || c.header.Get("X-Webhook-Delivery") != calls[0].header.Get("X-Webhook-Delivery") {
			t.Errorf("attempt %d: delivery id or idempotency key changed", i+1)
		}
		if string(c.body) != string(calls[0].body) || c.header.Get("X-Webhook-Signature") != hmacHex(c.body, secret) {
			t.Errorf("attempt %d: body or signature differs", i+1)
		}
	}
	// Each retry comes no sooner than its backoff (1 s, 4 s, 16 s over the speed).
	for i, want := range []time.Duration{10 * time.Millisecond, 40 * time.Millisecond, 160 * time.Millisecond} {
		if gap := calls[i+1].at.Sub(calls[i].at); gap < want {
			t.Errorf("retry %d came %s after the attempt before it, want at least %s", i+1, gap, want)
		}
	}
	d := e.waitDelivery(id, "failed")
	if num(d["attempt"]) != 4 || num(d["response_code"]) != 500 || d["delivered_at"] != nil {
		t.Errorf("delivery = %v", d)
	}
	if a, _ := d["attempts"].([]any); len(a) != 4 {
		t.Errorf("attempts recorded = %v", d["attempts"])
	}
	r := e.do("GET", "/api/webhook_endpoints/"+strconv.FormatInt(id, 10), nil)
	if got := r.json(t); num(got["failure_count"]) != 1 {
		t.Errorf("failure_count = %v", got["failure_count"])
	}
	// No fifth attempt.
	if n := len(rcv.waitCalls(t, 4)); n != 4 {
		t.Errorf("the receiver got %d requests", n)
	}
}

func TestAReceiverThatRecoversGetsTheDelivery(t *testing.T) {
	e := newHookEnv(t, 100)
	rcv := newReceiver(t, http.StatusServiceUnavailable, http.StatusFound, http.StatusNoContent)
	ep := e.createEndpoint(rcv.URL+"/hook", "", "webhook.test")
	id := num(ep["id"])
	expectStatus(t, e.do("POST", "/api/webhook_endpoints/"+strconv.FormatInt(id, 10)+"/test_deliveries", nil), http.StatusCreated)
	d := e.waitDelivery(id, "delivered")
	if num(d["attempt"]) != 3 || num(d["response_code"]) != 204 {
		t.Errorf("delivery = %v (a redirect is a failed attempt, not followed)", d)
	}
}

func TestWebhookReceiversOffThisMachineAreNotDialed(t *testing.T) {
	for _, u := range []string{"https://hooks.example.com/x", "http://10.1.2.3:8080/x"} {
		if loopbackURL(u) {
			t.Errorf("loopbackURL(%q) = true", u)
		}
	}
	for _, u := range []string{"http://127.0.0.1:3000/hook", "http://localhost:3000/hook", "http://[::1]:1/x", "http://[::]:9/x"} {
		if !loopbackURL(u) {
			t.Errorf("loopbackURL(%q) = false", u)
		}
	}
	e := newHookEnv(t, 100)
	ep := e.createEndpoint("https://hooks.example.com/x", "", "webhook.test")
	id := num(ep["id"])
	expectStatus(t, e.do("POST", "/api/webhook_endpoints/"+strconv.FormatInt(id, 10)+"/test_deliveries", nil), http.StatusCreated)
	d := e.waitDelivery(id, "failed")
	if num(d["attempt"]) != 1 || d["response_code"] != nil || d["error"] == nil {
		t.Errorf("delivery = %v", d)
	}
}

func TestWebhookEndpointValidationAndFilters(t *testing.T) {
	e := newEnv(t, Config{})
	for _, tc := range []struct {
		obj   map[string]any
		field string
	}{
		{map[string]any{"events": []string{"playground.created"}}, "url"},
		{map[string]any{"url": "ftp://x.test/", "events": []string{"playground.created"}}, "url"},
		{map[string]any{"url": "http://127.0.0.1:3000/hook"}, "events"},
		{map[string]any{"url": "http://127.0.0.1:3000/hook", "events": []string{}}, "events"},
		{map[string]any{"url": "http://127.0.0.1:3000/hook", "events": []string{"nope.happened"}}, "events"},
		{map[string]any{"url": "http://127.0.0.1:3000/hook", "events": []string{"webhook.test"}, "secret": "short"}, "secret"},
		{map[string]any{"url": "http://127.0.0.1:3000/hook", "events": []string{"webhook.test"}, "tool_filters": []string{"x"}}, "tool_filters"},
	} {
		r := e.do("POST", "/api/webhook_endpoints", map[string]any{"webhook_endpoint": tc.obj})
		expectStatus(t, r, http.StatusUnprocessableEntity)
		if _, ok := r.errDetails(t)[tc.field]; !ok {
			t.Errorf("%v: details %s do not name %s", tc.obj, r.body, tc.field)
		}
	}
	a := e.createEndpoint("http://127.0.0.1:3000/hook", "", "playground.created")
	b := e.createEndpoint("http://localhost:4000/other", "", "webhook.test")
	idA := strconv.FormatInt(num(a["id"]), 10)
	r := e.do("PATCH", "/api/webhook_endpoints/"+idA, map[string]any{"webhook_endpoint": map[string]any{
		"enabled": false, "events": []string{"secret.created", "agent.updated", "playground.destroyed"}}})
	expectStatus(t, r, http.StatusOK)
	if got := r.json(t); got["enabled"] != false || len(got["events"].([]any)) != 3 || got["secret"] != nil {
		t.Errorf("update = %s", r.body)
	}
	count := func(q string) int64 {
		r := e.do("GET", "/api/webhook_endpoints?"+q, nil)
		expectStatus(t, r, http.StatusOK)
		return num(r.json(t)["meta"].(map[string]any)["total"])
	}
	if n := count("enabled=false"); n != 1 {
		t.Errorf("enabled=false: %d", n)
	}
	if n := count("url=LOCALHOST"); n != 1 {
		t.Errorf("url=LOCALHOST: %d", n)
	}
	if n := count(""); n != 2 {
		t.Errorf("all: %d", n)
	}
	expectStatus(t, e.do("GET", "/api/webhook_endpoints?enabled=maybe", nil), http.StatusUnprocessableEntity)
	expectStatus(t, e.do("GET", "/api/webhook_endpoints?sort=bogus_asc", nil), http.StatusBadRequest)

	r = e.do("GET", "/api/webhook_event_types", nil)
	expectStatus(t, r, http.StatusOK)
	var et struct {
		EventTypes []string `json:"event_types"`
	}
	_ = json.Unmarshal(r.body, &et)
	if len(et.EventTypes) < 10 || et.EventTypes[0] != "playground.created" {
		t.Errorf("event types = %v", et.EventTypes)
	}

	idB := strconv.FormatInt(num(b["id"]), 10)
	if r := e.do("DELETE", "/api/webhook_endpoints/"+idB, nil); r.status != http.StatusNoContent {
		t.Fatalf("delete: %d", r.status)
	}
	expectStatus(t, e.do("GET", "/api/webhook_endpoints/"+idB, nil), http.StatusNotFound)
	expectStatus(t, e.do("POST", "/api/webhook_endpoints/999/test_deliveries", nil), http.StatusNotFound)
}

func TestAuditLogsRecordEveryMutationAndFilter(t *testing.T) {
	e := newEnv(t, Config{Speed: 50, Players: 2})
	rcv := newReceiver(t)
	e.createEndpoint(rcv.URL, "", "playground.created", "playground.status.changed", "playground.destroyed")
	e.createPG("audited", "web", nil)
	r := e.do("POST", "/api/playgrounds/audited/operations", map[string]any{"action_type": "rollout"})
	expectStatus(t, r, http.StatusAccepted)
	e.pollUntil(r.json(t)["status_url"].(string), time.Second)

	list := func(key, q string) []map[string]any {
		t.Helper()
		saved := e.key
		e.key = key
		defer func() { e.key = saved }()
		r := e.do("GET", "/api/audit_logs?per_page=100&"+q, nil)
		expectStatus(t, r, http.StatusOK)
		var env struct {
			Data []map[string]any `json:"data"`
		}
		_ = json.Unmarshal(r.body, &env)
		return env.Data
	}
	all := list(e.key, "")
	actions := map[string]int{}
	for _, a := range all {
		actions[a["action"].(string)]++
		if a["channel"] != "api" {
			t.Errorf("entry %v: channel", a)
		}
	}
	for _, want := range []string{"webhook_endpoint.created", "playground.created", "playground.status.changed"} {
		if actions[want] == 0 {
			t.Errorf("no %s entry in %v", want, actions)
		}
	}
	created := list(e.key, "resource_type=Playground&action_prefix=playground.created")
	if len(created) != 1 || num(created[0]["resource_id"]) == 0 || created[0]["actor_type"] != "ApiKey" ||
		created[0]["metadata"].(map[string]any)["request_id"] == "" {
		t.Errorf("playground.created entries = %v", created)
	}
	for _, a := range list(e.key, "resource_type=WebhookEndpoint") {
		if a["resource_type"] != "WebhookEndpoint" {
			t.Errorf("resource_type filter leaks %v", a)
		}
	}
	if got := list(e.key, "channel=ui"); len(got) != 0 {
		t.Errorf("channel=ui: %v", got)
	}
	if got := list(e.key, "created_after=2100-01-01"); len(got) != 0 {
		t.Errorf("far-future created_after: %v", got)
	}
	asc := list(e.key, "sort=created_at_asc")
	if len(asc) != len(all) || num(asc[0]["id"]) > num(asc[len(asc)-1]["id"]) {
		t.Errorf("sort=created_at_asc: %v", asc)
	}

	// The creation and the rollout's status changes reached the receiver
	// too (in any order: deliveries are posted concurrently).
	got := map[string]bool{}
	for n := 1; !got["playground.created"] || !got["playground.status.changed"]; n++ {
		calls := rcv.waitCalls(t, n) // fails the test after 10 s without the n-th
		var p struct{ Event string }
		_ = json.Unmarshal(calls[n-1].body, &p)
		got[p.Event] = true
	}

	// Another player sees none of it; a key without the scope is refused.
	keys := e.srv.Keys()
	if got := list(keys[1].Key, ""); len(got) != 0 {
		t.Errorf("player 2 sees %d entries of player 1", len(got))
	}
	saved := e.key
	e.key = e.mint(1, "agents:read")
	r = e.do("GET", "/api/audit_logs", nil)
	e.key = saved
	if r.status != http.StatusForbidden || r.errCode(t) != "FORBIDDEN" {
		t.Errorf("agents:read key: %d %s", r.status, r.body)
	}
	if got := list(e.mint(1, "audit_logs:read"), "resource_type=Playground"); len(got) == 0 {
		t.Error("audit_logs:read key sees nothing")
	}
}

// manualTimers stands in for the sender's timers: each wait it asks for
// is reported, and the test fires the latest once it has moved the clock.
type manualTimers struct {
	mu     sync.Mutex
	asks   chan time.Duration
	latest chan time.Time
}

func (m *manualTimers) after(d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	m.mu.Lock()
	m.latest = ch
	m.mu.Unlock()
	m.asks <- d
	return ch
}

func (m *manualTimers) fire() {
	m.mu.Lock()
	ch := m.latest
	m.mu.Unlock()
	ch <- time.Time{}
}

// waitAsk waits (10 s at most) for the sender to ask for a wait of want.
func (m *manualTimers) waitAsk(t *testing.T, want time.Duration) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case d := <-m.asks:
			if d == want {
				return
			}
		case <-deadline:
			t.Fatalf("the sender never waited %s", want)
		}
	}
}

// At speed 1 the retries wait exactly 1 s, 4 s and 16 s of the emulator's
// clock: the manual clock moves, nobody sleeps.
func TestDeliveryBackoffOnTheManualClock(t *testing.T) {
	e := newEnv(t, Config{})
	timers := &manualTimers{asks: make(chan time.Duration, 1024)}
	e.srv.hooks.after = timers.after
	rcv := newReceiver(t, http.StatusBadGateway)
	id := num(e.createEndpoint(rcv.URL, "", "webhook.test")["id"])
	expectStatus(t, e.do("POST", "/api/webhook_endpoints/"+strconv.FormatInt(id, 10)+"/test_deliveries", nil), http.StatusCreated)
	start := e.clock.Now()
	for i, want := range []time.Duration{time.Second, 4 * time.Second, 16 * time.Second} {
		rcv.waitCalls(t, i+1)
		timers.waitAsk(t, want)
		e.clock.Advance(want)
		timers.fire()
	}
	rcv.waitCalls(t, 4)
	d := e.waitDelivery(id, "failed")
	attempts, _ := d["attempts"].([]any)
	if len(attempts) != 4 {
		t.Fatalf("attempts %v", d["attempts"])
	}
	for i, off := range []time.Duration{0, time.Second, 5 * time.Second, 21 * time.Second} {
		at, _ := time.Parse(time.RFC3339Nano, attempts[i].(map[string]any)["at"].(string))
		if !at.Equal(start.Add(off)) {
			t.Errorf("attempt %d at %s, want %s after the first", i+1, at.Sub(start), off)
		}
	}
}

// Deliveries live in the state: a second emulator on the same state file
// (another process, say) sees the first one's delivery and its attempts.
func TestDeliveriesSurviveInTheStateFile(t *testing.T) {
	path := t.TempDir() + "/state.json"
	e := newEnv(t, Config{StatePath: path, Speed: 100, Now: time.Now})
	rcv := newReceiver(t)
	id := num(e.createEndpoint(rcv.URL, "", "webhook.test")["id"])
	expectStatus(t, e.do("POST", "/api/webhook_endpoints/"+strconv.FormatInt(id, 10)+"/test_deliveries", nil), http.StatusCreated)
	e.waitDelivery(id, "delivered")

	other := newEnv(t, Config{StatePath: path, Now: time.Now})
	d := other.waitDelivery(id, "delivered")
	if num(d["attempt"]) != 1 || num(d["response_code"]) != 200 {
		t.Errorf("delivery read by another emulator: %v", d)
	}
	if n := len(rcv.waitCalls(t, 1)); n != 1 {
		t.Errorf("the receiver got %d requests", n)
	}
}

// A delivery left pending by a process that ended is posted by the next
// emulator that serves any request on the same state.
func TestALeftoverDeliveryIsPostedByTheNextRequest(t *testing.T) {
	e := newHookEnv(t, 100)
	rcv := newReceiver(t)
	id := num(e.createEndpoint(rcv.URL, "", "webhook.test")["id"])
	_ = e.srv.store.update(e.srv.now(), func(st *state) change {
		_, _ = st.queueDelivery(findByID(st.WebhookEndpoints, id), "webhook.test", map[string]any{}, e.srv.now())
		return changedDurable
	})
	expectStatus(t, e.do("GET", "/api/me", nil), http.StatusOK)
	rcv.waitCalls(t, 1)
	e.waitDelivery(id, "delivered")
}
