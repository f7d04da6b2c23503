package cable

import (
	"context"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// Protocol is the ActionCable subprotocol the server negotiates.
const Protocol = "actioncable-v1-json"

// KeyProtocolPrefix prefixes the subprotocol that carries an API key
// (base64url, unpadded) for clients that cannot set headers.
const KeyProtocolPrefix = "fibe-api-key."

// Defaults for the zero values of Config.
const (
	DefaultLineInterval = 200 * time.Millisecond
	DefaultPingInterval = 3 * time.Second
	DefaultBacklog      = 20
	// Retention is how many past lines a playground can replay; older
	// lines are gone, as on a real log buffer.
	Retention = 10000
)

// Config wires the server to the emulator's state.
type Config struct {
	// ValidKey reports whether an API key (from the fibe-api-key.
	// subprotocol or an Authorization: Bearer header) is accepted.
	ValidKey func(key string) bool
	// ValidToken reports whether a ?token= from /api/cable_url is accepted.
	ValidToken func(token string) bool
	// Lookup resolves a playground id or name to its id and service names.
	Lookup func(playgroundRef string) (id int64, services []string, ok bool)
	// Status, when set, tells a playground's status: a terminal opens only
	// on a running playground.
	Status func(playgroundRef string) string
	// LineInterval is the steady rate of each playground's log (0 → 200ms).
	LineInterval time.Duration
	// PingInterval is the time between ping frames (0 → 3s).
	PingInterval time.Duration
	// Backlog is how many lines a playground already has when it is first
	// streamed, so tail has something to replay (0 → 20, negative → none).
	Backlog int
	// Seed seeds the fault dice.
	Seed int64
	// Now is the clock the log generator reads (nil → time.Now).
	Now func() time.Time
	// Logf receives one line per notable event (nil → discard).
	Logf func(format string, args ...any)
}

// Server is the /cable endpoint. It is safe for concurrent use.
type Server struct {
	cfg Config

	mu      sync.Mutex
	faults  Faults
	pending pendingFaults
	rng     *rand.Rand
	stats   Stats
	epochs  map[int64]time.Time
	conns   map[*session]struct{}
	closed  bool

	wg sync.WaitGroup
}

// New returns a server with cfg's zero values replaced by defaults.
func New(cfg Config) *Server {
	if cfg.LineInterval <= 0 {
		cfg.LineInterval = DefaultLineInterval
	}
	if cfg.PingInterval <= 0 {
		cfg.PingInterval = DefaultPingInterval
	}
	if cfg.Backlog == 0 {
		cfg.Backlog = DefaultBacklog
	} else if cfg.Backlog < 0 {
		cfg.Backlog = 0
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	seed := uint64(cfg.Seed)
	return &Server{
		cfg:    cfg,
		rng:    rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		epochs: make(map[int64]time.Time),
		conns:  make(map[*session]struct{}),
	}
}

// ServeHTTP authenticates the upgrade request and then runs the
// connection until either side closes it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(r) {
		s.count(func(st *Stats) { st.Unauthorized++ })
		writeUnauthorized(w)
		return
	}
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{Protocol}})
	if err != nil {
		// Accept has already answered the request.
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	sess := newSession(s, ws, cancel)

	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		cancel()
		_ = ws.Close(websocket.StatusGoingAway, "server closing")
		return
	}
	s.conns[sess] = struct{}{}
	s.stats.Connections++
	s.stats.Open++
	s.wg.Add(1)
	s.mu.Unlock()

	defer func() {
		s.mu.Lock()
		delete(s.conns, sess)
		s.stats.Open--
		s.mu.Unlock()
		s.wg.Done()
	}()
	sess.run(ctx)
}

// Close ends every open connection and waits for their goroutines.
func (s *Server) Close() {
	s.mu.Lock()
	s.closed = true
	open := make([]*session, 0, len(s.conns))
	for c := range s.conns {
		open = append(open, c)
	}
	s.mu.Unlock()
	for _, c := range open {
		c.abort()
	}
	s.wg.Wait()
}

// count applies f to the stats under the lock.
func (s *Server) count(f func(*Stats)) {
	s.mu.Lock()
	f(&s.stats)
	s.mu.Unlock()
}

// Stats returns a snapshot of the counters.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}
