package localapi

import (
	"context"
	"fmt"
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
	key    *apiKey        // the key the request was made with
	player int64          // the key's player: whose world the request sees

	injectPanic bool // chaos asked this request's handler to panic
}

func (rc *reqCtx) param(i int) string { return rc.params[i] }

// exchange is one call on its way through the pipeline: what was matched
// and rolled before the state lock, and what the steps under it decide.
type exchange struct {
	s         *Server
	c         *call
	rid       string
	local     bool // a /_local control: no chaos, no rate-limit charge
	rt        *route
	params    []string
	pathKnown bool // no route, but the path exists for another method
	rolls     chaosRolls

	rc       *reqCtx
	rate     rateStatus
	plan     *chaosPlan
	mutation bool // an API mutation: idempotency and commit faults apply
	// idemSlot and fingerprint identify a mutation sent with an
	// Idempotency-Key; idemSlot is "" without one.
	idemSlot    string
	fingerprint string
	out         *outcome
}

// handle runs one call: its chaos rolls and injected latency, then, with
// the state locked, serve.
func (s *Server) handle(c *call) *outcome {
	x := &exchange{s: s, c: c, rid: newID("req_"), local: strings.HasPrefix(c.path, "/_local/"), out: &outcome{}}
	x.rt, x.params, x.pathKnown = s.rt.match(c.method, c.path)
	if !x.local {
		var latency time.Duration
		x.rolls, latency = s.roll()
		if err := s.wait(c.ctx, latency); err != nil && err != errServerClosed {
			return &outcome{err: err}
		}
	}
	err := s.store.update(s.now(), func(st *state) change {
		x.serve(st)
		if c.method == http.MethodGet || c.method == http.MethodHead {
			return changedCheap // a read: its counters, and what it settled
		}
		return changedDurable
	})
	s.syncCable()
	if err != nil {
		s.cfg.Logf("localapi: %v", err)
		r := s.errorReply(newAPIError(http.StatusInternalServerError, codeInternal, "the emulator could not access its state", nil), x.rid)
		r.header.Set("X-Request-Id", x.rid)
		return &outcome{reply: r}
	}
	return x.out
}

// serve brings the state up to date, then admits the request, dispatches
// it and records the answer.
func (x *exchange) serve(st *state) {
	now := x.s.now()
	x.s.adoptChaos(st)
	st.settle(now)
	x.s.seedPlayers(st, now)
	x.rc = &reqCtx{s: x.s, st: st, c: x.c, now: now, rid: x.rid, params: x.params}
	x.rc.flushWorldEvents() // what settle saw happen (auditlogs.go)
	x.rate = st.rateLimit(bucketOf(bearerKey(x.c.header)), now, x.s.cfg.RateLimit, x.s.cfg.RateWindow, !x.local)
	if err := x.admit(); err != nil {
		x.out.reply = x.s.errorReply(err, x.rid)
	} else {
		x.dispatch()
	}
	x.record()
}

// admit lets a request through to its route: within the rate limit, with
// a live key, to an endpoint that exists for its method, with the scope
// the route needs (checked before the body is read or anything looked up,
// as the platform does).
func (x *exchange) admit() error {
	token := bearerKey(x.c.header)
	x.rc.key = x.rc.st.keyOf(token, x.rc.now)
	if x.rc.key != nil {
		x.rc.player = x.rc.key.Player
	}
	switch {
	case x.rate.exceeded:
		return rateLimited(x.rate, x.rc.now)
	case x.rc.key == nil:
		return unauthorized(token)
	case x.rt == nil && x.pathKnown:
		return newAPIError(http.StatusMethodNotAllowed, codeBadRequest, "method "+x.c.method+" not allowed here", nil)
	case x.rt == nil:
		return newAPIError(http.StatusNotFound, codeNotFound, "no such endpoint", nil)
	case !x.rc.key.allows(x.rt.scope):
		return forbidden(x.rt.scope)
	}
	return nil
}

// dispatch runs an admitted request through its steps. A step before the
// handler may answer in its place, which ends the request; after the
// handler, a mutation is counted and remembered for its Idempotency-Key,
// and a commit fault may lose its answer.
func (x *exchange) dispatch() {
	x.plan = x.s.currentChaos()
	x.mutation = x.rt.api() && x.rt.mutation()
	for _, step := range []func() (*reply, error){
		x.outage,    // a marquee inside an outage window
		x.preFault,  // an injected error instead of the answer
		x.parseBody, // size, content type and a JSON object
		x.replay,    // an Idempotency-Key seen before
	} {
		rep, err := step()
		if err != nil {
			rep = x.s.errorReply(err, x.rid)
		}
		if rep != nil {
			x.out.reply = rep
			return
		}
	}
	x.handler()
	if x.mutation {
		fault := x.plan.commitFault(x.rolls.fault)
		x.countMutation()
		x.remember(fault)
		x.commitFault(fault)
	}
}

// drop answers by closing the connection.
func (x *exchange) drop() *reply {
	x.out.after = afterReset
	return newReply(0)
}

// outage answers 503 for an API request about a marquee inside an outage
// window, or drops it when this request's roll says so.
func (x *exchange) outage() (*reply, error) {
	if !x.rt.api() {
		return nil, nil
	}
	mq, ok := x.plan.outageAt(x.rc.now, x.rc.requestMarquee(x.rt))
	if !ok {
		return nil, nil
	}
	x.rc.st.Stats.Faults["outage"]++
	if x.rolls.outageReset {
		return x.drop(), nil
	}
	return nil, newAPIError(http.StatusServiceUnavailable, codeInternal, "marquee "+mq+" is unavailable",
		map[string]any{"marquee": mq}).withHeader("Retry-After", "1")
}

// preFault answers an API request with the injected fault of its roll, if
// any; an injected panic is left for the handler.
func (x *exchange) preFault() (*reply, error) {
	if !x.rt.api() {
		return nil, nil
	}
	f := x.plan.preFault(x.rolls.fault)
	if f == "" {
		return nil, nil
	}
	x.rc.st.Stats.Faults[f]++
	switch f {
	case faultReset:
		return x.drop(), nil
	case faultPanic:
		x.rc.injectPanic = true
		return nil, nil
	}
	return faultAnswer(f)
}

func (x *exchange) parseBody() (*reply, error) { return nil, x.rc.parseBody() }

// replay answers a mutation whose Idempotency-Key was seen before: the
// stored answer, or a 409 when the key is reused or still in flight.
func (x *exchange) replay() (*reply, error) {
	key := ""
	if x.mutation {
		key = x.c.header.Get("Idempotency-Key")
	}
	if key == "" {
		return nil, nil
	}
	if !validIdempotencyKey(key) {
		return nil, badRequest("Idempotency-Key must be 1 to 255 printable ASCII characters without spaces")
	}
	x.fingerprint = requestFingerprint(x.c)
	x.idemSlot = bucketOf(bearerKey(x.c.header)) + " " + key
	return x.rc.st.lookupIdempotent(x.idemSlot, x.fingerprint, x.rc.now)
}

// handler runs the route's handler; its error becomes the answer.
func (x *exchange) handler() {
	rep, err := x.s.safeCall(x.rc, x.rt)
	if err != nil {
		rep = x.s.errorReply(err, x.rid)
	}
	x.out.reply = rep
}

func (x *exchange) succeeded() bool {
	return x.out.reply.status >= 200 && x.out.reply.status < 300
}

// countMutation counts a mutation that was carried out.
func (x *exchange) countMutation() {
	if x.succeeded() {
		x.rc.st.Stats.Mutations++
	}
}

// remember keeps a successful answer under its Idempotency-Key; a commit
// hang leaves the key in flight until the answer would arrive.
func (x *exchange) remember(fault string) {
	if x.idemSlot == "" || !x.succeeded() {
		return
	}
	var inFlightUntil time.Time
	if fault == faultCommitHang {
		inFlightUntil = x.rc.now.Add(x.plan.hangFor)
	}
	x.rc.st.storeIdempotent(x.idemSlot, x.fingerprint, x.out.reply, x.rc.now, inFlightUntil)
}

// commitFault loses the answer of a mutation that was carried out (or
// refused) as the fault says: a proxy's 502, a dropped connection, or an
// answer that comes only after a hang.
func (x *exchange) commitFault(fault string) {
	switch fault {
	case "":
		return
	case faultCommit502:
		x.out.reply = htmlReply(http.StatusBadGateway)
	case faultCommitReset:
		x.out.after = afterReset
	case faultCommitHang:
		x.out.after, x.out.hang = afterHang, x.plan.hangFor
	}
	x.rc.st.Stats.Faults[fault]++
}

// record finishes the answer with the rate-limit headers and the request
// id, and counts it under its route ("reset" for a dropped connection).
func (x *exchange) record() {
	label := x.c.method + " (unmatched)"
	if x.rt != nil {
		label = x.rt.label()
	}
	status := "reset"
	if rep := x.out.reply; rep != nil {
		x.rate.setHeaders(rep.header)
		rep.header.Set("X-Request-Id", x.rid)
		if x.out.after != afterReset {
			status = strconv.Itoa(rep.status)
		}
	}
	x.rc.st.Stats.countRequest(label, status)
}

// safeCall runs a handler; a panic becomes a 500 envelope and a log line.
func (s *Server) safeCall(rc *reqCtx, rt *route) (rep *reply, err error) {
	defer func() {
		if v := recover(); v != nil {
			s.cfg.Logf("localapi: panic serving %s (request %s): %v", rt.label(), rc.rid, v)
			rep, err = nil, errInternal
		}
	}()
	if rc.injectPanic {
		panic("injected fault: panic")
	}
	rep, err = rt.h(rc)
	if rep == nil && err == nil {
		err = fmt.Errorf("%s gave no answer", rt.label())
	}
	return rep, err
}
