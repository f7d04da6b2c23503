package fibetest_test

import (
	"context"
	"net"
	"net/url"
	"testing"
	"time"

	"github.com/fibegg/fibe/pkg/fibe"
	"github.com/fibegg/fibe/pkg/fibetest"
)

// Close releases a request a fault keeps hanging, and returns within a
// second.
func TestCloseReleasesHungRequests(t *testing.T) {
	srv := fibetest.NewServer(fibetest.WithChaos("commit-then-hang=1:30s"))
	c := srv.Client(fibe.WithPolicy(fibe.Policy{MaxRetries: fibe.NoRetries}))
	done := make(chan error, 1)
	go func() {
		_, _, err := c.Playgrounds.Create(context.Background(), &fibe.PlaygroundCreateParams{Name: "h", Playspec: "web", Marquee: "local"})
		done <- err
	}()
	deadline := time.Now().Add(5 * time.Second)
	for srv.Stats().Mutations == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the create never reached the server")
		}
		time.Sleep(5 * time.Millisecond)
	}
	start := time.Now()
	srv.Close()
	if took := time.Since(start); took > time.Second {
		t.Fatalf("Close took %s", took)
	}
	select {
	case err := <-done:
		if !fibe.IsOutcomeUnknown(err) {
			t.Fatalf("the hung create ended with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the hung create was not released")
	}
}

// The server listens on loopback; a bad option panics; Stats is a copy.
func TestServerBasics(t *testing.T) {
	srv := fibetest.NewServer(fibetest.WithAPIKey("fibe_test_key"), fibetest.WithKeepAlive())
	defer srv.Close()
	u, err := url.Parse(srv.URL)
	if err != nil || !net.ParseIP(u.Hostname()).IsLoopback() || srv.APIKey != "fibe_test_key" {
		t.Fatalf("URL %s, key %s", srv.URL, srv.APIKey)
	}
	if _, _, err := srv.Client().Me.Get(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := srv.Stats()
	st.Requests["GET /api/me"]["200"] = 99
	if srv.Stats().Requests["GET /api/me"]["200"] != 1 {
		t.Fatal("Stats is not a snapshot")
	}
	if err := srv.SetChaos("nonsense=2"); err == nil {
		t.Fatal("a bad chaos spec was taken")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a bad status URL style did not panic")
		}
	}()
	fibetest.NewServer(fibetest.WithStatusURL("sideways"))
}
