package client

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/reliability"
)

// realClient runs on the real clock: cancellation must cut real waits short.
func realClient(t *testing.T, url string, onEvent func(Event)) *Client {
	c, err := New(Options{BaseURL: url, APIKey: testKey, OnEvent: onEvent,
		Policy: reliability.Policy{PollInterval: time.Hour, PollTimeout: 2 * time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// "At once" on a loaded machine: well under the waits being interrupted.
const promptly = 3 * time.Second

func TestCancelMidBackoffCarriesTheKey(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		w.Header().Set("Retry-After", "30")
		apiError(w, 503, "INTERNAL_ERROR", "busy", nil)
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := realClient(t, srv.URL, func(e Event) {
		if e.Kind == EventRetry {
			cancel() // during the 30s Retry-After wait
		}
	})
	start := time.Now()
	_, meta, err := c.Playgrounds.Extend(ctx, "pg", 1, MutationOptions{IdempotencyKey: "ci-7"})
	e := mustError(t, err, CodeCancelled)
	if time.Since(start) > promptly || rec.count() != 1 || meta != nil {
		t.Fatalf("took %s, %d requests", time.Since(start), rec.count())
	}
	if e.IdempotencyKey != "ci-7" || !strings.Contains(e.Message, "ci-7") || strings.Contains(e.Message, "--") || !IsCancelled(err) {
		t.Fatalf("%+v", e)
	}
}

func TestCancelMidRequest(t *testing.T) {
	arrived := make(chan struct{}, 1)
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		arrived <- struct{}{}
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	c := realClient(t, srv.URL, nil)
	go func() { <-arrived; cancel() }()
	start := time.Now()
	_, _, err := c.Marquees.Update(ctx, "prod-eu", map[string]any{"port": 22}, MutationOptions{})
	e := mustError(t, err, CodeCancelled)
	if time.Since(start) > promptly || len(e.IdempotencyKey) != 32 {
		t.Fatalf("took %s, %+v", time.Since(start), e)
	}
}

func TestCancelMidPollCarriesTheRequestID(t *testing.T) {
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		if r.Method == http.MethodPost {
			replyJSON(w, 202, map[string]any{"request_id": "req_c", "status": "queued"})
			return
		}
		replyJSON(w, 200, map[string]any{"status": "running"})
	})
	ctx, cancel := context.WithCancel(context.Background())
	c := realClient(t, srv.URL, func(e Event) {
		if e.Kind == EventPoll {
			cancel() // during the hour-long poll interval
		}
	})
	start := time.Now()
	_, _, err := c.Marquees.TestConnection(ctx, "prod-eu", MutationOptions{}, WaitOptions{})
	e := mustError(t, err, CodeCancelled)
	if time.Since(start) > promptly || e.RequestID != "req_c" || e.Resume == nil || e.Resume.WaitRequestID != "req_c" || strings.Contains(e.Message, "fibe ") || e.IdempotencyKey == "" {
		t.Fatalf("took %s, %+v", time.Since(start), e)
	}
}
