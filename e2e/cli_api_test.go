package e2e

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fibegg/fibe/internal/localapi"
)

func apiRequests(w *world) int {
	n := 0
	for route, byStatus := range w.server.Stats().Requests {
		if strings.Contains(route, "/api/") {
			for _, c := range byStatus {
				n += c
			}
		}
	}
	return n
}

func TestCLIAPI(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	w.ok("pg", "create", "--name", "api-1", "--playspec", "web")
	w.ok("pg", "create", "--name", "api-2", "--playspec", "web")

	var names []string
	w.jsonOf(&names, "api", "playgrounds", "--paginate", "-F", "per_page=1", "--jq", "[.[].name]")
	if strings.Join(names, ",") != "api-2,api-1" { // newest first
		t.Fatalf("paginated names %v", names)
	}
	r := w.ok("api", "/api/playgrounds/api-1", "--jq", ".name")
	if r.stdout != "api-1\n" {
		t.Fatalf("%s", r)
	}
	// Fields make it a POST; a 202 is waited on and prints the result.
	var st struct {
		Status string `json:"status"`
	}
	r = w.jsonOf(&st, "api", "playgrounds/api-1/operations", "-f", "action_type=rollout")
	if st.Status != "running" {
		t.Fatalf("%s", r)
	}
	// --no-wait prints the handle.
	var h struct {
		RequestID string `json:"request_id"`
	}
	w.jsonOf(&h, "api", "-X", "post", "playgrounds/api-2/operations", "-f", "action_type=rollout", "--no-wait")
	if !strings.HasPrefix(h.RequestID, "req_") {
		t.Fatalf("handle %+v", h)
	}
	// --input sends a document; -F reads @file.
	dir := t.TempDir()
	body := filepath.Join(dir, "pg.json")
	if err := os.WriteFile(body, []byte(`{"playground": {"name": "api-3", "playspec_id": "web"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	r = w.ok("api", "playgrounds", "--input", body, "--jq", ".name")
	if r.stdout != "api-3\n" {
		t.Fatalf("%s", r)
	}
	name := filepath.Join(dir, "name.txt")
	if err := os.WriteFile(name, []byte("api-1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r = w.ok("api", "playgrounds", "-X", "GET", "-F", "name=@"+name, "--jq", ".data[].name")
	if r.stdout != "api-1\n" {
		t.Fatalf("%s", r)
	}
	// A route the emulator lacks is a 404 like the platform's: exit 3.
	expectExit(t, w, 3, "RESOURCE_NOT_FOUND", "api", "agents")
	// Errors keep their exit codes: 422 is 5.
	expectExit(t, w, 5, "VALIDATION_FAILED", "api", "playgrounds", "-F", "playground[name]=api-1", "-f", "playground[playspec_id]=web")
}

// Bad input: one line, exit 2, nothing sent.
func TestCLIAPIBadInput(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	before := apiRequests(w)
	for _, args := range [][]string{
		{"api", "playgrounds", "-f", "novalue"},
		{"api", "playgrounds", "-F", "=1"},
		{"api", "playgrounds", "-F", "x=@" + filepath.Join(t.TempDir(), "missing")},
		{"api", "-X", "GE T", "playgrounds"},
		{"api", "-X", "GET1", "playgrounds"},
		{"api", "https://other.example/api/playgrounds"},
		{"api", "//other.example/api/playgrounds"},
		{"api", "playgrounds", "--input", filepath.Join(t.TempDir(), "missing.json")},
		{"api", "playgrounds", "-H", "Authorization: Bearer x"},
		{"api", "playgrounds", "-H", "novalue"},
		{"api", "-X", "POST", "playgrounds", "--paginate"},
		{"api", "-X", "POST", "playgrounds", "--idempotency-key", "bad key"},
	} {
		r := expectExit(t, w, 2, "", args...)
		if strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 || strings.Contains(r.stderr, "goroutine") {
			t.Errorf("fibe %s: want one line:\n%s", strings.Join(args, " "), r.stderr)
		}
	}
	r := w.runIn("not json", "api", "playgrounds", "--input", "-")
	if r.code != 2 || !strings.Contains(r.stderr, "not a JSON document") {
		t.Fatalf("%s", r)
	}
	if after := apiRequests(w); after != before {
		t.Fatalf("bad input sent %d requests", after-before)
	}
}

// A non-JSON answer is printed as it came, exit 0.
func TestCLIAPIRawAnswer(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/csv")
		_, _ = rw.Write([]byte("name,status\nweb,running\n"))
	}))
	t.Cleanup(srv.Close)
	w := newUser(t)
	w.env["FIBE_API_URL"], w.env["FIBE_API_KEY"] = srv.URL, "fibe_test_key"
	r := w.ok("api", "reports/usage.csv")
	if r.stdout != "name,status\nweb,running\n" {
		t.Fatalf("%s", r)
	}
}
