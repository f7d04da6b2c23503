package localapi

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"
)

// DefaultAPIKey is the key the emulator accepts when Config.APIKey is empty.
const DefaultAPIKey = "fibe_local_0123456789abcdef"

// maxBodyBytes is the largest request body the emulator accepts (413 above it).
const maxBodyBytes = 1 << 20

// Config configures an emulator. The zero value is usable.
type Config struct {
	APIKey         string        // the first player's key ("" → DefaultAPIKey); see Keys
	Players        int           // players seeded, each with its own key and world; 0 → 1
	Seed           int64         // chaos RNG seed
	Speed          float64       // platform durations are divided by Speed; 0 → 1
	Chaos          string        // chaos spec or profile name ("flaky", "outage", "hostile")
	RateLimit      int           // requests per RateWindow per key; 0 → 600
	RateWindow     time.Duration // 0 → 1 minute
	LegacyAsync    bool          // older async status shape
	StatusURLStyle string        // "", "alt" or "absolute"; see doc.go
	AsyncCreate    bool          // POST /api/playgrounds answers 202; the result is the playground
	StatePath      string        // file-backed, flock'd state; "" → in memory
	// DeviceAutoApprove approves every device login code as it is issued
	// (`fibe local serve --auto-approve`, for tests of `auth login --web`).
	DeviceAutoApprove bool
	Logf              func(format string, args ...any)
	Now               func() time.Time // injectable clock; nil → time.Now
}

// Server is one emulated Fibe API. All methods are safe for concurrent use.
type Server struct {
	cfg   Config
	store store
	start time.Time

	mu    sync.Mutex // guards rng and chaos
	rng   *rand.Rand
	chaos *chaosPlan
	// cableDirty: chaos changed and the stream server has not been told.
	cableDirty bool
	closed     chan struct{}
	hooks      webhookSender // posts webhook deliveries (webhooks_send.go)
	closeMu    sync.Once

	cable  cableMount
	rt     *router
	device deviceCodes // device login codes, in memory (device.go)
}

// New builds an emulator. With cfg.StatePath set the state lives in that file
// (shared with other processes); otherwise in memory.
func New(cfg Config) (*Server, error) {
	if cfg.APIKey == "" {
		cfg.APIKey = DefaultAPIKey
	}
	if cfg.Players <= 0 {
		cfg.Players = 1
	}
	if cfg.Speed <= 0 {
		cfg.Speed = 1
	}
	if cfg.RateLimit <= 0 {
		cfg.RateLimit = 600
	}
	if cfg.RateWindow <= 0 {
		cfg.RateWindow = time.Minute
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	switch cfg.StatusURLStyle {
	case "", "alt", "absolute":
	default:
		return nil, fmt.Errorf("localapi: unknown status URL style %q (want \"\", \"alt\" or \"absolute\")", cfg.StatusURLStyle)
	}
	s := &Server{
		cfg:    cfg,
		start:  cfg.Now(),
		rng:    rand.New(rand.NewPCG(uint64(cfg.Seed), uint64(cfg.Seed)^0x9e3779b97f4a7c15)),
		closed: make(chan struct{}),
	}
	s.rt = s.routes()
	plan, err := parseChaos(cfg.Chaos)
	if err != nil {
		return nil, err
	}
	if cfg.Chaos != "" {
		// A spec given at start overrides one stored earlier by another
		// process; without one, the stored spec (older than now) is adopted.
		plan.since = s.start
	}
	s.chaos = plan
	if cfg.StatePath != "" {
		s.store = newFileStore(cfg.StatePath, cfg.Logf)
	} else {
		s.store = newMemStore()
	}
	// Touch the state once so a bad path fails here, not on the first
	// request; the players and their keys are seeded now.
	if err := s.store.update(s.now(), func(st *state) change {
		if s.seedPlayers(st, s.now()) {
			return changedDurable
		}
		return unchanged
	}); err != nil {
		return nil, err
	}
	s.cable = s.mountCable()
	s.applyCableFaults(plan.cable)
	return s, nil
}

// Handler returns the full HTTP handler: /api/..., /_local/... and /cable.
func (s *Server) Handler() http.Handler { return s }

// Close releases requests that are hanging or delayed by injected faults, so
// an http.Server can shut down promptly (see http.Server.RegisterOnShutdown).
func (s *Server) Close() {
	s.closeMu.Do(func() {
		close(s.closed)
		s.closeCable()
	})
}

// Stats returns the counters served at GET /_local/stats.
func (s *Server) Stats() Stats {
	var out Stats
	_ = s.store.update(s.now(), func(st *state) change {
		out = st.Stats.clone()
		return unchanged
	})
	return out
}

// SetChaos replaces the active faults; outage windows restart from now.
func (s *Server) SetChaos(spec string) error {
	plan, err := parseChaos(spec)
	if err != nil {
		return err
	}
	now := s.now()
	plan.since = now
	s.setPlan(plan)
	s.syncCable()
	// Persist it so other processes sharing the state file adopt it too.
	return s.store.update(now, func(st *state) change {
		st.Chaos = &chaosSetting{Spec: plan.source, Since: now}
		return changedDurable
	})
}

func (s *Server) now() time.Time { return s.cfg.Now().UTC() }

// scaled converts a platform duration (at speed 1) to emulator time.
func (s *Server) scaled(d time.Duration) time.Duration {
	return time.Duration(float64(d) / s.cfg.Speed)
}

// wait sleeps for d unless ctx ends or the server closes first.
func (s *Server) wait(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-s.closed:
		return errServerClosed
	}
}

var errServerClosed = errors.New("localapi: server closed")
