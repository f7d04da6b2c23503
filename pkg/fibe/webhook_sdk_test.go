package fibe_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fibegg/fibe/pkg/fibe"
	"github.com/fibegg/fibe/pkg/fibetest"
)

// The SDK end to end: an endpoint created on the emulator, a test
// delivery, the receiver verifying it with fibe.VerifyWebhookRequest, and the
// delivery recorded as delivered; the audit log has the endpoint's
// creation.
func TestWebhooksThroughTheEmulator(t *testing.T) {
	got := make(chan *fibe.WebhookPayload, 4)
	var secret atomic.Value
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := fibe.VerifyWebhookRequest(r, secret.Load().(string), fibe.WebhookTolerance)
		if err != nil {
			t.Errorf("verify: %v", err)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		got <- p
	}))
	defer rcv.Close()
	srv := fibetest.NewServer(fibetest.WithSpeed(50))
	defer srv.Close()
	c, err := fibe.NewClient(fibe.WithBaseURL(srv.URL), fibe.WithAPIKey(srv.APIKey))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()

	ep, _, err := c.Webhooks.Create(ctx, &fibe.WebhookCreateParams{URL: rcv.URL + "/hook", Event: []string{"playground.created"}})
	if err != nil {
		t.Fatal(err)
	}
	if ep.Secret == "" || len(ep.Events) != 1 || !ep.Enabled {
		t.Fatalf("created %+v", ep)
	}
	secret.Store(ep.Secret)
	ref := strconv.FormatInt(ep.ID, 10)
	if _, _, err := c.Webhooks.Test(ctx, ref); err != nil {
		t.Fatal(err)
	}
	select {
	case p := <-got:
		if p.Event != "webhook.test" || p.IdempotencyKey == "" {
			t.Errorf("payload %+v", p)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no delivery within 10 s")
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		ds, _, err := c.Webhooks.Deliveries(ctx, ref, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(ds) == 1 && ds[0].Status == "delivered" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("deliveries %+v", ds)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if off, _, err := c.Webhooks.SetEnabled(ctx, ref, false); err != nil || off.Enabled {
		t.Fatalf("SetEnabled(false) = %+v, %v", off, err)
	}
	logs, _, err := c.AuditLogs.List(ctx, &fibe.AuditLogListOptions{ResourceType: "WebhookEndpoint"})
	if err != nil || len(logs) != 2 || logs[0].Action != "webhook_endpoint.updated" {
		t.Fatalf("audit logs %+v, %v", logs, err)
	}
	types, _, err := c.Webhooks.EventTypes(ctx)
	if err != nil || len(types) == 0 {
		t.Fatalf("event types %v, %v", types, err)
	}
}
