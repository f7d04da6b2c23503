package e2e

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/localapi"
)

// A user's whole webhook loop with the real binary: create an endpoint
// (the secret printed once), queue a test delivery, receive it on
// 127.0.0.1, save the request, and verify it with fibe webhooks verify:
// exit 0 as it came, 1 once a byte changed, 2 for bad input.
func TestCLIWebhooksDeliverAndVerify(t *testing.T) {
	w := newWorld(t, localapi.Config{})
	got := make(chan []byte, 4)
	rcv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		dump, err := httputil.DumpRequest(r, true)
		if err != nil {
			t.Error(err)
		}
		got <- dump
	}))
	defer rcv.Close()

	var ep struct {
		ID     int64    `json:"id"`
		Secret string   `json:"secret"`
		Events []string `json:"events"`
	}
	w.jsonOf(&ep, "webhooks", "create", "--url", rcv.URL+"/hook", "--event", "playground.created", "--event", "marquee.created")
	if ep.Secret == "" || len(ep.Events) != 2 {
		t.Fatalf("created %+v", ep)
	}
	id := strconv.FormatInt(ep.ID, 10)
	if r := w.run("webhooks", "get", id); r.code != 0 || strings.Contains(r.stdout, ep.Secret) {
		t.Fatalf("get shows the secret or failed: %s", r)
	}
	mustContain(t, "test", w.ok("webhooks", "test", id).stdout, "queued")

	var saved []byte
	select {
	case saved = <-got:
	case <-time.After(15 * time.Second):
		t.Fatal("no delivery within 15 s")
	}
	dir := t.TempDir()
	req := filepath.Join(dir, "request.http")
	if err := os.WriteFile(req, saved, 0o600); err != nil {
		t.Fatal(err)
	}
	w.env["HOOK_SECRET"] = ep.Secret
	r := w.ok("webhooks", "verify", "--secret-env", "HOOK_SECRET", req)
	mustContain(t, "verify", r.stdout, "Signature valid", "webhook.test")

	head, body, _ := strings.Cut(string(saved), "\r\n\r\n")
	tampered := head + "\r\n\r\n" + strings.Replace(body, "webhook.test", "webhook.tesT", 1)
	if r := w.runIn(tampered, "webhooks", "verify", "--secret-env", "HOOK_SECRET", "-"); r.code != 1 {
		t.Errorf("tampered payload: %s", r)
	}
	for _, args := range [][]string{
		{"webhooks", "verify", req},                                     // no --secret-env
		{"webhooks", "verify", "--secret-env", "NOT_SET_ANYWHERE", req}, // empty variable
		{"webhooks", "verify", "--secret-env", "HOOK_SECRET", "--signature", "abc", req},
		{"webhooks", "verify", "--secret-env", "HOOK_SECRET", filepath.Join(dir, "missing")},
	} {
		if r := w.run(args...); r.code != 2 || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
			t.Errorf("%v: want exit 2 and one line: %s", args, r)
		}
	}

	var ds []struct {
		Status    string `json:"status"`
		EventType string `json:"event_type"`
		Attempt   int    `json:"attempt"`
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		w.jsonOf(&ds, "webhooks", "deliveries", id)
		if len(ds) == 1 && ds[0].Status == "delivered" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("deliveries %+v", ds)
		}
		time.Sleep(20 * time.Millisecond)
	}
	var logs []struct {
		Action string `json:"action"`
	}
	w.jsonOf(&logs, "audit-logs", "list", "--resource-type", "WebhookEndpoint")
	if len(logs) != 1 || logs[0].Action != "webhook_endpoint.created" {
		t.Errorf("audit logs %+v", logs)
	}
	// Neither an entry nor an endpoint has a name: --name is not a flag of
	// their lists (a usage error, one line naming it).
	for _, args := range [][]string{{"audit-logs", "list", "--name", "x"}, {"webhooks", "list", "--name", "x"}} {
		r := w.run(args...)
		if line := strings.TrimSpace(r.stderr); r.code != 2 || strings.Contains(line, "\n") || !strings.Contains(line, "--name") {
			t.Errorf("fibe %s: %s", strings.Join(args, " "), r)
		}
	}
	if r := w.run("webhooks", "create", "--url", rcv.URL); r.code != 2 {
		t.Errorf("create without --event: %s", r)
	}
	if r := w.run("webhooks", "deliveries", id, "--status", "lost"); r.code != 2 {
		t.Errorf("--status lost: %s", r)
	}
}
