package reliability

import (
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/sony/gobreaker/v2"
)

// Breakers are the circuit breakers of one API host, one per resource
// ("marquee/<name>", or "api/<host>" for requests about no marquee).
//
// They follow sony/gobreaker's state machine and keep its SharedState as the
// record, but run each transition as one atomic transition of the Store
// (a locked read-modify-write of a file, or a Lua script in Redis) instead
// of gobreaker's DistributedCircuitBreaker.Execute, which holds the store's
// lock for the whole request and would serialise every process talking to
// one marquee. An attempt is at most two quick transitions: Allow before it
// is sent (admission, counted so half-open admits at most BreakerProbes
// across processes) and Ticket.Done after it (the outcome). The network
// call runs between them with no lock held.
//
// The common case, a closed breaker with no failures, writes nothing: a
// closed breaker admits without recording the admission, and a success or
// an ignored answer changes nothing that matters while it stays closed. Both
// are decided on a plain read of the record (BreakerGet); only failures and
// the open/half-open states take a transition. A read is linearised at the
// moment it is taken, which is as good as having taken the lock then.
type Breakers struct {
	store Store
	key   string
	p     Policy
	clock Clock

	// OnStateChange, when set, is told about every transition this process makes.
	OnStateChange func(resource string, from, to gobreaker.State)
	// OnStoreError, when set, is told when the store fails; the breaker then
	// fails open (admits) rather than blocking the user.
	OnStoreError func(error)
}

// NewBreakers returns the breakers of host kept in store.
func NewBreakers(store Store, host string, p Policy, clock Clock) *Breakers {
	if clock == nil {
		clock = SystemClock()
	}
	return &Breakers{store: store, key: BreakersKey(host), p: p.WithDefaults(), clock: clock}
}

// BreakersKey is the store record of host's breakers.
func BreakersKey(host string) string { return "breakers-" + host }

// Params are the numbers the store's breaker transitions need.
func (b *Breakers) Params() BreakerParams {
	return BreakerParams{
		Threshold:   b.p.BreakerThreshold,
		Probes:      b.p.BreakerProbes,
		Successes:   b.p.BreakerSuccesses,
		OpenTimeout: b.p.BreakerOpenTimeout,
		ProbeLease:  b.probeLease(),
	}
}

// readyToTrip is the contract's trip rule: threshold consecutive failures
// open the breaker. (gobreaker's default is "more than 5", one too many.)
func readyToTrip(threshold int) func(gobreaker.Counts) bool {
	return func(c gobreaker.Counts) bool { return c.ConsecutiveFailures >= uint32(threshold) }
}

// OpenError is returned by Allow when nothing may be sent.
type OpenError struct {
	Resource string
	State    gobreaker.State // open, or half-open with every probe slot taken
	Until    time.Time
	RetryIn  time.Duration
}

func (e *OpenError) Error() string {
	if e.State == gobreaker.StateHalfOpen {
		return fmt.Sprintf("circuit breaker half-open for %s — probe requests in flight (retry in %s)", e.Resource, formatRetryIn(e.RetryIn))
	}
	return fmt.Sprintf("circuit breaker open for %s — too many recent failures (retry in %s)", e.Resource, formatRetryIn(e.RetryIn))
}

// Unwrap gives gobreaker's sentinel for the state.
func (e *OpenError) Unwrap() error {
	if e.State == gobreaker.StateHalfOpen {
		return gobreaker.ErrTooManyRequests
	}
	return gobreaker.ErrOpenState
}

// formatRetryIn renders a wait as whole seconds, rounded up ("23s").
func formatRetryIn(d time.Duration) string {
	if d <= 0 {
		return "0s"
	}
	return fmt.Sprintf("%ds", int64((d+time.Second-1)/time.Second))
}

// Ticket is one admitted attempt; report its outcome with Done exactly once.
type Ticket struct {
	b          *Breakers
	resource   string
	generation uint64
	noop       bool
	clean      bool // admitted closed with no failures
}

// BreakerStatus is one breaker as `fibe breaker status` shows it.
type BreakerStatus struct {
	Resource            string
	State               gobreaker.State
	ConsecutiveFailures int
	OpenUntil           time.Time // zero unless open
}

type breakerFile map[string]*gobreaker.SharedState

// Allow asks to send one attempt about resource. It returns *OpenError when
// the breaker is open or half-open with every probe slot taken.
func (b *Breakers) Allow(resource string) (*Ticket, error) {
	if r, ok := b.peek(resource); ok && r.State == gobreaker.StateClosed {
		return &Ticket{b: b, resource: resource, generation: r.Generation, clean: r.Counts.ConsecutiveFailures == 0}, nil
	}
	now := b.clock.Now()
	a, err := b.store.BreakerAdmit(b.key, resource, b.Params(), now)
	b.notify(resource, a.Moves)
	if err != nil {
		b.storeError(err)
		return &Ticket{b: b, resource: resource, noop: true}, nil
	}
	if !a.Allowed {
		r := a.Record
		// Half-open, Expiry is the probes' lease: by then they reported or
		// a new round starts.
		return nil, &OpenError{Resource: resource, State: r.State, Until: r.Expiry, RetryIn: r.Expiry.Sub(now)}
	}
	return &Ticket{b: b, resource: resource, generation: a.Record.Generation}, nil
}

// Done records the attempt's outcome and returns the breaker's state after it.
func (t *Ticket) Done(o Outcome) gobreaker.State {
	if t == nil || t.noop {
		return gobreaker.StateClosed
	}
	b := t.b
	if t.quiet(o) {
		return gobreaker.StateClosed
	}
	out, err := b.store.BreakerRecord(b.key, t.resource, t.generation, o, b.Params(), b.clock.Now())
	b.notify(t.resource, out.Moves)
	if err != nil {
		b.storeError(err)
		return gobreaker.StateClosed
	}
	return out.State
}

// quiet reports whether outcome o changes nothing worth writing: the breaker
// is closed and o is not a failure that counts (a success that has no
// failure run to reset, an ignored answer, or an outcome of an older
// generation).
func (t *Ticket) quiet(o Outcome) bool {
	if t.clean && (o == Ignored || o == Success && sharedByFleet(t.b.store)) {
		// Ignored changes nothing in this generation, and nothing at all in a
		// later one. A success could end a failure run that other processes
		// recorded since the admission; on a fleet store that read costs a
		// round trip, so such a run is left to go on (the breaker may open
		// one success early, never late).
		return true
	}
	r, ok := t.b.peek(t.resource)
	if !ok || r.State != gobreaker.StateClosed {
		return false
	}
	stale := r.Generation != t.generation
	switch o {
	case Ignored:
		return true
	case Success:
		return stale || r.Counts.ConsecutiveFailures == 0
	default:
		return stale
	}
}

// peek reads the record of resource without changing it. ok is false when
// the store cannot be read (the transition then decides and reports the
// error).
func (b *Breakers) peek(resource string) (gobreaker.SharedState, bool) {
	r, err := b.store.BreakerGet(b.key, resource)
	return r, err == nil
}

// Status returns the state of one resource without changing it.
func (b *Breakers) Status(resource string) BreakerStatus {
	all, _ := b.List()
	for _, s := range all {
		if s.Resource == resource {
			return s
		}
	}
	return BreakerStatus{Resource: resource, State: gobreaker.StateClosed}
}

// List returns every breaker this host has a record of, sorted by resource.
func (b *Breakers) List() ([]BreakerStatus, error) {
	f, err := b.store.BreakerList(b.key)
	if err != nil {
		return nil, err
	}
	now := b.clock.Now()
	p := b.Params()
	out := make([]BreakerStatus, 0, len(f))
	for res, r := range f {
		advanceBreaker(&r, p, now)
		s := BreakerStatus{Resource: res, State: r.State, ConsecutiveFailures: int(r.Counts.ConsecutiveFailures)}
		if r.State == gobreaker.StateOpen {
			s.OpenUntil = r.Expiry
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Resource < out[j].Resource })
	return out, nil
}

// Reset closes the breaker of resource, or every breaker when resource is "".
func (b *Breakers) Reset(resource string) error { return b.store.BreakerReset(b.key, resource) }

// Key is the store record of these breakers.
func (b *Breakers) Key() string { return b.key }

func (b *Breakers) probeLease() time.Duration { return 2 * b.p.AttemptTimeout }

// decodeBreakers reads the state file; a corrupt or foreign file reads as
// "every breaker closed", which is the safe side for a user.
func decodeBreakers(data []byte) breakerFile {
	f := breakerFile{}
	if len(data) == 0 {
		return f
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return breakerFile{}
	}
	for k, r := range f {
		if r == nil || r.State < gobreaker.StateClosed || r.State > gobreaker.StateOpen {
			delete(f, k)
		}
	}
	return f
}

func freshBreaker() gobreaker.SharedState {
	return gobreaker.SharedState{State: gobreaker.StateClosed, Generation: 1}
}

func breakerRecord(f breakerFile, resource string) *gobreaker.SharedState {
	r := f[resource]
	if r == nil {
		fresh := freshBreaker()
		r = &fresh
		f[resource] = r
	}
	return r
}

// The transitions below are the breaker's state machine on one record.
// LocalStore runs them under its lock; the Redis store runs the same steps
// in Lua (keep both in step: the tests of internal/statestore run one table
// of cases against both stores).

// admitBreaker admits one attempt or denies it. Half-open, an admission
// takes a probe slot and (re)starts its lease.
func admitBreaker(r *gobreaker.SharedState, p BreakerParams, now time.Time) (bool, []BreakerMove) {
	moves := advanceBreaker(r, p, now)
	switch r.State {
	case gobreaker.StateOpen:
		return false, moves
	case gobreaker.StateHalfOpen:
		if validRequests(r.Counts) >= uint32(p.Probes) {
			return false, moves
		}
		r.Expiry = now.Add(p.ProbeLease)
	}
	r.Counts.Requests++
	return true, moves
}

// recordBreaker counts the outcome of an attempt admitted in generation.
func recordBreaker(r *gobreaker.SharedState, generation uint64, o Outcome, p BreakerParams, now time.Time) []BreakerMove {
	moves := advanceBreaker(r, p, now)
	if r.Generation != generation {
		return moves // the breaker moved on since this attempt was admitted
	}
	switch o {
	case Ignored:
		r.Counts.TotalExclusions++
	case Success:
		r.Counts.TotalSuccesses++
		r.Counts.ConsecutiveSuccesses++
		r.Counts.ConsecutiveFailures = 0
		if r.State == gobreaker.StateHalfOpen && r.Counts.ConsecutiveSuccesses >= uint32(p.Successes) {
			moves = append(moves, setBreakerState(r, gobreaker.StateClosed, p, now))
		}
	case Failure:
		r.Counts.TotalFailures++
		r.Counts.ConsecutiveFailures++
		r.Counts.ConsecutiveSuccesses = 0
		switch r.State {
		case gobreaker.StateClosed:
			if readyToTrip(p.Threshold)(r.Counts) {
				moves = append(moves, setBreakerState(r, gobreaker.StateOpen, p, now))
			}
		case gobreaker.StateHalfOpen:
			moves = append(moves, setBreakerState(r, gobreaker.StateOpen, p, now))
		}
	}
	return moves
}

// advanceBreaker applies the time-driven transitions: open → half-open once
// the open time has passed, and a fresh half-open round when probes admitted
// earlier never reported (their process died) and the lease ran out.
func advanceBreaker(r *gobreaker.SharedState, p BreakerParams, now time.Time) []BreakerMove {
	clampBreaker(r, p, now)
	switch r.State {
	case gobreaker.StateOpen:
		if !now.Before(r.Expiry) {
			return []BreakerMove{setBreakerState(r, gobreaker.StateHalfOpen, p, now)}
		}
	case gobreaker.StateHalfOpen:
		if validRequests(r.Counts) > 0 && now.After(r.Expiry) {
			newBreakerGeneration(r, p, now)
		}
	}
	return nil
}

// clampBreaker brings an expiry that lies beyond one open window (or one
// probe lease) from now back to it: a clock that jumped back, a machine of
// the fleet whose clock runs ahead, or a hand-edited record cannot hold a
// breaker open for years.
func clampBreaker(r *gobreaker.SharedState, p BreakerParams, now time.Time) {
	var most time.Duration
	switch r.State {
	case gobreaker.StateOpen:
		most = p.OpenTimeout
	case gobreaker.StateHalfOpen:
		most = p.ProbeLease
	default:
		return
	}
	if r.Expiry.After(now.Add(most)) {
		r.Expiry = now.Add(most)
	}
}

func setBreakerState(r *gobreaker.SharedState, to gobreaker.State, p BreakerParams, now time.Time) BreakerMove {
	from := r.State
	r.State = to
	newBreakerGeneration(r, p, now)
	return BreakerMove{From: from, To: to}
}

func newBreakerGeneration(r *gobreaker.SharedState, p BreakerParams, now time.Time) {
	r.Generation++
	r.Counts = gobreaker.Counts{}
	r.Start = now
	switch r.State {
	case gobreaker.StateOpen:
		r.Expiry = now.Add(p.OpenTimeout)
	case gobreaker.StateHalfOpen:
		r.Expiry = now.Add(p.ProbeLease)
	default:
		r.Expiry = time.Time{}
	}
}

// validRequests mirrors gobreaker: admitted attempts that were not excluded
// (a 4xx frees its half-open slot; a success keeps it, as gobreaker closes
// after MaxRequests successes).
func validRequests(c gobreaker.Counts) uint32 {
	if c.Requests < c.TotalExclusions {
		return 0
	}
	return c.Requests - c.TotalExclusions
}

func (b *Breakers) notify(resource string, moves []BreakerMove) {
	if b.OnStateChange == nil {
		return
	}
	for _, m := range moves {
		if m.From != m.To {
			b.OnStateChange(resource, m.From, m.To)
		}
	}
}

func (b *Breakers) storeError(err error) {
	if b.OnStoreError != nil {
		b.OnStoreError(err)
	}
}
