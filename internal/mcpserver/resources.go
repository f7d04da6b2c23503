package mcpserver

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/reliability"
)

// Resources (docs/mcp-tools.md, "Resources"): playgrounds, marquees and
// async operations as fibe:// URIs. Reading one is a GET under the
// contract whose contents are the --json document; a subscription to a
// playground is served by one poller per playground, shared by every
// subscriber, that sends notifications/resources/updated when its status
// changes.

const (
	uriPlaygrounds = "fibe://playgrounds/"
	uriMarquees    = "fibe://marquees/"
	uriOperations  = "fibe://operations/"
	jsonMIME       = "application/json"
)

// resources serves reads, the list and subscriptions.
type resources struct {
	cfg    *Config
	server *mcp.Server

	mu      sync.Mutex
	pollers map[string]*resourcePoller // by URI
	watched map[*mcp.ServerSession]bool
}

type resourcePoller struct {
	subscribers map[*mcp.ServerSession]bool
	stop        context.CancelFunc
	done        chan struct{}
}

func newResources(cfg *Config) *resources {
	return &resources{cfg: cfg, pollers: map[string]*resourcePoller{}, watched: map[*mcp.ServerSession]bool{}}
}

// register adds the templates to s.
func (r *resources) register(s *mcp.Server) {
	r.server = s
	for _, t := range []*mcp.ResourceTemplate{
		{URITemplate: uriPlaygrounds + "{ref}", Name: "playground", Title: "A playground",
			Description: "A playground by id or name, as `fibe pg get --json` prints it. Subscribe to hear when its status changes.", MIMEType: jsonMIME},
		{URITemplate: uriMarquees + "{ref}", Name: "marquee", Title: "A marquee",
			Description: "A marquee by id or name, as `fibe mq get --json` prints it.", MIMEType: jsonMIME},
		{URITemplate: uriOperations + "{request_id}", Name: "operation", Title: "An async operation",
			Description: "An async operation, as `fibe ops get --json` prints it.", MIMEType: jsonMIME},
	} {
		s.AddResourceTemplate(t, r.read)
	}
}

// parse splits a fibe:// URI into its kind prefix and reference.
func parseURI(uri string) (prefix, ref string, ok bool) {
	for _, p := range []string{uriPlaygrounds, uriMarquees, uriOperations} {
		if rest, found := strings.CutPrefix(uri, p); found {
			ref, err := url.PathUnescape(rest)
			if err != nil || strings.TrimSpace(ref) == "" || strings.Contains(ref, "/") {
				return "", "", false
			}
			return p, ref, true
		}
	}
	return "", "", false
}

// read is resources/read of one URI: a GET under the contract. A URI that
// names nothing is a resource-not-found error, never an empty document.
func (r *resources) read(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	doc, err := r.fetch(ctx, uri)
	if err != nil {
		return nil, err
	}
	data, err := marshal(doc)
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: jsonMIME, Text: string(data)}}}, nil
}

func (r *resources) fetch(ctx context.Context, uri string) (any, error) {
	prefix, ref, ok := parseURI(uri)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	cl, err := r.cfg.Client(nil, true)
	if err != nil {
		return nil, resourceError(uri, err)
	}
	var doc any
	switch prefix {
	case uriPlaygrounds:
		doc, _, err = cl.Playgrounds.Get(ctx, ref)
	case uriMarquees:
		doc, _, err = cl.Marquees.Get(ctx, ref)
	case uriOperations:
		var st *client.AsyncStatus
		if st, _, err = cl.Async.Get(ctx, ref); err == nil {
			doc = opDocument(ref, st)
		}
	}
	if err != nil {
		return nil, resourceError(uri, err)
	}
	return doc, nil
}

// resourceError: RESOURCE_NOT_FOUND is the protocol's resource-not-found;
// any other failure a JSON-RPC error carrying the CLI's line and code.
func resourceError(uri string, err error) error {
	if client.IsNotFound(err) {
		return mcp.ResourceNotFoundError(uri)
	}
	eb := output.ErrorBodyOf(err)
	data, _ := json.Marshal(map[string]any{"error": eb})
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: output.ErrorLine(err), Data: data}
}

// list is resources/list: the first page of playgrounds and marquees.
func (r *resources) list(ctx context.Context) (*mcp.ListResourcesResult, error) {
	cl, err := r.cfg.Client(nil, true)
	if err != nil {
		return nil, resourceError("fibe://", err)
	}
	pgs, _, err := cl.Playgrounds.List(ctx, client.ListOptions{})
	if err != nil {
		return nil, resourceError(uriPlaygrounds, err)
	}
	mqs, _, err := cl.Marquees.List(ctx, client.ListOptions{})
	if err != nil {
		return nil, resourceError(uriMarquees, err)
	}
	out := &mcp.ListResourcesResult{Resources: []*mcp.Resource{}}
	for _, p := range pgs {
		out.Resources = append(out.Resources, &mcp.Resource{URI: uriPlaygrounds + url.PathEscape(p.Name), Name: p.Name,
			Title: "Playground " + p.Name, Description: "status " + p.Status, MIMEType: jsonMIME})
	}
	for _, m := range mqs {
		out.Resources = append(out.Resources, &mcp.Resource{URI: uriMarquees + url.PathEscape(m.Name), Name: m.Name,
			Title: "Marquee " + m.Name, MIMEType: jsonMIME})
	}
	return out, nil
}

// subscribe adds a session to the poller of a playground, starting it for
// the first subscriber.
func (r *resources) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	prefix, ref, ok := parseURI(uri)
	if !ok {
		return mcp.ResourceNotFoundError(uri)
	}
	if prefix != uriPlaygrounds {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "only playgrounds can be subscribed to (fibe://playgrounds/{ref})"}
	}
	cl, err := r.cfg.Client(nil, true)
	if err != nil {
		return resourceError(uri, err)
	}
	st, _, err := cl.Playgrounds.Status(ctx, ref)
	if err != nil {
		return resourceError(uri, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.pollers[uri]
	if p == nil {
		pctx, stop := context.WithCancel(context.Background())
		p = &resourcePoller{subscribers: map[*mcp.ServerSession]bool{}, stop: stop, done: make(chan struct{})}
		r.pollers[uri] = p
		go r.poll(pctx, p, uri, ref, st.Status)
	}
	p.subscribers[req.Session] = true
	if !r.watched[req.Session] {
		// The session's end unsubscribes it from everything.
		r.watched[req.Session] = true
		go func(ss *mcp.ServerSession) {
			_ = ss.Wait()
			r.drop(ss, "")
		}(req.Session)
	}
	return nil
}

func (r *resources) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	r.drop(req.Session, req.Params.URI)
	return nil
}

// drop removes a session from one poller (uri) or all of them (""), and
// stops a poller left without subscribers.
func (r *resources) drop(ss *mcp.ServerSession, uri string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if uri == "" {
		delete(r.watched, ss)
	}
	for u, p := range r.pollers {
		if uri != "" && u != uri {
			continue
		}
		delete(p.subscribers, ss)
		if len(p.subscribers) == 0 {
			p.stop()
			delete(r.pollers, u)
		}
	}
}

// poll watches one playground's status and announces each change, paced
// by the reliability poller, until stopped. A failed poll is retried at
// the next interval; it announces nothing.
func (r *resources) poll(ctx context.Context, p *resourcePoller, uri, ref, last string) {
	defer close(p.done)
	every := r.cfg.ResourcePoll
	if every <= 0 {
		every = reliability.DefaultPollInterval
	}
	poller := reliability.Poller{Interval: every, Timeout: reliability.JournalMaxAge, Ceiling: time.Minute}
	for ctx.Err() == nil {
		_ = poller.Run(ctx, func(ctx context.Context, n int) (bool, time.Duration, error) {
			if n == 1 {
				return false, 0, nil // the status at subscription is known
			}
			cl, err := r.cfg.Client(nil, true)
			if err != nil {
				return false, 0, reliability.PollFailed(err, every)
			}
			st, _, err := cl.Playgrounds.Status(ctx, ref)
			if err != nil {
				return false, 0, reliability.PollFailed(err, every)
			}
			if st.Status != last {
				last = st.Status
				_ = r.server.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri})
			}
			return false, 0, nil
		})
	}
}

// opDocument is what `fibe ops get --json` prints.
func opDocument(requestID string, st *client.AsyncStatus) opStatus {
	doc := opStatus{RequestID: orDefault(st.RequestID, requestID), Status: st.Status, Result: st.Result}
	if st.Err != nil {
		doc.Error = errorDocument("fibe_ops_get", nil, st.Err)["error"].(map[string]any)
		delete(doc.Error, "resume")
	}
	return doc
}
