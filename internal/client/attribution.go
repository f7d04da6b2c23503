package client

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/fibegg/fibe/internal/reliability"
)

// Requests are attributed to a marquee so that a dead marquee silences only
// the requests about it. A playground's marquee is learned from the
// playground resource and cached briefly in the state store, so the next
// invocation knows it without asking.

// Cache fields: "pg:<playground id or name>" and "mq:<marquee id>", each
// the marquee name it belongs to (reliability.CacheEntry).
func cacheField(kind, ref string) string {
	if kind == "marquee" {
		return "mq:" + ref
	}
	return "pg:" + ref
}

func (c *Client) cacheKey() string { return "marquees-" + c.hostKey }

func marqueeResource(name string) string { return "marquee/" + name }

func (c *Client) cached(kind, ref string) (string, bool) {
	field := cacheField(kind, ref)
	got, err := c.store.CacheGet(c.cacheKey(), field)
	if err != nil {
		return "", false // an unreadable cache is an empty one
	}
	e, ok := got[field]
	if !ok || e.Marquee == "" || c.clock.Now().Sub(e.At) > c.policy.MarqueeCacheTTL {
		return "", false
	}
	return e.Marquee, true
}

// learn records playground and marquee attributions in one store transition.
func (c *Client) learn(pgs []Playground, mqs []Marquee) {
	if len(pgs) == 0 && len(mqs) == 0 {
		return
	}
	c.cacheMu.Lock()
	defer c.cacheMu.Unlock()
	now := c.clock.Now()
	entries := map[string]reliability.CacheEntry{}
	for _, m := range mqs {
		if m.ID != 0 && m.Name != "" {
			entries[cacheField("marquee", strconv.FormatInt(m.ID, 10))] = reliability.CacheEntry{Marquee: m.Name, At: now}
		}
	}
	for _, p := range pgs {
		name := p.MarqueeName
		if name == "" && p.MarqueeID != 0 {
			id := strconv.FormatInt(p.MarqueeID, 10)
			if e, ok := entries[cacheField("marquee", id)]; ok {
				name = e.Marquee
			} else {
				name, _ = c.cached("marquee", id)
			}
		}
		if name == "" {
			continue
		}
		e := reliability.CacheEntry{Marquee: name, At: now}
		if p.ID != 0 {
			entries[cacheField("playground", strconv.FormatInt(p.ID, 10))] = e
		}
		if p.Name != "" {
			entries[cacheField("playground", p.Name)] = e
		}
	}
	if len(entries) == 0 {
		return
	}
	if err := c.store.CachePut(c.cacheKey(), entries, c.policy.MarqueeCacheTTL, now); err != nil {
		c.trace.printf("marquee cache not saved: %v", err)
	}
}

// PlaygroundResource is the breaker resource of requests about playground
// ref: "marquee/<name>" once its marquee is known, else the host resource.
// On a cache miss it is learned from the playground list filtered by name
// (a request about no marquee, so a dead marquee cannot fail the lookup
// itself), or for a numeric id from the playground resource.
func (c *Client) PlaygroundResource(ctx context.Context, ref string) string {
	if name, ok := c.cached("playground", ref); ok {
		return marqueeResource(name)
	}
	if _, err := strconv.ParseInt(ref, 10, 64); err == nil {
		var p Playground
		if _, err := c.call(ctx, &request{method: http.MethodGet, ref: refPath("/api/playgrounds", ref)}, &p); err == nil {
			c.learn([]Playground{p}, nil)
		}
	} else {
		var env listEnvelope[Playground]
		q := listQuery("/api/playgrounds", ListOptions{Name: ref, PerPage: 100})
		if _, err := c.call(ctx, &request{method: http.MethodGet, ref: q}, &env); err == nil {
			c.learn(env.Data, nil)
		}
	}
	if name, ok := c.cached("playground", ref); ok {
		return marqueeResource(name)
	}
	return c.HostResource()
}

// cachedPlaygroundResource attributes without asking the server.
func (c *Client) cachedPlaygroundResource(ref string) string {
	if name, ok := c.cached("playground", ref); ok {
		return marqueeResource(name)
	}
	return c.HostResource()
}

// MarqueeResource is the breaker resource of requests about marquee ref.
func (c *Client) MarqueeResource(ctx context.Context, ref string) string {
	if _, err := strconv.ParseInt(ref, 10, 64); err != nil {
		return marqueeResource(ref) // a name already
	}
	if name, ok := c.cached("marquee", ref); ok {
		return marqueeResource(name)
	}
	// The marquee list (about no marquee) teaches every id → name at once.
	var env listEnvelope[Marquee]
	if _, err := c.call(ctx, &request{method: http.MethodGet, ref: listQuery("/api/marquees", ListOptions{PerPage: 100})}, &env); err == nil {
		c.learn(nil, env.Data)
		for _, m := range env.Data {
			if strconv.FormatInt(m.ID, 10) == ref && m.Name != "" {
				return marqueeResource(m.Name)
			}
		}
	}
	return c.HostResource()
}

// createResource attributes a playground create by its marquee field.
func (c *Client) createResource(ctx context.Context, body map[string]any) string {
	for _, k := range []string{"marquee_id", "marquee", "marquee_name"} {
		switch v := body[k].(type) {
		case string:
			if v != "" {
				return c.MarqueeResource(ctx, v)
			}
		case float64:
			return c.MarqueeResource(ctx, strconv.FormatInt(int64(v), 10))
		case int:
			return c.MarqueeResource(ctx, strconv.Itoa(v))
		case int64:
			return c.MarqueeResource(ctx, strconv.FormatInt(v, 10))
		case json.Number:
			return c.MarqueeResource(ctx, v.String())
		}
	}
	return c.HostResource()
}

func (c *Client) playgroundResolver(ref string) func(context.Context) string {
	return func(ctx context.Context) string { return c.PlaygroundResource(ctx, ref) }
}

func (c *Client) marqueeResolver(ref string) func(context.Context) string {
	return func(ctx context.Context) string { return c.MarqueeResource(ctx, ref) }
}
