package e2e

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/localapi"
)

// asyncHandle is the --json document of an operation not waited for.
type asyncHandle struct {
	RequestID string `json:"request_id"`
	Status    string `json:"status"`
	StatusURL string `json:"status_url"`
}

func (h asyncHandle) valid() bool {
	return strings.HasPrefix(h.RequestID, "req_") && h.Status != "" && strings.Contains(h.StatusURL, h.RequestID)
}

// answered counts the answers the emulator gave with status code for route.
func (w *world) answered(route, code string) int {
	return w.server.Stats().Requests[route][code]
}

// Deleting a playground with running containers is answered 202: the CLI
// waits for the teardown and only then reports the deletion.
func TestDeleteRunningPlaygroundWaits(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	for _, name := range []string{"gone-1", "gone-2"} {
		w.ok("pg", "create", "--name", name, "--playspec", "web")
		w.ok("pg", "wait", name, "--for", "running")
	}

	r := w.ok("pg", "delete", "gone-1", "--yes")
	mustContain(t, "delete", r.stdout, "Deleted playground gone-1")
	if n := w.answered("DELETE /api/playgrounds/{id}", "202"); n != 1 {
		t.Fatalf("the delete was answered 202 %d times, want 1", n)
	}
	if w.answered("GET /api/async_requests/{id}", "200") == 0 {
		t.Fatal("the CLI did not wait for the delete")
	}
	// It returned only once the playground was gone.
	if r := w.run("pg", "get", "gone-1"); r.code != 3 {
		t.Fatalf("get after delete: %s", r)
	}

	var doc struct {
		Deleted    bool   `json:"deleted"`
		Playground string `json:"playground"`
	}
	w.jsonOf(&doc, "pg", "delete", "gone-2", "--yes")
	if !doc.Deleted || doc.Playground != "gone-2" {
		t.Fatalf("delete --json: %+v", doc)
	}
	if r := w.run("pg", "get", "gone-2"); r.code != 3 {
		t.Fatalf("get after delete --json: %s", r)
	}

	// A stopped playground goes at once (204).
	w.ok("pg", "create", "--name", "idle", "--playspec", "web")
	w.ok("pg", "stop", "idle")
	mustContain(t, "delete stopped", w.ok("pg", "delete", "idle", "--yes").stdout, "Deleted playground idle")
	if n := w.answered("DELETE /api/playgrounds/{id}", "204"); n != 1 {
		t.Fatalf("the stopped playground's delete was answered 204 %d times, want 1", n)
	}
}

// With --no-wait the handle of the teardown is the output; ops wait on it
// sees the playground go.
func TestDeleteNoWaitPrintsHandle(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	w.ok("pg", "create", "--name", "later-gone", "--playspec", "web")
	w.ok("pg", "create", "--name", "later-gone-2", "--playspec", "web")

	var h asyncHandle
	w.jsonOf(&h, "pg", "delete", "later-gone", "--yes", "--no-wait")
	if !h.valid() || h.Status != "queued" {
		t.Fatalf("handle: %+v", h)
	}
	r := w.ok("pg", "delete", "later-gone-2", "--yes", "--no-wait")
	if strings.Contains(r.stdout, "Deleted") || !strings.Contains(r.stdout, "req_") {
		t.Fatalf("human --no-wait must show the handle, not claim the deletion:\n%s", r)
	}
	mustContain(t, "resume hint", r.stderr, "ops wait req_")

	var done struct {
		Name    string `json:"name"`
		Deleted bool   `json:"deleted"`
	}
	w.jsonOf(&done, "ops", "wait", h.RequestID)
	if !done.Deleted || done.Name != "later-gone" {
		t.Fatalf("ops wait result: %+v", done)
	}
	if r := w.run("pg", "get", "later-gone"); r.code != 3 {
		t.Fatalf("get after the teardown: %s", r)
	}
}

// Against a server that creates in the background, pg create waits and
// prints the playground, as it does for a 201.
func TestCreateAnsweredAsync(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{AsyncCreate: true})

	r := w.ok("pg", "create", "--name", "bg-1", "--playspec", "web", "--marquee", "prod-eu")
	mustContain(t, "create stdout", r.stdout, "bg-1", "prod-eu", "web")
	mustContain(t, "create stderr", r.stderr, "fibe pg rollout bg-1")
	if n := w.answered("POST /api/playgrounds", "202"); n != 1 {
		t.Fatalf("create answered 202 %d times, want 1", n)
	}

	var pg pgDoc
	w.jsonOf(&pg, "pg", "create", "--name", "bg-2", "--playspec", "web")
	if pg.ID == 0 || pg.Name != "bg-2" || pg.Status == "" {
		t.Fatalf("create --json: %+v", pg)
	}

	var h asyncHandle
	w.jsonOf(&h, "pg", "create", "--name", "bg-3", "--playspec", "web", "--no-wait")
	if !h.valid() {
		t.Fatalf("create --no-wait handle: %+v", h)
	}
	w.ok("ops", "wait", h.RequestID)
	w.jsonOf(&pg, "pg", "get", "bg-3")
	if pg.Name != "bg-3" {
		t.Fatalf("get after async create: %+v", pg)
	}
}

// The in-process emulator and `fibe local serve` take the same switch.
func TestAsyncCreateSwitches(t *testing.T) {
	t.Parallel()
	w := newUser(t)
	w.env["FIBE_LOCAL_SPEED"] = "20"
	w.env["FIBE_POLL_INTERVAL"] = "20ms"
	w.env["FIBE_LOCAL_ASYNC_CREATE"] = "1"
	var h asyncHandle
	w.jsonOf(&h, "--api-url", "local", "pg", "create", "--name", "inproc", "--playspec", "web", "--no-wait")
	if !h.valid() {
		t.Fatalf("FIBE_LOCAL_ASYNC_CREATE=1: %+v", h)
	}
	var pg pgDoc
	w.jsonOf(&pg, "--api-url", "local", "pg", "create", "--name", "inproc-2", "--playspec", "web")
	if pg.Name != "inproc-2" || pg.ID == 0 {
		t.Fatalf("create waited: %+v", pg)
	}
	w.env["FIBE_LOCAL_ASYNC_CREATE"] = "maybe"
	if r := w.run("--api-url", "local", "pg", "list"); r.code != 2 || !strings.Contains(r.stderr, "FIBE_LOCAL_ASYNC_CREATE") {
		t.Fatalf("bad FIBE_LOCAL_ASYNC_CREATE: %s", r)
	}

	srv := newUser(t)
	p := srv.start("local", "serve", "--addr", "127.0.0.1:0", "--speed", "50", "--async-create")
	exportRE := regexp.MustCompile(`export FIBE_API_URL=(\S+) FIBE_API_KEY=(\S+)`)
	p.waitFor(t, 10*time.Second, "the export line", func(stdout, _ string) bool { return exportRE.MatchString(stdout) })
	stdout, _ := p.output()
	m := exportRE.FindStringSubmatch(stdout)
	c := newUser(t)
	c.env["FIBE_API_URL"], c.env["FIBE_API_KEY"], c.env["FIBE_POLL_INTERVAL"] = m[1], m[2], "20ms"
	h = asyncHandle{}
	c.jsonOf(&h, "pg", "create", "--name", "served", "--playspec", "web", "--no-wait")
	if !h.valid() {
		t.Fatalf("serve --async-create: %+v", h)
	}
	mustContain(t, "create via served API", c.ok("pg", "create", "--name", "served-2", "--playspec", "web").stdout, "served-2")
	_ = p.cmd.Process.Signal(interrupt)
	if r := p.wait(t, 10*time.Second); r.code != 0 {
		t.Errorf("serve after SIGINT: %s", r)
	}
}
