package localapi

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// call is one request, independent of how it arrived (socket or in-process).
type call struct {
	ctx      context.Context
	method   string
	path     string // escaped path
	query    url.Values
	rawQuery string
	header   http.Header
	body     []byte
	tooLarge bool
	scheme   string
	host     string
}

// after says what happens to a reply once the state is saved.
type after int

const (
	afterAnswer after = iota // write the reply
	afterReset               // close the connection without answering
	afterHang                // answer only after hang, if the client still waits
)

// outcome is the result of handling a call.
type outcome struct {
	reply *reply
	after after
	hang  time.Duration
	err   error // the caller went away before anything happened
}

// reqCtx is what a handler sees: the locked state and the parsed request.
type reqCtx struct {
	s      *Server
	st     *state
	c      *call
	now    time.Time
	rid    string
	params []string
	body   map[string]any // the JSON object sent, nil when the body was empty

	injectPanic bool // chaos asked this request's handler to panic
}

func (rc *reqCtx) param(i int) string { return rc.params[i] }

// handle runs the whole pipeline: latency, then under the state lock
// settle, rate limit, auth, routing, chaos, body checks, idempotency, the
// handler, the commit-then-* faults and the counters.
func (s *Server) handle(c *call) *outcome {
	rid := newID("req_")
	rt, params, pathKnown := s.rt.match(c.method, c.path)
	local := strings.HasPrefix(c.path, "/_local/")

	var rolls chaosRolls
	if !local {
		var latency time.Duration
		rolls, latency = s.roll()
		if latency > 0 {
			if err := s.wait(c.ctx, latency); err != nil && err != errServerClosed {
				return &outcome{err: err}
			}
		}
	}

	out := &outcome{}
	err := s.store.update(s.now(), func(st *state) bool {
		now := s.now()
		s.adoptChaos(st)
		st.settle(now)

		label := c.method + " (unmatched)"
		if rt != nil {
			label = rt.label()
		}
		key := bearerKey(c.header)
		rl := st.rateLimit(bucketOf(key), now, s.cfg.RateLimit, s.cfg.RateWindow, !local)

		switch {
		case rl.exceeded:
			out.reply = rateLimited(rl, now)
		case !s.validKey(key):
			out.reply = unauthorized(key)
		case rt == nil && pathKnown:
			out.reply = errReply(http.StatusMethodNotAllowed, codeBadRequest, "method "+c.method+" not allowed here", nil)
		case rt == nil:
			out.reply = errReply(http.StatusNotFound, codeNotFound, "no such endpoint", nil)
		default:
			rc := &reqCtx{s: s, st: st, c: c, now: now, rid: rid, params: params}
			s.dispatch(rc, rt, rolls, out)
		}

		status := "reset"
		if out.reply != nil {
			rl.setHeaders(out.reply.header)
			out.reply.header.Set("X-Request-Id", rid)
			if out.after != afterReset {
				status = strconv.Itoa(out.reply.status)
			}
		}
		st.Stats.countRequest(label, status)
		return true
	})
	s.syncCable()
	if err != nil {
		s.cfg.Logf("localapi: %v", err)
		r := errReply(http.StatusInternalServerError, codeInternal, "the emulator could not access its state", nil)
		r.header.Set("X-Request-Id", rid)
		return &outcome{reply: r}
	}
	return out
}

// dispatch runs an authenticated, routed request.
func (s *Server) dispatch(rc *reqCtx, rt *route, rolls chaosRolls, out *outcome) {
	st, c := rc.st, rc.c
	plan := s.currentChaos()
	api := rt.api()

	if api {
		if mq, ok := plan.outageAt(rc.now, rc.requestMarquee(rt)); ok {
			st.Stats.Faults["outage"]++
			if rolls.outageReset {
				out.after = afterReset
				out.reply = newReply(0)
				return
			}
			out.reply = errReply(http.StatusServiceUnavailable, codeInternal,
				"marquee "+mq+" is unavailable", map[string]any{"marquee": mq})
			out.reply.header.Set("Retry-After", "1")
			return
		}
		if f := plan.preFault(rolls.fault); f != "" {
			st.Stats.Faults[f]++
			if f == faultReset {
				out.after = afterReset
				out.reply = newReply(0)
				return
			}
			if f != faultPanic {
				out.reply = faultReply(f)
				return
			}
			rc.injectPanic = true
		}
	}

	if r := rc.parseBody(); r != nil {
		out.reply = r
		return
	}

	idem := ""
	if api && rt.mutation() {
		idem = c.header.Get("Idempotency-Key")
	}
	var fingerprint, idemSlot string
	if idem != "" {
		if !validIdempotencyKey(idem) {
			out.reply = badRequest("Idempotency-Key must be 1 to 255 printable ASCII characters without spaces")
			return
		}
		fingerprint = requestFingerprint(c)
		idemSlot = bucketOf(bearerKey(c.header)) + " " + idem
		if r := st.lookupIdempotent(idemSlot, fingerprint, rc.now); r != nil {
			out.reply = r
			return
		}
	}

	out.reply = s.safeCall(rc, rt)

	ok := out.reply.status >= 200 && out.reply.status < 300
	if api && rt.mutation() && ok {
		st.Stats.Mutations++
	}
	var commit string
	if api && rt.mutation() {
		commit = plan.commitFault(rolls.fault)
	}
	hangUntil := time.Time{}
	if commit == faultCommitHang {
		out.after, out.hang = afterHang, plan.hangFor
		hangUntil = rc.now.Add(plan.hangFor)
	}
	if idem != "" && ok {
		st.storeIdempotent(idemSlot, fingerprint, out.reply, rc.now, hangUntil)
	}
	switch commit {
	case "":
		return
	case faultCommit502:
		out.reply = htmlReply(http.StatusBadGateway)
	case faultCommitReset:
		out.after = afterReset
	}
	st.Stats.Faults[commit]++
}

// safeCall runs a handler; a panic becomes a 500 envelope and a log line.
func (s *Server) safeCall(rc *reqCtx, rt *route) (rep *reply) {
	defer func() {
		if v := recover(); v != nil {
			s.cfg.Logf("localapi: panic serving %s (request %s): %v", rt.label(), rc.rid, v)
			rep = errReply(http.StatusInternalServerError, codeInternal, "internal error", nil)
		}
	}()
	if rc.injectPanic {
		panic("injected fault: panic")
	}
	return rt.h(rc)
}
