package reliability

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/sony/gobreaker/v2"
)

// Breakers are the circuit breakers of one API host, one per resource
// ("marquee/<name>"; "playground/<ref>" or "marquee/<id>" while the
// marquee's name is unknown; "api/<host>" for requests about no marquee).
//
// They follow sony/gobreaker's state machine and keep its SharedState as the
// record, but run each transition as a short read-modify-write of the Store
// instead of gobreaker's DistributedCircuitBreaker.Execute, which holds the
// store's lock for the whole request and would serialise every process
// talking to one marquee. An attempt is at most two quick updates: Allow
// before it is sent (admission, counted so half-open admits at most
// BreakerProbes across processes) and Ticket.Done after it (the outcome).
// The network call runs between them with no lock held.
//
// The common case, a closed breaker with no failures, writes nothing: a
// closed breaker admits without recording the admission, and a success or
// an ignored answer changes nothing that matters while it stays closed. Both
// are decided on a plain read of the record (atomic replaces make that read
// consistent); only failures and the open/half-open states take the locked
// read-modify-write. A read is linearised at the moment it is taken, which
// is as good as having taken the lock then.
type Breakers struct {
	store Store
	key   string
	p     Policy
	clock Clock

	// The last record read and its decoding, reused while the bytes are the
	// same. The decoded map is shared and never modified.
	viewMu   sync.Mutex
	viewOK   bool
	viewData []byte
	view     breakerFile

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
	return &Breakers{store: store, key: "breakers-" + host, p: p.WithDefaults(), clock: clock}
}

// Settings returns the gobreaker settings equivalent to the policy, for
// callers that want an in-process gobreaker with the same semantics.
func (b *Breakers) Settings(resource string) gobreaker.Settings {
	return gobreaker.Settings{
		Name:        resource,
		MaxRequests: uint32(b.p.BreakerProbes),
		Timeout:     b.p.BreakerOpenTimeout,
		ReadyToTrip: ReadyToTrip(b.p.BreakerThreshold),
	}
}

// ReadyToTrip is the contract's trip rule: threshold consecutive failures
// open the breaker. (gobreaker's default is "more than 5", one too many.)
func ReadyToTrip(threshold int) func(gobreaker.Counts) bool {
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
		return fmt.Sprintf("circuit breaker half-open for %s — probe requests in flight (retry in %s)", e.Resource, FormatRetryIn(e.RetryIn))
	}
	return fmt.Sprintf("circuit breaker open for %s — too many recent failures (retry in %s)", e.Resource, FormatRetryIn(e.RetryIn))
}

// Unwrap gives gobreaker's sentinel for the state.
func (e *OpenError) Unwrap() error {
	if e.State == gobreaker.StateHalfOpen {
		return gobreaker.ErrTooManyRequests
	}
	return gobreaker.ErrOpenState
}

// FormatRetryIn renders a wait as whole seconds, rounded up ("23s").
func FormatRetryIn(d time.Duration) string {
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
}

// BreakerStatus is one breaker as `fibe breaker status` shows it.
type BreakerStatus struct {
	Resource            string
	State               gobreaker.State
	ConsecutiveFailures int
	OpenUntil           time.Time // zero unless open
}

type breakerFile map[string]*gobreaker.SharedState

type transition struct {
	resource string
	from, to gobreaker.State
}

// Allow asks to send one attempt about resource. It returns *OpenError when
// the breaker is open or half-open with every probe slot taken.
func (b *Breakers) Allow(resource string) (*Ticket, error) {
	if r, ok := b.peek(resource); ok && r.State == gobreaker.StateClosed {
		return &Ticket{b: b, resource: resource, generation: r.Generation}, nil
	}
	var (
		ticket *Ticket
		denied *OpenError
		moves  []transition
	)
	err := b.update(func(f breakerFile, now time.Time) {
		r := b.record(f, resource)
		moves = append(moves, b.advance(resource, r, now)...)
		switch r.State {
		case gobreaker.StateOpen:
			denied = &OpenError{Resource: resource, State: r.State, Until: r.Expiry, RetryIn: r.Expiry.Sub(now)}
			return
		case gobreaker.StateHalfOpen:
			if validRequests(r.Counts) >= uint32(b.p.BreakerProbes) {
				// The probes' lease: by then they reported or a new round starts.
				denied = &OpenError{Resource: resource, State: r.State, Until: r.Expiry, RetryIn: r.Expiry.Sub(now)}
				return
			}
			r.Expiry = now.Add(b.probeLease())
		}
		r.Counts.Requests++
		ticket = &Ticket{b: b, resource: resource, generation: r.Generation}
	})
	b.notify(moves)
	if err != nil {
		b.storeError(err)
		return &Ticket{b: b, resource: resource, noop: true}, nil
	}
	if denied != nil {
		return nil, denied
	}
	return ticket, nil
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
	state := gobreaker.StateClosed
	var moves []transition
	err := b.update(func(f breakerFile, now time.Time) {
		r := b.record(f, t.resource)
		moves = append(moves, b.advance(t.resource, r, now)...)
		defer func() { state = r.State }()
		if r.Generation != t.generation {
			return // the breaker moved on since this attempt was admitted
		}
		switch o {
		case Ignored:
			r.Counts.TotalExclusions++
		case Success:
			r.Counts.TotalSuccesses++
			r.Counts.ConsecutiveSuccesses++
			r.Counts.ConsecutiveFailures = 0
			if r.State == gobreaker.StateHalfOpen && r.Counts.ConsecutiveSuccesses >= uint32(b.p.BreakerSuccesses) {
				moves = append(moves, b.setState(t.resource, r, gobreaker.StateClosed, now))
			}
		case Failure:
			r.Counts.TotalFailures++
			r.Counts.ConsecutiveFailures++
			r.Counts.ConsecutiveSuccesses = 0
			switch r.State {
			case gobreaker.StateClosed:
				if ReadyToTrip(b.p.BreakerThreshold)(r.Counts) {
					moves = append(moves, b.setState(t.resource, r, gobreaker.StateOpen, now))
				}
			case gobreaker.StateHalfOpen:
				moves = append(moves, b.setState(t.resource, r, gobreaker.StateOpen, now))
			}
		}
	})
	b.notify(moves)
	if err != nil {
		b.storeError(err)
	}
	return state
}

// quiet reports whether outcome o changes nothing worth writing: the breaker
// is closed and o is not a failure that counts (a success that has no
// failure run to reset, an ignored answer, or an outcome of an older
// generation).
func (t *Ticket) quiet(o Outcome) bool {
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

// peek reads the record of resource without the lock; a resource with no
// record is a fresh closed breaker. ok is false when the store cannot be
// read (the locked path then decides and reports the error).
func (b *Breakers) peek(resource string) (gobreaker.SharedState, bool) {
	data, err := b.store.Load(b.key)
	if err != nil {
		return gobreaker.SharedState{}, false
	}
	b.viewMu.Lock()
	defer b.viewMu.Unlock()
	if !b.viewOK || !bytes.Equal(data, b.viewData) {
		b.view, b.viewData, b.viewOK = decodeBreakers(data), data, true
	}
	if r := b.view[resource]; r != nil {
		return *r, true
	}
	return gobreaker.SharedState{State: gobreaker.StateClosed, Generation: 1}, true
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
	data, err := b.store.Load(b.key)
	if err != nil {
		return nil, err
	}
	f := decodeBreakers(data)
	now := b.clock.Now()
	out := make([]BreakerStatus, 0, len(f))
	for res, r := range f {
		b.advance(res, r, now)
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
func (b *Breakers) Reset(resource string) error {
	if resource == "" {
		return b.store.Delete(b.key)
	}
	return b.update(func(f breakerFile, _ time.Time) { delete(f, resource) })
}

func (b *Breakers) probeLease() time.Duration { return 2 * b.p.AttemptTimeout }

func (b *Breakers) update(fn func(f breakerFile, now time.Time)) error {
	return b.store.Update(b.key, func(old []byte) ([]byte, error) {
		f := decodeBreakers(old)
		fn(f, b.clock.Now())
		return json.MarshalIndent(f, "", "  ")
	})
}

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

func (b *Breakers) record(f breakerFile, resource string) *gobreaker.SharedState {
	r := f[resource]
	if r == nil {
		r = &gobreaker.SharedState{State: gobreaker.StateClosed, Generation: 1}
		f[resource] = r
	}
	return r
}

// advance applies the time-driven transitions: open → half-open once the
// open time has passed, and a fresh half-open round when probes admitted
// earlier never reported (their process died) and the lease ran out.
func (b *Breakers) advance(resource string, r *gobreaker.SharedState, now time.Time) []transition {
	b.clamp(r, now)
	switch r.State {
	case gobreaker.StateOpen:
		if !now.Before(r.Expiry) {
			t := b.setState(resource, r, gobreaker.StateHalfOpen, now)
			return []transition{t}
		}
	case gobreaker.StateHalfOpen:
		if validRequests(r.Counts) > 0 && now.After(r.Expiry) {
			b.newGeneration(r, now)
		}
	}
	return nil
}

// clamp brings an expiry that lies beyond one open window (or one probe
// lease) from now back to it: a clock that jumped back or a hand-edited
// file cannot hold a breaker open for years.
func (b *Breakers) clamp(r *gobreaker.SharedState, now time.Time) {
	var most time.Duration
	switch r.State {
	case gobreaker.StateOpen:
		most = b.p.BreakerOpenTimeout
	case gobreaker.StateHalfOpen:
		most = b.probeLease()
	default:
		return
	}
	if r.Expiry.After(now.Add(most)) {
		r.Expiry = now.Add(most)
	}
}

func (b *Breakers) setState(resource string, r *gobreaker.SharedState, to gobreaker.State, now time.Time) transition {
	from := r.State
	r.State = to
	b.newGeneration(r, now)
	return transition{resource: resource, from: from, to: to}
}

func (b *Breakers) newGeneration(r *gobreaker.SharedState, now time.Time) {
	r.Generation++
	r.Counts = gobreaker.Counts{}
	r.Start = now
	switch r.State {
	case gobreaker.StateOpen:
		r.Expiry = now.Add(b.p.BreakerOpenTimeout)
	case gobreaker.StateHalfOpen:
		r.Expiry = now.Add(b.probeLease())
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

func (b *Breakers) notify(moves []transition) {
	if b.OnStateChange == nil {
		return
	}
	for _, m := range moves {
		if m.from != m.to {
			b.OnStateChange(m.resource, m.from, m.to)
		}
	}
}

func (b *Breakers) storeError(err error) {
	if b.OnStoreError != nil {
		b.OnStoreError(err)
	}
}
