package client

import (
	"fmt"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/sony/gobreaker/v2"
	"golang.org/x/net/http/httpguts"

	"github.com/fibegg/fibe/internal/reliability"
)

// Client talks to one Fibe API. Every request goes through one retry loop
// (see do) under the reliability policy. Safe for concurrent use.
type Client struct {
	Playgrounds *PlaygroundsService
	Marquees    *MarqueesService
	Playspecs   *PlayspecsService
	Async       *AsyncService
	Templates   *TemplatesService
	Launch      *LaunchService
	Secrets     *SecretsService
	APIKeys     *APIKeysService
	Tricks      *TricksService
	Agents      *AgentsService
	Webhooks    *WebhooksService
	AuditLogs   *AuditLogsService
	Props       *PropsService
	Repos       *ReposService

	base      *url.URL
	apiKey    string
	userAgent string
	http      *http.Client
	policy    reliability.Policy
	clock     reliability.Clock
	rand      reliability.Rand
	trusted   map[string]bool
	onEvent   func(Event)
	trace     *tracer

	store    reliability.Store
	breakers *reliability.Breakers
	ledger   *reliability.Ledger
	hostKey  string // the API host as used in state keys and the host resource
	hostRes  string // HostResource, built once
	bearer   string // the Authorization value, built once ("" without a key)

	cacheMu sync.Mutex // serialises this process's marquee-cache writes

	journal       *reliability.Journal // the outcome journal (journal.go)
	profile       string
	journalWindow time.Duration
}

// New returns a Client for opts.BaseURL.
func New(opts Options) (*Client, error) {
	raw := strings.TrimSpace(opts.BaseURL)
	if raw == "" {
		raw = "https://fibe.gg"
	}
	base, err := url.Parse(raw)
	if err != nil || base.Host == "" || (base.Scheme != "http" && base.Scheme != "https") {
		return nil, fmt.Errorf("invalid API URL %q: want http(s)://host[:port]", opts.BaseURL)
	}
	base.Path = strings.TrimRight(base.Path, "/")
	base.RawQuery, base.Fragment = "", ""

	c := &Client{
		base:      base,
		apiKey:    opts.APIKey,
		userAgent: opts.UserAgent,
		policy:    opts.Policy.WithDefaults(),
		clock:     opts.Clock,
		rand:      opts.Rand,
		onEvent:   opts.OnEvent,
		trusted:   map[string]bool{},
		hostKey:   base.Host,
	}
	c.hostRes = "api/" + c.hostKey
	if c.apiKey != "" {
		c.bearer = "Bearer " + c.apiKey
		if !httpguts.ValidHeaderFieldValue(c.bearer) {
			// Every attempt would fail before leaving, counted as a
			// network failure: refuse it here, never quoting the key.
			return nil, InvalidArgument("api_key", "the API key has a control character (a line break?)")
		}
	}
	if !httpguts.ValidHeaderFieldValue(c.userAgent) {
		return nil, InvalidArgument("user_agent", "the user agent has a control character")
	}
	if c.userAgent == "" {
		c.userAgent = fmt.Sprintf("fibe-cli/dev (%s/%s)", runtime.GOOS, runtime.GOARCH)
	}
	if c.clock == nil {
		c.clock = reliability.SystemClock()
	}
	for _, h := range opts.TrustedHosts {
		if h = strings.ToLower(strings.TrimSpace(h)); h != "" {
			c.trusted[h] = true
		}
	}
	if opts.Debug != nil {
		c.trace = &tracer{w: opts.Debug}
	}

	rt := opts.Transport
	if rt == nil {
		rt = http.DefaultTransport.(*http.Transport).Clone()
	}
	c.http = &http.Client{Transport: rt, CheckRedirect: c.checkRedirect}

	c.store = opts.Store
	if c.store == nil {
		if opts.StateDir != "" {
			c.store = reliability.NewFileStore(opts.StateDir)
		} else {
			c.store = reliability.NewMemoryStore()
		}
	}
	c.breakers = reliability.NewBreakers(c.store, c.hostKey, c.policy, c.clock)
	c.breakers.OnStateChange = c.breakerChanged
	c.breakers.OnStoreError = func(err error) { c.trace.printf("state store error (breaker admits): %v", err) }
	c.ledger = reliability.NewLedger(c.store, reliability.LedgerScope(base.Scheme+"://"+strings.ToLower(base.Hostname())+":"+portOf(base), c.apiKey), c.policy, c.clock)
	c.journal, c.profile = reliability.NewJournal(c.store, c.clock), opts.Profile
	c.journalWindow = min(opts.JournalWindow, reliability.JournalMaxAge)
	// A store with round trips reads what a request needs in one.
	reliability.Prefetch(c.store, c.breakers.Key(), c.ledger.Key(), c.cacheKey())

	c.Playgrounds = &PlaygroundsService{c: c}
	c.Marquees = &MarqueesService{c: c}
	c.Playspecs = newPlayspecsService(c)
	c.Webhooks = &WebhooksService{NewCollection[WebhookEndpoint](c, "/api/webhook_endpoints", "webhook_endpoint")}
	c.AuditLogs = &AuditLogsService{NewCollection[AuditLog](c, "/api/audit_logs", "")}
	c.Async = &AsyncService{c: c}
	c.Templates = &TemplatesService{NewCollection[Template](c, "/api/import_templates", "import_template")}
	c.Launch = &LaunchService{c: c}
	c.Secrets = &SecretsService{NewCollection[Secret](c, "/api/secrets", "secret")}
	c.APIKeys = &APIKeysService{NewCollection[APIKey](c, "/api/api_keys", "api_key")}
	c.Tricks = &TricksService{c: c}
	c.Agents = &AgentsService{NewCollection[Agent](c, "/api/agents", "agent")}
	c.Props = &PropsService{NewCollection[Prop](c, propsPath, "prop")}
	c.Repos = &ReposService{c: c}
	return c, nil
}

// Policy returns the effective policy (defaults filled in).
func (c *Client) Policy() reliability.Policy { return c.policy }

// BaseURL returns the API base URL.
func (c *Client) BaseURL() *url.URL { u := *c.base; return &u }

// HostResource is the breaker resource of requests about no marquee.
func (c *Client) HostResource() string { return c.hostRes }

// Breakers lists the breakers of this API host.
func (c *Client) Breakers() ([]BreakerStatus, error) {
	list, err := c.breakers.List()
	if err != nil {
		return nil, err
	}
	out := make([]BreakerStatus, 0, len(list))
	for _, b := range list {
		out = append(out, BreakerStatus{Resource: b.Resource, State: b.State.String(),
			ConsecutiveFailures: b.ConsecutiveFailures, OpenUntil: b.OpenUntil})
	}
	return out, nil
}

// StateStore names the store that holds the breakers, the rate ledger and
// the marquee cache (secrets masked).
func (c *Client) StateStore() string { return c.store.Describe() }

// ResetBreakers closes the breaker of resource ("" → all of this host).
func (c *Client) ResetBreakers(resource string) error { return c.breakers.Reset(resource) }

// ResetRateLedger forgets the rate-limit window learned for this API and
// key, in the state store too: a window it holds is never waited on again.
func (c *Client) ResetRateLedger() error { return c.ledger.Reset() }

func (c *Client) breakerChanged(resource string, from, to gobreaker.State) {
	c.trace.printf("breaker %s: %s → %s", resource, from, to)
	c.emit(Event{Kind: EventBreaker, Resource: resource, BreakerState: to.String(),
		Reason: from.String() + " → " + to.String()})
}

func (c *Client) emit(e Event) { c.emitTo(nil, e) }

// emitTo reports e to the client's callback and to op, the callback of the
// operation e belongs to (MutationOptions.OnEvent), when there is one.
func (c *Client) emitTo(op func(Event), e Event) {
	if c.onEvent != nil {
		c.onEvent(e)
	}
	if op != nil {
		op(e)
	}
}

// resolve turns a path or a status URL into an absolute URL; relative
// references resolve against the API base.
func (c *Client) resolve(ref string) (*url.URL, error) {
	u, err := url.Parse(ref)
	if err != nil {
		return nil, err
	}
	if u.IsAbs() {
		return u, nil
	}
	if strings.HasPrefix(ref, "/") {
		// Absolute path: keep the base's path prefix only when the path is not already under it.
		b := *c.base
		if c.base.Path != "" && !strings.HasPrefix(u.Path, c.base.Path+"/") {
			// Both forms move together, or an escaped "/" in a name (%2F)
			// would be sent as a path separator.
			u.Path, u.RawPath = c.base.Path+u.Path, c.base.EscapedPath()+u.EscapedPath()
		}
		b.Path, b.RawPath, b.RawQuery = "", "", ""
		return b.ResolveReference(u), nil
	}
	b := *c.base
	b.Path += "/"
	return b.ResolveReference(u), nil
}

// sameOrigin compares scheme, host and port (default ports made explicit).
// It runs several times per request, so it compares in place.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && portOf(a) == portOf(b)
}

// portOf is the URL's port, or its scheme's default.
func portOf(u *url.URL) string {
	if port := u.Port(); port != "" {
		return port
	}
	if strings.EqualFold(u.Scheme, "https") || strings.EqualFold(u.Scheme, "wss") {
		return "443"
	}
	return "80"
}

// mayAuthorize is the credential rule of docs/contract.md §5: the API key goes to
// the API's own origin and to trusted hosts only.
func (c *Client) mayAuthorize(u *url.URL) bool {
	return sameOrigin(u, c.base) || c.trusted[strings.ToLower(u.Hostname())]
}

// checkTarget refuses plain http to another non-loopback origin.
func (c *Client) checkTarget(u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return errorf(CodeInvalidResponse, "refusing URL with scheme %q", u.Scheme)
	}
	if sameOrigin(u, c.base) || u.Scheme == "https" || IsLoopbackHost(u.Hostname()) {
		return nil
	}
	return errorf(CodeInvalidResponse, "refusing plain-http URL on another origin (%s)", u.Host)
}

// checkRedirect follows redirects on the same origin only; a redirect
// elsewhere is returned as the answer rather than followed with credentials.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 5 || !sameOrigin(req.URL, via[0].URL) {
		return http.ErrUseLastResponse
	}
	return nil
}

// RateLimit is the rate-limit window in force as the ledger sees it
// (Remaining net of the slots taken by requests in flight), if one is known.
func (c *Client) RateLimit() (RateLimit, bool) { return c.ledger.Last() }
