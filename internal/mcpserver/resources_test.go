package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/localapi"
)

// Reading a resource is the --json document; one that names nothing is
// resource-not-found; resources/list lists playgrounds and marquees.
func TestResourcesReadAndList(t *testing.T) {
	w := newWorld(t, localapi.Config{})
	w.createPG("res-1", "web", "local")
	res, err := w.cs.ReadResource(ctxT(t), &mcp.ReadResourceParams{URI: "fibe://playgrounds/res-1"})
	if err != nil {
		t.Fatal(err)
	}
	var p client.Playground
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &p); err != nil || p.Name != "res-1" || res.Contents[0].MIMEType != "application/json" {
		t.Fatalf("read: %v %+v", err, res.Contents[0])
	}
	if _, err := w.cs.ReadResource(ctxT(t), &mcp.ReadResourceParams{URI: "fibe://marquees/local"}); err != nil {
		t.Fatal(err)
	}
	handle := map[string]any{}
	w.ok("fibe_playgrounds_action", map[string]any{"playground": "res-1", "action": "hard_restart", "wait": false}, &handle)
	op, err := w.cs.ReadResource(ctxT(t), &mcp.ReadResourceParams{URI: "fibe://operations/" + handle["request_id"].(string)})
	if err != nil || !strings.Contains(op.Contents[0].Text, `"status"`) {
		t.Fatalf("operation: %v %+v", err, op)
	}
	for _, uri := range []string{"fibe://playgrounds/nope", "fibe://marquees/nope", "fibe://operations/req_nope", "fibe://playgrounds/", "fibe://elsewhere/x"} {
		_, err := w.cs.ReadResource(ctxT(t), &mcp.ReadResourceParams{URI: uri})
		if err == nil || !strings.Contains(strings.ToLower(err.Error()), "not found") {
			t.Errorf("%s: %v, want resource not found", uri, err)
		}
	}
	list, err := w.cs.ListResources(ctxT(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	uris := map[string]bool{}
	for _, r := range list.Resources {
		uris[r.URI] = true
	}
	if !uris["fibe://playgrounds/res-1"] || !uris["fibe://marquees/local"] {
		t.Fatalf("resources/list: %v", uris)
	}
	tmpls, err := w.cs.ListResourceTemplates(ctxT(t), nil)
	if err != nil || len(tmpls.ResourceTemplates) != 3 {
		t.Fatalf("templates: %v %+v", err, tmpls)
	}
}

// Two sessions subscribed to one playground share one poller; each status
// change is announced once; the poller stops when the last unsubscribes.
func TestResourceSubscriptionSharesOnePoller(t *testing.T) {
	var mu sync.Mutex
	updates := map[string][]string{}
	record := func(who string) *mcp.ClientOptions {
		return &mcp.ClientOptions{ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
			mu.Lock()
			updates[who] = append(updates[who], r.Params.URI)
			mu.Unlock()
		}}
	}
	got := func(who string) int {
		mu.Lock()
		defer mu.Unlock()
		return len(updates[who])
	}
	const every = 20 * time.Millisecond
	w := newWorldClient(t, localapi.Config{Speed: 0.05}, record("a"), func(c *Config, _ *client.Options) { c.ResourcePoll = every })
	w.ok("fibe_playgrounds_create", map[string]any{"name": "sub-1", "playspec": "web", "marquee": "local", "wait": false}, nil)
	w.advance(time.Hour)
	w.ok("fibe_playgrounds_wait", map[string]any{"playground": "sub-1"}, nil)

	// A second session on the same server.
	st, ct := mcp.NewInMemoryTransports()
	ss, err := w.server.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs2, err := mcp.NewClient(&mcp.Implementation{Name: "second", Version: "1"}, record("b")).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs2.Close() })

	const uri = "fibe://playgrounds/sub-1"
	polls := func() int { return w.reqs.count("GET", "/api/playgrounds/sub-1/status") }
	for _, cs := range []*mcp.ClientSession{w.cs, cs2} {
		if err := cs.Subscribe(ctxT(t), &mcp.SubscribeParams{URI: uri}); err != nil {
			t.Fatal(err)
		}
	}
	// Nothing changes: polls, no update.
	start := polls()
	waitFor(t, 10*time.Second, func() bool { return polls() >= start+5 })
	if n := got("a"); n != 0 {
		t.Fatalf("%d updates while nothing changed", n)
	}
	// One poller, not two: about one poll per interval.
	began, p0 := time.Now(), polls()
	time.Sleep(10 * every)
	if n, want := polls()-p0, int(time.Since(began)/every)+2; n > want {
		t.Fatalf("%d polls in %s at one per %s: more than one poller", n, time.Since(began), every)
	}

	// A stop: the status changes (running → stopped, perhaps through
	// stopping); both sessions hear it, and nothing more once it is still.
	w.ok("fibe_playgrounds_stop", map[string]any{"playground": "sub-1", "confirm": true, "wait": false}, nil)
	w.advance(time.Hour)
	w.ok("fibe_playgrounds_wait", map[string]any{"playground": "sub-1", "for": "stopped"}, nil)
	waitFor(t, 10*time.Second, func() bool { return got("a") >= 1 && got("b") >= 1 })
	p1 := polls()
	waitFor(t, 10*time.Second, func() bool { return polls() >= p1+5 })
	n := got("a")
	p2 := polls()
	waitFor(t, 10*time.Second, func() bool { return polls() >= p2+5 })
	if got("a") != n || n > 2 || got("b") != n {
		t.Fatalf("updates a=%d then %d, b=%d for one stop (at most running → stopping → stopped): %v", n, got("a"), got("b"), updates)
	}

	// The poller lives while one subscriber is left, and stops with the last.
	if err := w.cs.Unsubscribe(ctxT(t), &mcp.UnsubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	p3 := polls()
	waitFor(t, 10*time.Second, func() bool { return polls() >= p3+3 })
	if err := cs2.Unsubscribe(ctxT(t), &mcp.UnsubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	// The poller stops: no status request after a few intervals.
	time.Sleep(3 * every)
	after := polls()
	time.Sleep(10 * every)
	if n := polls(); n != after {
		t.Fatalf("%d polls after the last unsubscribe", n-after)
	}

	// A session that ends takes its subscriptions with it.
	if err := cs2.Subscribe(ctxT(t), &mcp.SubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	p4 := polls()
	waitFor(t, 10*time.Second, func() bool { return polls() >= p4+3 })
	_ = cs2.Close()
	last, quietSince := -1, time.Now()
	waitFor(t, 10*time.Second, func() bool {
		if n := polls(); n != last {
			last, quietSince = n, time.Now()
		}
		return time.Since(quietSince) > 10*every
	})
}

// Only playgrounds can be subscribed to; one that does not exist is not found.
func TestResourceSubscribeRefusesWhatItCannotWatch(t *testing.T) {
	w := newWorld(t, localapi.Config{})
	// The 2025-06-18 revision answers resources/subscribe itself (newer
	// ones subscribe on a background listen stream).
	cs := w.legacySession(nil)
	for _, uri := range []string{"fibe://playgrounds/nope", "fibe://marquees/local", "fibe://nothing"} {
		if err := cs.Subscribe(ctxT(t), &mcp.SubscribeParams{URI: uri}); err == nil {
			t.Errorf("subscribe %s succeeded", uri)
		}
	}
}
