package localapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fibegg/fibe/internal/webhook"
)

// The sender of webhook deliveries (docs/api.md, "Webhooks"). It runs
// beside the request handlers, never under the state lock while it
// waits on a receiver: it claims the deliveries that are due (a lease, so
// that another process sharing the state file does not post them too),
// posts each from its own goroutine, and records the attempt. A receiver
// that does not answer, or answers anything but 2xx, is tried again after
// 1 s, 4 s and 16 s (divided by the emulator's speed); after the fourth
// failed attempt the delivery is failed.

// deliveryBackoff is the wait before each retry of a delivery.
var deliveryBackoff = []time.Duration{1 * time.Second, 4 * time.Second, 16 * time.Second}

const (
	// deliveryTimeout bounds one attempt, from dialing to the end of the
	// receiver's answer.
	deliveryTimeout = 10 * time.Second
	// deliveryLease is how long a claimed delivery is left to the sender
	// that claimed it; past it (that process died) another may post it.
	deliveryLease = deliveryTimeout + 5*time.Second
	// maxInFlight bounds the deliveries posted at once by one emulator.
	maxInFlight = 16
	// maxAnswerRead is how much of a receiver's answer is read (and
	// thrown away) so that its connection can be reused.
	maxAnswerRead = 64 << 10
)

// errNotLoopback refuses a receiver outside this machine.
var errNotLoopback = errors.New("the emulator delivers only to receivers on this machine (127.0.0.1, ::1, localhost)")

// webhookSender is the emulator's sender; it starts with the first
// delivery queued.
type webhookSender struct {
	once   sync.Once
	kick   chan struct{}
	slots  chan struct{}
	client *http.Client
	ctx    context.Context
	// after is the timer the loop waits on (a test's clock may replace it).
	after func(time.Duration) <-chan time.Time
}

// kickWebhooks wakes the sender (starting it the first time): deliveries
// are due.
func (s *Server) kickWebhooks() {
	h := &s.hooks
	h.once.Do(func() {
		h.kick = make(chan struct{}, 1)
		h.slots = make(chan struct{}, maxInFlight)
		h.client = deliveryClient()
		if h.after == nil {
			h.after = time.After
		}
		ctx, cancel := context.WithCancel(context.Background())
		h.ctx = ctx
		go func() {
			<-s.closed
			cancel()
		}()
		go s.sendLoop()
	})
	select {
	case h.kick <- struct{}{}:
	default:
	}
}

// deliveryClient posts deliveries: no proxy, no redirects followed (a 3xx
// is a failed attempt, as any other answer but 2xx), bounded in time, and
// connecting only to loopback addresses.
func deliveryClient() *http.Client {
	dialer := &net.Dialer{
		Timeout: deliveryTimeout,
		Control: func(_, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if err != nil {
				return err
			}
			if ip := net.ParseIP(host); ip == nil || !(ip.IsLoopback() || ip.IsUnspecified()) {
				return errNotLoopback
			}
			return nil
		},
	}
	return &http.Client{
		Timeout: deliveryTimeout,
		Transport: &http.Transport{
			Proxy:                 nil,
			DialContext:           dialer.DialContext,
			TLSHandshakeTimeout:   deliveryTimeout,
			ResponseHeaderTimeout: deliveryTimeout,
			MaxIdleConnsPerHost:   4,
			IdleConnTimeout:       30 * time.Second,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// loopbackURL reports whether raw names a receiver on this machine: a
// loopback (or unspecified) address, or localhost. Names are not resolved:
// the dialer checks the address it connects to as well.
func loopbackURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	host := strings.ToLower(u.Hostname())
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && (ip.IsLoopback() || ip.IsUnspecified())
}

// sendLoop claims what is due, posts it, and sleeps until the next retry
// or the next kick.
func (s *Server) sendLoop() {
	h := &s.hooks
	for {
		next := s.claimAndSend()
		var timer <-chan time.Time
		if !next.IsZero() {
			timer = h.after(max(next.Sub(s.now()), time.Millisecond))
		}
		select {
		case <-s.closed:
			return
		case <-h.kick:
		case <-timer:
		}
	}
}

// claim is what one attempt needs, copied out of the state.
type claim struct {
	id, endpoint int64
	url, secret  string
	event, key   string
	body         []byte
	attempt      int
}

// claimAndSend starts an attempt for every due delivery there is a slot
// for, and returns when the earliest delivery not started is due (zero:
// none is pending).
func (s *Server) claimAndSend() time.Time {
	h := &s.hooks
	var claims []claim
	var next time.Time
	now := s.now()
	err := s.store.update(now, func(st *state) change {
		dirty := unchanged
		for _, d := range st.WebhookDeliveries {
			if d.Status != deliveryPending {
				continue
			}
			due := d.NextAt
			if d.LeaseUntil.After(due) {
				due = d.LeaseUntil
			}
			if due.After(now) {
				if next.IsZero() || due.Before(next) {
					next = due
				}
				continue
			}
			if len(claims) >= cap(h.slots)-len(h.slots) {
				continue // every slot is taken; a finished attempt kicks the loop
			}
			e := findByID(st.WebhookEndpoints, d.Endpoint)
			if e == nil {
				d.Status, d.Error = deliveryFailed, "the endpoint was deleted"
				dirty = changedDurable
				continue
			}
			d.LeaseUntil = now.Add(deliveryLease)
			claims = append(claims, claim{id: d.ID, endpoint: e.ID, url: e.URL, secret: e.Secret,
				event: d.EventType, key: d.Key, body: []byte(d.Body), attempt: d.Attempt + 1})
			dirty = max(dirty, changedCheap) // a lease: lost in a crash, it is claimed again
		}
		return dirty
	})
	if err != nil {
		s.cfg.Logf("localapi: webhook sender: %v", err)
		return now.Add(time.Second)
	}
	for _, c := range claims {
		h.slots <- struct{}{}
		go func() {
			code, err := s.post(h.ctx, c)
			s.recordAttempt(c, code, err)
			<-h.slots
			s.kickWebhooks()
		}()
	}
	return next
}

// post makes one attempt: the receiver's status code, or why there was
// none.
func (s *Server) post(ctx context.Context, c claim) (int, error) {
	if !loopbackURL(c.url) {
		return 0, errNotLoopback
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(c.body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Fibe-Webhooks (fibe local emulator)")
	req.Header.Set(webhook.HeaderSignature, webhook.Sign(c.body, c.secret))
	req.Header.Set(webhook.HeaderEvent, c.event)
	req.Header.Set(webhook.HeaderDelivery, strconv.FormatInt(c.id, 10))
	req.Header.Set(webhook.HeaderIdempotency, c.key)
	req.Header.Set("X-Webhook-Attempt", strconv.Itoa(c.attempt))
	resp, err := s.hooks.client.Do(req)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxAnswerRead))
	resp.Body.Close()
	return resp.StatusCode, nil
}

// recordAttempt writes the outcome of an attempt into the delivery and
// its endpoint; a failed attempt with retries left is due again after
// its backoff.
func (s *Server) recordAttempt(c claim, code int, sendErr error) {
	now := s.now()
	err := s.store.update(now, func(st *state) change {
		d := findByID(st.WebhookDeliveries, c.id)
		if d == nil || d.Status != deliveryPending {
			return unchanged // the endpoint was deleted meanwhile
		}
		a := deliveryAttempt{At: now}
		if code != 0 {
			a.ResponseCode = &code
		}
		ok := sendErr == nil && code >= 200 && code < 300
		switch {
		case sendErr != nil:
			a.Error = attemptError(sendErr)
		case !ok:
			a.Error = "the receiver answered " + strconv.Itoa(code) + " " + http.StatusText(code)
		}
		d.Attempts = append(d.Attempts, a)
		d.Attempt = c.attempt
		d.ResponseCode, d.Error, d.LeaseUntil = a.ResponseCode, a.Error, time.Time{}
		e := findByID(st.WebhookEndpoints, d.Endpoint)
		switch {
		case ok:
			d.Status, d.DeliveredAt = deliveryDelivered, &now
			if e != nil {
				e.FailureCount = 0
			}
		case c.attempt <= len(deliveryBackoff) && !errors.Is(sendErr, errNotLoopback):
			d.NextAt = now.Add(s.scaled(deliveryBackoff[c.attempt-1]))
		default:
			d.Status = deliveryFailed
			if e != nil {
				e.FailureCount++
			}
		}
		return changedDurable
	})
	if err != nil {
		s.cfg.Logf("localapi: webhook delivery %d: %v", c.id, err)
	}
}

// attemptError is one line saying why an attempt got no answer.
func attemptError(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	switch {
	case errors.Is(err, errNotLoopback):
		return errNotLoopback.Error()
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return fmt.Sprintf("no answer within %s", deliveryTimeout)
	case errors.Is(err, context.Canceled):
		return "the emulator stopped before the receiver answered"
	}
	return err.Error()
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
