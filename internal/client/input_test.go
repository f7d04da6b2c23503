package client

import (
	"net/http"
	"strings"
	"testing"
)

// A header with a line break is refused before the breaker is asked: the
// old client sent it to net/http, which failed every attempt as a network
// error, and two such calls opened the host's breaker for every later call.
func TestAPIRefusesInjectedHeadersWithoutCountingTheBreaker(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) { replyJSON(w, 200, map[string]any{"ok": true}) })
	c, _ := newTestClient(t, srv.URL)
	for _, h := range []http.Header{
		{"X-Evil": {"a\r\nInjected: 1"}},
		{"X-Evil": {"a\nb"}},
		{"X-Bell": {"a\x07"}},
		{"Bad Name": {"x"}},
		{"X-Evil\r\nInjected": {"x"}},
	} {
		for range 3 {
			_, err := c.API(ctxT(t), APIRequest{Path: "me", Header: h})
			e := mustError(t, err, CodeInvalidArgument)
			if e.Details["field"] != "headers" {
				t.Errorf("%v: details %v, want field headers", h, e.Details)
			}
		}
	}
	if n := rec.count(); n != 0 {
		t.Fatalf("%d requests sent", n)
	}
	var failures int
	bs, err := c.Breakers()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bs {
		failures += b.ConsecutiveFailures
		if b.State != "closed" {
			t.Errorf("breaker %s is %s", b.Resource, b.State)
		}
	}
	if failures != 0 {
		t.Errorf("%d breaker failures counted for requests never sent", failures)
	}
	if _, err := c.API(ctxT(t), APIRequest{Path: "me", Header: http.Header{"X-Fine": {"a\tb c"}}}); err != nil {
		t.Fatalf("a good header after bad ones: %v", err)
	}
}

func TestValidateHeader(t *testing.T) {
	for _, ok := range [][2]string{{"X-A", "b"}, {"Accept", "application/json"}, {"X-Tab", "a\tb"}, {"X-Empty", ""}} {
		if err := ValidateHeader(ok[0], ok[1]); err != nil {
			t.Errorf("ValidateHeader(%q, %q) = %v", ok[0], ok[1], err)
		}
	}
	for _, bad := range [][2]string{{"X-A", "b\r\nc: d"}, {"X-A", "\x00"}, {"X-A", "\x1b[2J"}, {"", "x"}, {"A B", "x"},
		{"A:B", "x"}, {"authorization", "Bearer x"}, {"Idempotency-Key", "k"}, {"Host", "evil"}, {"X-\u00e9", "x"}} {
		if err := ValidateHeader(bad[0], bad[1]); err == nil {
			t.Errorf("ValidateHeader(%q, %q) accepted", bad[0], bad[1])
		}
	}
}

// Dot segments are refused on the client's raw path (every door), named
// as the path, and nothing is sent: "/api/../../landed" reached /landed
// with the key.
func TestAPIRefusesDotSegments(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) { replyJSON(w, 200, map[string]any{}) })
	c, _ := newTestClient(t, srv.URL)
	for _, p := range []string{"/api/../../landed", "/api/../../_local/stats", "playgrounds/../../x", "%2e%2e/x", "a/./b"} {
		for _, m := range []string{"GET", "POST", "DELETE"} {
			_, err := c.API(ctxT(t), APIRequest{Method: m, Path: p})
			e := mustError(t, err, CodeInvalidArgument)
			if e.Details["field"] != "path" {
				t.Errorf("%s %s: details %v, want field path", m, p, e.Details)
			}
		}
	}
	if n := rec.count(); n != 0 {
		t.Fatalf("%d requests sent: %+v", n, rec.all())
	}
}

// A null body is not a playground, and a body said to be JSON that is cut
// short is not an answer: both are INVALID_RESPONSE, not a card of zeros or
// a fragment.
func TestNullAndTruncatedBodiesAreInvalidResponses(t *testing.T) {
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/api/playgrounds/x" {
			_, _ = w.Write([]byte("null"))
			return
		}
		_, _ = w.Write([]byte(`{"data": [{"id": 1, "na`))
	})
	c, _ := newTestClient(t, srv.URL)
	_, _, err := c.Playgrounds.Get(ctxT(t), "x")
	mustError(t, err, CodeInvalidResponse)
	_, err = c.API(ctxT(t), APIRequest{Path: "playgrounds"})
	e := mustError(t, err, CodeInvalidResponse)
	if e.Status != 200 {
		t.Errorf("status %d", e.Status)
	}
}

// An API key with a line break (an SDK caller's, read from a file) would
// fail every attempt before it left, as a network error counted by the
// breaker: New refuses it, without quoting it.
func TestNewRefusesAKeyThatIsNotAHeaderValue(t *testing.T) {
	_, err := New(Options{BaseURL: "http://127.0.0.1:1", APIKey: "fibe_secret\n"})
	e := mustError(t, err, CodeInvalidArgument)
	if e.Details["field"] != "api_key" || strings.Contains(e.Message, "fibe_secret") {
		t.Fatalf("%+v", e)
	}
}
