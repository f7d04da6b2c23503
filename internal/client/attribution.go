package client

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/fibegg/fibe/internal/reliability"
)

// Requests are attributed to a marquee so that a dead marquee silences only
// the requests about it (docs/contract.md §6). Attribution never costs a request:
// every answer that names a marquee (a playground or its status, a list, a
// create, an async result, a marquee) teaches the cache, kept briefly in
// the state store so the next invocation knows it. Until then a request
// about a playground counts against "playground/<ref as typed>", and one
// about a marquee given by id against "marquee/<id>": never against the
// host, so a dead marquee cannot silence the others through them.

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
// ref: "marquee/<name>" once its marquee is known from an earlier answer,
// else "playground/<ref as typed>". It never sends a request (docs/contract.md §6:
// attribution never costs one); the answer to the request it attributes
// teaches the marquee for the next. ctx is unused and kept for callers.
func (c *Client) PlaygroundResource(_ context.Context, ref string) string {
	return c.cachedPlaygroundResource(ref)
}

// cachedPlaygroundResource attributes from the cache alone.
func (c *Client) cachedPlaygroundResource(ref string) string {
	if name, ok := c.cached("playground", ref); ok {
		return marqueeResource(name)
	}
	return playgroundResource(ref)
}

func playgroundResource(ref string) string { return "playground/" + ref }

// MarqueeResource is the breaker resource of requests about marquee ref:
// "marquee/<name>" for a name, or for an id whose name an earlier answer
// taught, else "marquee/<id>". It never sends a request. ctx is unused and
// kept for callers.
func (c *Client) MarqueeResource(_ context.Context, ref string) string {
	return c.marqueeRef(ref)
}

func (c *Client) marqueeRef(ref string) string {
	if _, err := strconv.ParseInt(ref, 10, 64); err != nil {
		return marqueeResource(ref) // a name already
	}
	if name, ok := c.cached("marquee", ref); ok {
		return marqueeResource(name)
	}
	return marqueeResource(ref)
}

// createResource attributes a playground create by its marquee field, or
// to the host when it names none (the server then picks one).
func (c *Client) createResource(body map[string]any) string {
	for _, k := range []string{"marquee_id", "marquee", "marquee_name"} {
		switch v := body[k].(type) {
		case string:
			if v != "" {
				return c.marqueeRef(v)
			}
		case float64:
			return c.marqueeRef(strconv.FormatInt(int64(v), 10))
		case int:
			return c.marqueeRef(strconv.Itoa(v))
		case int64:
			return c.marqueeRef(strconv.FormatInt(v, 10))
		case json.Number:
			return c.marqueeRef(v.String())
		}
	}
	return c.HostResource()
}
