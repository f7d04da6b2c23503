package client

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// Requests are attributed to a marquee so that a dead marquee silences only
// the requests about it. A playground's marquee is learned from the
// playground resource and cached briefly in the state store, so the next
// invocation knows it without asking.

type marqueeCache struct {
	Playgrounds map[string]cacheEntry `json:"playgrounds"` // playground id or name → marquee name
	Marquees    map[string]cacheEntry `json:"marquees"`    // marquee id → marquee name
}

type cacheEntry struct {
	Marquee string    `json:"marquee"`
	At      time.Time `json:"at"`
}

func (c *Client) cacheKey() string { return "marquees-" + c.hostKey }

func marqueeResource(name string) string { return "marquee/" + name }

func (c *Client) loadCache() marqueeCache {
	var mc marqueeCache
	if data, err := c.store.Load(c.cacheKey()); err == nil && len(data) > 0 {
		_ = json.Unmarshal(data, &mc) // a corrupt cache is an empty one
	}
	return mc
}

func (c *Client) cached(kind, ref string) (string, bool) {
	mc := c.loadCache()
	m := mc.Playgrounds
	if kind == "marquee" {
		m = mc.Marquees
	}
	e, ok := m[ref]
	if !ok || e.Marquee == "" || c.clock.Now().Sub(e.At) > c.policy.MarqueeCacheTTL {
		return "", false
	}
	return e.Marquee, true
}

// learn records playground and marquee attributions in one store update.
func (c *Client) learn(pgs []Playground, mqs []Marquee) {
	if len(pgs) == 0 && len(mqs) == 0 {
		return
	}
	c.cacheMu.Lock()
	defer c.cacheMu.Unlock()
	now := c.clock.Now()
	err := c.store.Update(c.cacheKey(), func(old []byte) ([]byte, error) {
		var mc marqueeCache
		_ = json.Unmarshal(old, &mc)
		if mc.Playgrounds == nil {
			mc.Playgrounds = map[string]cacheEntry{}
		}
		if mc.Marquees == nil {
			mc.Marquees = map[string]cacheEntry{}
		}
		for k, e := range mc.Playgrounds { // keep the file small
			if now.Sub(e.At) > c.policy.MarqueeCacheTTL {
				delete(mc.Playgrounds, k)
			}
		}
		for _, m := range mqs {
			if m.ID != 0 && m.Name != "" {
				mc.Marquees[strconv.FormatInt(m.ID, 10)] = cacheEntry{Marquee: m.Name, At: now}
			}
		}
		for _, p := range pgs {
			name := p.MarqueeName
			if name == "" && p.MarqueeID != 0 {
				name = mc.Marquees[strconv.FormatInt(p.MarqueeID, 10)].Marquee
			}
			if name == "" {
				continue
			}
			e := cacheEntry{Marquee: name, At: now}
			if p.ID != 0 {
				mc.Playgrounds[strconv.FormatInt(p.ID, 10)] = e
			}
			if p.Name != "" {
				mc.Playgrounds[p.Name] = e
			}
		}
		return json.Marshal(mc)
	})
	if err != nil {
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
