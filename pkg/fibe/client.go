package fibe

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/reliability"
	"github.com/fibegg/fibe/internal/statestore"
)

// version is this package's version, sent in the User-Agent.
const version = "0.1.0"

// journalProfile is the outcome journal's profile of every SDK client: a
// key the SDK journaled is never handed to a CLI run, nor the reverse.
const journalProfile = "sdk"

// Client talks to one Fibe API under the reliability contract. It is safe
// for concurrent use. Its services are its fields.
type Client struct {
	Playgrounds *PlaygroundsService
	Marquees    *MarqueesService
	Tricks      *TricksService
	Agents      *AgentsService
	Playspecs   *PlayspecsService
	Props       *PropsService
	Repos       *ReposService
	Operations  *OperationsService
	Me          *MeService
	Templates   *TemplatesService
	Launch      *LaunchService
	Secrets     *SecretsService
	APIKeys     *APIKeysService
	Status      *StatusService
	Webhooks    *WebhooksService
	AuditLogs   *AuditLogsService

	c      *client.Client
	shared *statestore.Redis // the shared store's connections, closed by Close
	closed atomic.Bool
}

// Option configures NewClient.
type Option func(*options)

type options struct {
	apiKey, baseURL, userAgent, stateDir, stateStore string
	transport                                        http.RoundTripper
	policy                                           Policy
	journalWindow                                    time.Duration
	onEvent                                          func(Event)
	debug                                            io.Writer
	bad                                              *Error // the first option that cannot work
}

func (o *options) refuse(field, msg string) {
	if o.bad == nil {
		o.bad = invalidArgument(field, msg)
	}
}

// WithAPIKey sets the API key, sent as a bearer token to the API's origin
// only. Without one no Authorization header is sent (the server answers 401).
func WithAPIKey(key string) Option { return func(o *options) { o.apiKey = key } }

// WithBaseURL sets the API's URL: http or https, default
// "https://fibe.gg"; a path prefix is kept.
func WithBaseURL(rawURL string) Option {
	return func(o *options) {
		u, err := url.Parse(strings.TrimSpace(rawURL))
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
			o.refuse("base_url", fmt.Sprintf("%q is not an http(s)://host[:port] URL", rawURL))
			return
		}
		o.baseURL = u.String()
	}
}

// WithHTTPClient sets the transport: only hc.Transport is used (nil → a
// clone of http.DefaultTransport); redirects, timeouts and retries are the
// client's own.
func WithHTTPClient(hc *http.Client) Option {
	return func(o *options) {
		if hc != nil {
			o.transport = hc.Transport
		}
	}
}

// WithUserAgent names the calling program: the User-Agent is
// "<product> fibe-go/<version> (<os>/<arch>)".
func WithUserAgent(product string) Option {
	return func(o *options) { o.userAgent = strings.TrimSpace(product) }
}

// WithStateDir keeps the breakers, the rate ledger, the marquee cache and
// the outcome journal in files under dir, shared with every process that
// uses the same directory (the CLI's among them). Default: in memory.
func WithStateDir(dir string) Option {
	return func(o *options) {
		if strings.TrimSpace(dir) == "" {
			o.refuse("state_dir", "is empty")
			return
		}
		o.stateDir = dir
	}
}

// WithStateStore keeps the breakers, the rate ledger, the marquee cache
// and the outcome journal in Redis, shared by every process and machine
// that uses it (the command line's state_store among them): rawURL is
// redis://[user:pass@]host:port/db, or rediss:// for TLS. Nothing is sent
// until the first request. When the store fails, the client goes on with
// its local store (WithStateDir's files, else memory), reports one
// EventStoreFallback, and tries Redis again at most once a minute.
func WithStateStore(rawURL string) Option {
	return func(o *options) {
		u, err := url.Parse(rawURL)
		if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") {
			o.refuse("state_store", "is not a redis:// or rediss:// URL")
			return
		}
		o.stateStore = rawURL
	}
}

// WithPolicy overrides the reliability policy; a zero field keeps its
// default (DefaultPolicy).
func WithPolicy(p Policy) Option { return func(o *options) { o.policy = p } }

// WithJournalWindow sets how long a mutation that lost its answer is
// remembered, so that the same mutation sent again (same method, path and
// body) reuses its idempotency key: default 15 minutes, 0 turns the
// journal off, capped at 24 hours.
func WithJournalWindow(d time.Duration) Option {
	return func(o *options) {
		if d < 0 {
			o.refuse("journal_window", "is negative")
			return
		}
		o.journalWindow = min(d, reliability.JournalMaxAge)
	}
}

// WithEventHook receives progress events (attempts, retries, polls,
// breaker changes, replays, rate waits, key reuse). fn runs synchronously
// on the calling goroutine and must not block.
func WithEventHook(fn func(Event)) Option { return func(o *options) { o.onEvent = fn } }

// WithDebug writes a trace of every attempt, delay, breaker change and
// poll to w, with the API key and every secret field redacted.
func WithDebug(w io.Writer) Option { return func(o *options) { o.debug = w } }

// NewClient returns a Client. It reads no environment variable, file or
// keyring: everything comes from opts. Its only error is an *Error
// INVALID_ARGUMENT whose Details["field"] names the option.
func NewClient(opts ...Option) (*Client, error) {
	o := &options{baseURL: "https://fibe.gg", journalWindow: reliability.DefaultJournalWindow}
	for _, opt := range opts {
		if opt != nil {
			opt(o)
		}
	}
	if o.bad != nil {
		return nil, o.bad
	}
	rp, err := o.policy.engine()
	if err != nil {
		return nil, err
	}
	ua := fmt.Sprintf("fibe-go/%s (%s/%s)", version, runtime.GOOS, runtime.GOARCH)
	if o.userAgent != "" {
		ua = o.userAgent + " " + ua
	}
	copts := client.Options{BaseURL: o.baseURL, APIKey: o.apiKey, Transport: o.transport, UserAgent: ua,
		StateDir: o.stateDir, Policy: rp, Debug: o.debug, Profile: journalProfile, JournalWindow: o.journalWindow}
	if o.onEvent != nil {
		hook := o.onEvent
		copts.OnEvent = func(e client.Event) {
			if pe, ok := eventOf(e); ok {
				hook(pe)
			}
		}
	}
	var shared *statestore.Redis
	if o.stateStore != "" {
		if shared, err = statestore.OpenRedis(o.stateStore, 0); err != nil {
			return nil, invalidArgument("state_store", oneLine(err.Error()))
		}
		var local reliability.Store = reliability.NewMemoryStore()
		if o.stateDir != "" {
			local = reliability.NewFileStore(o.stateDir)
		}
		hook := o.onEvent
		copts.Store = &statestore.Failover{Primary: shared, Local: local, Warn: func(err error) {
			if hook != nil {
				hook(Event{Kind: EventStoreFallback, Resource: shared.Describe(),
					Reason: oneLine(reliability.MaskURLIn(err.Error(), o.stateStore))})
			}
		}}
	}
	ic, err := client.New(copts)
	if err != nil {
		if shared != nil {
			_ = shared.Close()
		}
		if ce, ok := client.AsError(err); ok {
			return nil, fromClient(ce)
		}
		return nil, invalidArgument("base_url", oneLine(err.Error()))
	}
	c := &Client{c: ic, shared: shared}
	c.Playgrounds = &PlaygroundsService{c: c}
	c.Marquees = &MarqueesService{c: c}
	c.Tricks = &TricksService{c: c}
	c.Agents = &AgentsService{c: c}
	c.Playspecs = &PlayspecsService{c: c}
	c.Webhooks = &WebhooksService{c: c}
	c.AuditLogs = &AuditLogsService{c: c}
	c.Props = &PropsService{c: c}
	c.Repos = &ReposService{c: c}
	c.Operations = &OperationsService{c: c}
	c.Me = &MeService{c: c}
	c.Templates = &TemplatesService{c: c}
	c.Launch = &LaunchService{c: c}
	c.Secrets = &SecretsService{c: c}
	c.APIKeys = &APIKeysService{c: c}
	c.Status = &StatusService{c: c}
	return c, nil
}

// RateLimit is the rate-limit window in force as the client sees it, with
// Remaining net of the requests in flight; ok is false until an answer
// told it one (or once that window has ended).
func (c *Client) RateLimit() (RateLimit, bool) {
	rl, ok := c.c.RateLimit()
	return RateLimit(rl), ok
}

// Breakers lists the circuit breakers of this API host, sorted by Resource.
func (c *Client) Breakers() ([]BreakerStatus, error) {
	if c.closed.Load() {
		return nil, errClosed()
	}
	list, err := c.c.Breakers()
	if err != nil {
		return nil, storeError(err)
	}
	out := make([]BreakerStatus, 0, len(list))
	for _, b := range list {
		out = append(out, BreakerStatus(b))
	}
	slices.SortFunc(out, func(a, b BreakerStatus) int { return cmp.Compare(a.Resource, b.Resource) })
	return out, nil
}

// ResetBreaker closes the breaker of resource ("marquee/prod-eu"); ""
// closes every breaker of this API host.
func (c *Client) ResetBreaker(resource string) error {
	if c.closed.Load() {
		return errClosed()
	}
	if err := c.c.ResetBreakers(resource); err != nil {
		return storeError(err)
	}
	return nil
}

// Close releases what the client holds. It is idempotent; calls made
// after it return CANCELLED.
func (c *Client) Close() error {
	if c.closed.Swap(true) || c.shared == nil {
		return nil
	}
	if err := c.shared.Close(); err != nil {
		return storeError(err)
	}
	return nil
}

// storeError is a failure of the state store, which no answer came with.
func storeError(err error) error {
	if e := fromClient(err); e != nil {
		if pe, ok := e.(*Error); ok && pe.Code != CodeInvalidArgument {
			return pe
		}
	}
	return &Error{Code: CodeNetworkError, Message: "state store: " + oneLine(err.Error()), Details: map[string]any{},
		cause: publicCause(err)}
}

// begin is the start of every call: a closed client sends nothing.
func (c *Client) begin(ctx context.Context) error {
	if c.closed.Load() {
		return errClosed()
	}
	if ctx == nil {
		return invalidArgument("ctx", "is nil")
	}
	return nil
}
