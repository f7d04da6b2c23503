package console

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/httpserve"
)

// DefaultPollInterval is how often a watched page's poller asks the API.
const DefaultPollInterval = time.Second

// Config configures a console.
type Config struct {
	// Client makes every API call and dials every stream.
	Client *client.Client
	// Local: the API is the emulator; each running playground's preview
	// page is served by the console on a second loopback listener, an
	// origin of its own (/_preview/<playground>/ there).
	Local bool
	// PollInterval is the pollers' period (0 → DefaultPollInterval).
	PollInterval time.Duration
	// APILabel names the API in the page header (never the key).
	APILabel string
	// Logf receives one line per notable server-side event (nil → discard).
	Logf func(format string, args ...any)
	// IdleTimeout ends a session that made no request and held no event
	// stream for that long (0 → DefaultIdleTimeout).
	IdleTimeout time.Duration
}

// DefaultIdleTimeout is how long a session may stay idle: no request, no
// open tab watching a page.
const DefaultIdleTimeout = 12 * time.Hour

// Server is one console: a loopback HTTP server with its own sessions,
// pollers and stream relays.
type Server struct {
	cfg   Config
	api   *client.Client
	ln    net.Listener
	hs    *http.Server
	hosts map[string]bool // accepted Host headers
	// The preview listener (with Local only): the emulator's preview pages
	// on an origin of their own, framed by the console's pages only.
	previewLn    net.Listener
	previewHS    *http.Server
	previewHosts map[string]bool
	token        string          // the single-use login token
	ctx          context.Context // ends when the server closes
	cancel       context.CancelFunc

	mu       sync.Mutex
	used     bool                // the login token was exchanged
	sessions map[string]*session // by cookie value
	tickets  map[string]*ticket  // stream tickets, single use
	streams  relayStreams        // streams of the tabs' panes, across their connections

	hub    *hub
	ops    *operations
	relays atomic.Int64 // API cable connections opened by relays
	events atomic.Int64 // event streams (SSE) opened by tabs

	unused  httpserve.UnusedConns // connections that never sent a request
	relayWG sync.WaitGroup        // running relays
	closing bool                  // under mu: no new relay may start
}

// relayStarted registers a relay unless the console is closing.
func (s *Server) relayStarted() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return false
	}
	s.relayWG.Add(1)
	return true
}

// session is one browser's login.
type session struct {
	csrf string
	// nonce is the CSP nonce of the session's pages. One per session, not
	// per page: Turbo Drive renders later pages into the first page's
	// document, whose policy stays the one it loaded with.
	nonce string
	// Under Server.mu: the last request's start or end, and the requests
	// running now (an open event stream keeps its session alive).
	lastSeen time.Time
	active   int
}

// New listens on addr, which must be a loopback address (127.0.0.1:0 when
// empty), and returns a console ready to Serve.
func New(cfg Config, addr string) (*Server, error) {
	if cfg.Client == nil {
		return nil, errors.New("console: no API client")
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = DefaultPollInterval
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = DefaultIdleTimeout
	}
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	if err := CheckAddr(addr); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("console: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		cfg: cfg, api: cfg.Client, ln: ln, token: randomHex(16), ctx: ctx, cancel: cancel,
		sessions: map[string]*session{}, tickets: map[string]*ticket{},
	}
	s.hosts = allowedHosts(ln.Addr().(*net.TCPAddr))
	if cfg.Local {
		host, _, _ := net.SplitHostPort(ln.Addr().String())
		pln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
		if err != nil {
			ln.Close()
			cancel()
			return nil, fmt.Errorf("console: preview listener: %w", err)
		}
		s.previewLn = pln
		s.previewHosts = allowedHosts(pln.Addr().(*net.TCPAddr))
		s.previewHS = &http.Server{Handler: s.previewHandler(), ReadHeaderTimeout: 10 * time.Second, ConnState: s.unused.Track}
	}
	s.hub = newHub(ctx, cfg.PollInterval, cfg.Logf)
	s.ops = newOperations()
	s.hs = &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, ConnState: s.unused.Track}
	return s, nil
}

// PreviewBaseURL is the origin of the preview listener ("" without one).
func (s *Server) PreviewBaseURL() string {
	if s.previewLn == nil {
		return ""
	}
	return "http://" + s.previewLn.Addr().String()
}

// CheckAddr refuses any address that is not a loopback host and port
// (client.IsLoopbackHost: a name other than localhost could resolve
// anywhere).
func CheckAddr(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("want host:port on a loopback address, e.g. 127.0.0.1:0")
	}
	if !client.IsLoopbackHost(host) {
		return fmt.Errorf("the console binds loopback only (127.0.0.1, ::1 or localhost)")
	}
	return nil
}

func allowedHosts(a *net.TCPAddr) map[string]bool {
	port := fmt.Sprint(a.Port)
	hosts := map[string]bool{
		net.JoinHostPort("localhost", port):   true,
		net.JoinHostPort(a.IP.String(), port): true,
	}
	if a.IP.To4() != nil {
		hosts[net.JoinHostPort("127.0.0.1", port)] = true
	} else {
		hosts[net.JoinHostPort("::1", port)] = true
	}
	return hosts
}

// Addr is the address the console listens on.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// BaseURL is the console's URL without the login token.
func (s *Server) BaseURL() string { return "http://" + s.Addr() }

// LoginURL is the URL to open: the base URL with the single-use token.
func (s *Server) LoginURL() string {
	return s.BaseURL() + "/?token=" + url.QueryEscape(s.token)
}

// Serve serves until ctx ends or Close is called, then shuts down:
// pollers stop, relays close, open requests get a moment to finish.
func (s *Server) Serve(ctx context.Context) error {
	errc := make(chan error, 1)
	go func() { errc <- s.hs.Serve(s.ln) }()
	if s.previewHS != nil {
		go func() { _ = s.previewHS.Serve(s.previewLn) }()
	}
	select {
	case <-ctx.Done():
	case <-s.ctx.Done():
	case err := <-errc:
		s.Close()
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	}
	s.Close()
	<-errc
	return nil
}

// Close stops the server: streams (SSE, relays) end first so that shutdown
// does not wait on them.
func (s *Server) Close() {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	s.cancel()
	s.hub.wait()
	s.relayWG.Wait()
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	s.unused.CloseAll()
	for _, hs := range []*http.Server{s.hs, s.previewHS} {
		if hs == nil {
			continue
		}
		if err := hs.Shutdown(sctx); err != nil {
			_ = hs.Close()
		}
	}
	if s.previewLn != nil {
		_ = s.previewLn.Close() // when Serve never ran
	}
	s.ops.wait()
}

// Relays is how many API cable connections the relays have opened.
func (s *Server) Relays() int64 { return s.relays.Load() }

// OnPublish, when set, sees every Turbo Stream published to
// watching tabs, with the time (benchmarks measure latency from it).
func (s *Server) OnPublish(f func(topic, stream string, at time.Time)) {
	s.hub.mu.Lock()
	s.hub.onPublish = f
	s.hub.mu.Unlock()
}

// EventStreams is how many event streams (SSE) tabs have opened in all.
func (s *Server) EventStreams() int64 { return s.events.Load() }

// Polls is how many poll cycles the pollers have run.
func (s *Server) Polls() int64 { return s.hub.polls.Load() }

// Pollers is how many pollers run now (one per watched page).
func (s *Server) Pollers() int { return s.hub.running() }

// Watchers is how many event streams (tabs, or the one tab that shares
// its stream with the others) watch the playground page of ref (as in its
// URL) now: a stream published with Publish reaches them.
func (s *Server) Watchers(ref string) int { return s.hub.watchers(pgTopic(ref)) }

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}
