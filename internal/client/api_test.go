package client

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/localapi"
)

func TestAPIPathRules(t *testing.T) {
	for in, want := range map[string]string{
		"playgrounds":              "/api/playgrounds",
		"/playgrounds":             "/api/playgrounds",
		"/api/playgrounds":         "/api/playgrounds",
		"api/playgrounds?page=2":   "/api/playgrounds?page=2",
		"agents/7/props":           "/api/agents/7/props",
		"/apiary":                  "/api/apiary",
		"playgrounds/a%2Fb/status": "/api/playgrounds/a%2Fb/status",
	} {
		if got, err := APIPath(in); err != nil || got != want {
			t.Errorf("APIPath(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "https://evil.example/api/x", "//evil.example/api", "http://127.0.0.1/api/x", "x#frag",
		"/api/../../landed", "../_local/stats", "playgrounds/./x", "playgrounds/%2e%2E/x", "a/%2E", `a\..\b`, "x/..?q=1"} {
		if got, err := APIPath(bad); err == nil {
			t.Errorf("APIPath(%q) = %q, want an error", bad, got)
		}
	}
}

// Bad requests are refused before anything is sent.
func TestAPIRefusesBadRequestsUnsent(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) { replyJSON(w, 200, map[string]any{}) })
	c, _ := newTestClient(t, srv.URL)
	for _, req := range []APIRequest{
		{Method: "GE T", Path: "x"},
		{Path: "https://other.example/api/x"},
		{Method: "POST", Path: "x", Body: json.RawMessage(`{"a":`)},
		{Path: "x", Header: http.Header{"Authorization": {"Bearer stolen"}}},
		{Method: "POST", Path: "x", Paginate: true},
		{Method: "POST", Path: "x", Mutation: MutationOptions{IdempotencyKey: "has space"}},
	} {
		if _, err := c.API(ctxT(t), req); err == nil {
			t.Errorf("%+v: no error", req)
		} else if e, _ := AsError(err); e == nil || e.Code != CodeInvalidArgument || e.Details["field"] == "" {
			t.Errorf("%+v: %v, want INVALID_ARGUMENT naming the field", req, err)
		}
	}
	if n := rec.count(); n != 0 {
		t.Fatalf("%d requests sent", n)
	}
}

// A mutation carries a key and extra headers, is retried with the same
// key, and a non-JSON answer comes back as sent.
func TestAPIMutationKeyHeadersAndRawAnswer(t *testing.T) {
	n := 0
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		n++
		if n == 1 {
			w.WriteHeader(503)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("plain answer\n"))
	})
	c, _ := newTestClient(t, srv.URL)
	resp, err := c.API(ctxT(t), APIRequest{Method: "put", Path: "agents/7", Body: json.RawMessage(`{"b": 1, "a": "x"}`),
		Header: http.Header{"X-Trace": {"t1"}}, Query: url.Values{"dry": {"1"}}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.JSON() || string(resp.Body) != "plain answer\n" || resp.Status != 200 || resp.ContentType != "text/plain" {
		t.Fatalf("answer %+v %q", resp, resp.Body)
	}
	all := rec.all()
	if len(all) != 2 {
		t.Fatalf("%d requests", len(all))
	}
	for _, s := range all {
		if s.Method != "PUT" || s.Path != "/api/agents/7?dry=1" || s.Header.Get("X-Trace") != "t1" ||
			s.Header.Get("Idempotency-Key") == "" || s.Header.Get("Idempotency-Key") != all[0].Header.Get("Idempotency-Key") ||
			s.Body != `{"b":1,"a":"x"}` {
			t.Fatalf("request %+v", s)
		}
	}
}

// --paginate follows page until the total (an envelope) or a short or
// empty page (an array), and returns one array.
func TestAPIPaginate(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		if strings.HasSuffix(r.URL.Path, "/arr") {
			items := []int{}
			if page <= 2 {
				items = []int{page*10 + 1, page*10 + 2}
			}
			replyJSON(w, 200, items)
			return
		}
		replyJSON(w, 200, map[string]any{"data": []any{map[string]any{"n": page}}, "meta": map[string]any{"page": page, "per_page": 1, "total": 3}})
	})
	c, _ := newTestClient(t, srv.URL)
	resp, err := c.API(ctxT(t), APIRequest{Path: "things", Paginate: true, Query: url.Values{"status": {"x"}}})
	if err != nil || string(resp.Body) != `[{"n":1},{"n":2},{"n":3}]` {
		t.Fatalf("%s %v", resp.Body, err)
	}
	resp, err = c.API(ctxT(t), APIRequest{Path: "arr", Paginate: true})
	if err != nil || string(resp.Body) != `[11,12,21,22]` {
		t.Fatalf("%s %v", resp.Body, err)
	}
	if got := rec.all(); len(got) != 6 || !strings.Contains(got[0].Path, "status=x") {
		t.Fatalf("requests %+v", got)
	}
}

// Against the emulator: a 202 is waited on and gives the operation's
// result; a route the emulator lacks is RESOURCE_NOT_FOUND; a mutation is
// journaled like any other.
func TestAPIAgainstTheEmulator(t *testing.T) {
	s, url := emulator(t, localapi.Config{})
	c := emulatorClient(t, url, func(o *Options) { o.StateDir, o.JournalWindow = t.TempDir(), time.Minute })
	resp, err := c.API(ctxT(t), APIRequest{Path: "playgrounds", Body: json.RawMessage(`{"playground":{"name":"api-1","playspec_id":"web","marquee_id":"local"}}`)})
	if err != nil || resp.Status != 201 {
		t.Fatalf("create: %v %+v", err, resp)
	}
	resp, err = c.API(ctxT(t), APIRequest{Method: "POST", Path: "/api/playgrounds/api-1/operations", Body: json.RawMessage(`{"action_type":"rollout"}`)})
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Status string `json:"status"`
	}
	if json.Unmarshal(resp.Body, &st) != nil || st.Status != "running" || resp.Meta.Accepted == nil {
		t.Fatalf("rollout result %s %+v", resp.Body, resp.Meta)
	}
	_, err = c.API(ctxT(t), APIRequest{Path: "nothing_served_here"})
	if e := mustError(t, err, CodeNotFound); e.Status != 404 {
		t.Fatalf("%+v", e)
	}
	if s.Stats().Creates["api-1"] != 1 {
		t.Fatal("create not applied once")
	}
	if list, _ := c.Journal().List(); len(list) != 0 {
		t.Fatalf("journal after definitive answers: %+v", list)
	}
}
