package localapi

import (
	"errors"
	"net/http"
	"strings"
	"testing"
)

// An error that is not an API error is a bug in the emulator: the client
// gets a 500 envelope with the request id, and the log says what failed.
func TestHandlerErrorThatIsNoAPIErrorIsLogged500(t *testing.T) {
	e := newEnv(t, Config{})
	e.srv.rt.add("GET", "/api/broken", "", func(*reqCtx) (*reply, error) {
		return nil, errors.New("disk on fire")
	})
	e.srv.rt.add("GET", "/api/silent", "", func(*reqCtx) (*reply, error) { return nil, nil })
	for _, path := range []string{"/api/broken", "/api/silent"} {
		r := e.do("GET", path, nil)
		expectStatus(t, r, http.StatusInternalServerError)
		if code := r.errCode(t); code != codeInternal {
			t.Fatalf("%s: code %q", path, code)
		}
		rid := r.header.Get("X-Request-Id")
		if rid == "" || r.header.Get("X-RateLimit-Limit") == "" {
			t.Fatalf("%s: headers %v", path, r.header)
		}
		if !strings.Contains(e.logs.joined(), rid) {
			t.Fatalf("%s: the log does not name request %s: %s", path, rid, e.logs.joined())
		}
	}
	if !strings.Contains(e.logs.joined(), "disk on fire") || !strings.Contains(e.logs.joined(), "gave no answer") {
		t.Fatalf("log: %s", e.logs.joined())
	}
	if st := e.srv.Stats(); st.Requests["GET /api/broken"]["500"] != 1 {
		t.Fatalf("requests %v", st.Requests)
	}
}

// An API error carries its headers into the answer, next to the ones every
// answer has.
func TestAPIErrorReplyCarriesItsHeaders(t *testing.T) {
	e := newEnv(t, Config{})
	e.srv.rt.add("POST", "/api/teapot", "", func(*reqCtx) (*reply, error) {
		return nil, newAPIError(http.StatusTeapot, codeConflict, "short and stout", map[string]any{"handle": 1}).
			withHeader("Retry-After", "7")
	})
	r := e.do("POST", "/api/teapot", nil)
	expectStatus(t, r, http.StatusTeapot)
	want := `{"error":{"code":"CONFLICT","message":"short and stout","details":{"handle":1}}}` + "\n"
	if string(r.body) != want {
		t.Fatalf("body %q, want %q", r.body, want)
	}
	if r.header.Get("Retry-After") != "7" || r.header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Fatalf("headers %v", r.header)
	}
	if st := e.srv.Stats(); st.Mutations != 0 {
		t.Fatalf("a refused request counted as a mutation: %+v", st)
	}
}
