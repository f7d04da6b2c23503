package stream

import (
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/localapi/cable"
	"github.com/fibegg/fibe/internal/reliability/reliabilitytest"
)

// A handshake answered 503 with Retry-After is retried after exactly that
// wait, as any HTTP answer would be, not after a jittered backoff.
func TestHandshakeRetryAfterIsHonoured(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	a.retryAfter = "1"
	a.cable503.Store(1)
	clock := reliabilitytest.NewClock(time.Now())
	c, trace := a.client(streamKey, func(o *client.Options) {
		o.Clock = clock
		o.Policy.BaseDelay, o.Policy.MaxDelay = 0, 0 // the contract's: jitter would be below 500ms
	})
	lines, err := follow(t, c, FollowOptions{}, atLeast(5))
	if !errors.Is(err, errEnough) {
		t.Fatalf("err = %v", err)
	}
	assertContiguous(t, lines, lines[0].Seq)
	if got := clock.Sleeps(); len(got) != 1 || got[0] != time.Second {
		t.Fatalf("slept %v before reconnecting, want exactly [1s] (the Retry-After)", got)
	}
	if a.cable503Sent.Load() != 1 || !strings.Contains(trace.String(), "503 Service Unavailable; Retry-After") {
		t.Fatalf("%d 503s; trace:\n%s", a.cable503Sent.Load(), trace.String())
	}
}

// A dropped connection is a failed attempt of the stream's budget: the
// reconnect's handshakes get the rest of it (3 retries in all, not 3 more
// than a fresh request), each counted by the marquee's breaker.
func TestReconnectAfterADropSharesTheBudget(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{ping: time.Second})
	c, _ := a.client(streamKey)
	lines, err := follow(t, c, FollowOptions{}, func(l []LogLine) bool {
		if len(l) == 5 {
			a.cable503.Store(-1)
			a.cable.SetFaults(cable.Faults{DropRate: 1})
		}
		return false
	})
	e := mustCode(t, err, client.CodeInternal)
	if e.Status != 503 || !e.Retryable || e.Resource != "marquee/prod-eu" {
		t.Fatalf("error %+v", e)
	}
	if len(lines) < 5 {
		t.Fatalf("%d lines before the drop", len(lines))
	}
	if n := a.cable503Sent.Load(); n != 3 {
		t.Fatalf("%d handshakes after the drop, want 3 (the drop was the first attempt of 4)", n)
	}
	if n := a.cableURLCalls.Load(); n != 2 {
		t.Fatalf("%d cable URL fetches, want 2 (one per connect)", n)
	}
	if n := failuresOf(t, c, "marquee/prod-eu"); n != 3 {
		t.Fatalf("%d failures on marquee/prod-eu, want 3", n)
	}
}

// A cable URL on another origin (127.0.0.2) is dialled with its token only:
// the API key goes neither in a header nor in a subprotocol, unless the
// host is trusted.
func TestCableURLOnAnotherOriginGetsNoAPIKey(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	other, rec := serveOn(t, "127.0.0.2", func(w http.ResponseWriter, r *http.Request, s seen) { a.cable.ServeHTTP(w, r) })
	a.cableHost = strings.TrimPrefix(other.URL, "http://")
	encodedKey := base64.RawURLEncoding.EncodeToString([]byte(streamKey))

	c, _ := a.client(streamKey)
	if _, err := follow(t, c, FollowOptions{}, atLeast(3)); !errors.Is(err, errEnough) {
		t.Fatalf("err = %v", err)
	}
	reqs := rec.all()
	if len(reqs) != 1 {
		t.Fatalf("127.0.0.2 saw %d handshakes, want 1", len(reqs))
	}
	for name, vals := range reqs[0].Header {
		for _, v := range vals {
			if strings.Contains(v, streamKey) || strings.Contains(v, encodedKey) || strings.Contains(v, client.CableKeyProtocol) {
				t.Fatalf("the API key reached 127.0.0.2 in %s: %q", name, v)
			}
		}
	}
	if strings.Contains(reqs[0].Path, streamKey) {
		t.Fatal("the API key reached 127.0.0.2 in the URL")
	}

	trusted, _ := a.client(streamKey, func(o *client.Options) { o.TrustedHosts = []string{"127.0.0.2"} })
	if _, err := follow(t, trusted, FollowOptions{}, atLeast(3)); !errors.Is(err, errEnough) {
		t.Fatalf("err = %v", err)
	}
	if got := rec.all()[1].Header.Get("Authorization"); got != "Bearer "+streamKey {
		t.Fatalf("trusted host got Authorization %q", got)
	}
}
