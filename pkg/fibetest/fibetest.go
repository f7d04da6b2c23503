// Package fibetest runs the Fibe API emulator as a loopback HTTP server
// for the tests of programs that use package fibe, as net/http/httptest
// does for handlers: the whole API in memory, with the platform's faults
// on demand.
//
//	srv := fibetest.NewServer(fibetest.WithChaos("commit-then-502=1"))
//	defer srv.Close()
//	c := srv.Client()
//	pg, resp, err := c.Playgrounds.Create(ctx, &fibe.PlaygroundCreateParams{Name: "t1", Playspec: "web", Marquee: "local"})
//	// err == nil, resp.Replayed(), srv.Stats().Creates["t1"] == 1
//
// # The seed world
//
// Every server starts with the same world: marquees "local" and "prod-eu"
// (funded) and "unpaid" (its paid_until is past: work on it answers 402
// MARQUEE_NOT_FUNDED); playspecs "web" and "broken" (a rollout of a
// playground of "broken" fails at step "build" with reason
// "image_pull_failed" and leaves it in status error, with its build
// statuses and failure diagnostics); one user with every scope. A
// playground provisions in about 3 s and rolls out in about 3 s at speed 1
// (WithSpeed divides those times).
//
// # Faults
//
// WithChaos and SetChaos take a chaos spec: a comma-separated list of
// items, a profile (ChaosFlaky, ChaosOutage, ChaosHostile, "off") or
// key=value:
//
//	503=P  500=P  502=P  504=P  429=P   answer that error instead (P in [0,1])
//	reset=P                             close the connection without answering
//	panic=P                             make the handler panic (a 500 envelope)
//	commit-then-502=P                   do the mutation, then answer a proxy's 502
//	commit-then-reset=P                 do the mutation, then drop the connection
//	commit-then-hang=P[:DUR]            do the mutation, then answer only after DUR (35s)
//	latency=P[:DUR]                     wait DUR (1s) before handling
//	outage=marquee/NAME@START+LEN       503 or reset for every request about that
//	                                    marquee or its playgrounds, from START to
//	                                    START+LEN after the spec was set
//	cable-expire=once|P  cable-expire-burst=N  cable-drop=P|@DUR
//	cable-reject=P  cable-noping=1      faults of the live log streams
//
// Faults are drawn from a generator seeded by WithSeed, so a seed
// reproduces a run. A 429 carries Retry-After: 1.
//
// Keep-alives are off unless WithKeepAlive: net/http sends an idempotent
// request again when a reused connection dies, and Stats would count it
// twice.
package fibetest

import (
	"fmt"
	"net/http/httptest"
	"time"

	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/pkg/fibe"
)

// DefaultAPIKey is the API key a server accepts unless WithAPIKey.
const DefaultAPIKey = "fibe_local_0123456789abcdef"

// The chaos profiles.
const (
	ChaosFlaky   = "flaky"   // occasional 5xx, resets, lost answers and latency
	ChaosOutage  = "outage"  // marquee prod-eu down from 5 s to 35 s, and rare 503s
	ChaosHostile = "hostile" // every fault, often, log streams included
)

// Server is a running emulator on 127.0.0.1. URL is its base URL, APIKey
// the key it accepts.
type Server struct {
	URL, APIKey string

	api  *localapi.Server
	http *httptest.Server
}

// Option configures NewServer.
type Option func(*config)

type config struct {
	cfg       localapi.Config
	keepAlive bool
}

// WithAPIKey sets the accepted API key (default DefaultAPIKey).
func WithAPIKey(key string) Option { return func(c *config) { c.cfg.APIKey = key } }

// WithChaos sets the faults from the start (see the package doc).
func WithChaos(spec string) Option { return func(c *config) { c.cfg.Chaos = spec } }

// WithSeed seeds the faults' random generator.
func WithSeed(seed int64) Option { return func(c *config) { c.cfg.Seed = seed } }

// WithSpeed divides the platform's durations (provisioning, rollouts,
// queues) by factor; it scales neither faults nor the rate limit.
func WithSpeed(factor float64) Option { return func(c *config) { c.cfg.Speed = factor } }

// WithRateLimit allows n requests per window per API key (default 600 a
// minute); more are answered 429.
func WithRateLimit(n int, window time.Duration) Option {
	return func(c *config) { c.cfg.RateLimit, c.cfg.RateWindow = n, window }
}

// WithLegacyAsync answers an operation's success result at the top level
// of its status, as older servers do, rather than under "result".
func WithLegacyAsync() Option { return func(c *config) { c.cfg.LegacyAsync = true } }

// WithAsyncCreate answers a playground create with 202; the operation's
// result is the playground.
func WithAsyncCreate() Option { return func(c *config) { c.cfg.AsyncCreate = true } }

// WithKeepAlive keeps connections open between requests.
func WithKeepAlive() Option { return func(c *config) { c.keepAlive = true } }

// WithStatusURL sets the style of a 202's status_url: "" (a path,
// /api/async_requests/{id}), "alt" (/api/operations/{id}/state) or
// "absolute" (a full URL).
func WithStatusURL(style string) Option { return func(c *config) { c.cfg.StatusURLStyle = style } }

// NewServer starts a server on 127.0.0.1 with the seed world in memory.
// It panics on an option that cannot work (an unknown chaos spec or
// status URL style), as httptest does on a failed listen.
func NewServer(opts ...Option) *Server {
	c := &config{}
	for _, opt := range opts {
		if opt != nil {
			opt(c)
		}
	}
	api, err := localapi.New(c.cfg)
	if err != nil {
		panic(fmt.Sprintf("fibetest: %v", err))
	}
	hs := httptest.NewUnstartedServer(api.Handler())
	hs.Config.SetKeepAlivesEnabled(c.keepAlive)
	hs.Start()
	key := c.cfg.APIKey
	if key == "" {
		key = DefaultAPIKey
	}
	return &Server{URL: hs.URL, APIKey: key, api: api, http: hs}
}

// Client returns a fibe.Client for this server:
// fibe.NewClient(fibe.WithBaseURL(URL), fibe.WithAPIKey(APIKey), opts...).
// It panics if opts cannot work.
func (s *Server) Client(opts ...fibe.Option) *fibe.Client {
	c, err := fibe.NewClient(append([]fibe.Option{fibe.WithBaseURL(s.URL), fibe.WithAPIKey(s.APIKey)}, opts...)...)
	if err != nil {
		panic(fmt.Sprintf("fibetest: %v", err))
	}
	return c
}

// SetChaos replaces the faults (see the package doc); "" turns them off.
// Outage windows count from now.
func (s *Server) SetChaos(spec string) error { return s.api.SetChaos(spec) }

// Stats is a snapshot of the server's counters; reading it is no request.
func (s *Server) Stats() Stats {
	st := s.api.Stats()
	cs := s.api.CableStats()
	return Stats{Requests: st.Requests, Mutations: st.Mutations, Replays: st.Replays, Creates: st.Creates, Faults: st.Faults,
		Streams: StreamStats{Connections: cs.Connections, Subscriptions: cs.Subscriptions, Rejections: cs.Rejections,
			Lines: cs.Lines, Expiries: cs.Expiries, Drops: cs.Drops}}
}

// Close releases requests hung or delayed by faults and stops the server;
// it returns within a second.
func (s *Server) Close() {
	s.api.Close()
	s.http.CloseClientConnections()
	s.http.Close()
}

// Stats are a server's counters.
type Stats struct {
	// Requests counts answers by route and status:
	// "GET /api/playgrounds/{id}" → "200", "503" or "reset" → n.
	Requests map[string]map[string]int `json:"requests"`
	// Mutations counts the mutations done, Replays the answers replayed
	// from an idempotency key.
	Mutations int `json:"mutations"`
	Replays   int `json:"replays"`
	// Creates counts creates by name; Faults the faults injected by kind.
	Creates map[string]int `json:"creates"`
	Faults  map[string]int `json:"faults"`
	// Streams counts what the live log streams did.
	Streams StreamStats `json:"streams"`
}

// StreamStats count the live log streams: connections accepted,
// subscriptions confirmed and rejected, log lines sent, session expiries
// and dropped connections.
type StreamStats struct {
	Connections   int `json:"connections"`
	Subscriptions int `json:"subscriptions"`
	Rejections    int `json:"rejections"`
	Lines         int `json:"lines"`
	Expiries      int `json:"expiries"`
	Drops         int `json:"drops"`
}
