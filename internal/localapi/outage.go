package localapi

import (
	"encoding/json"
	"strings"
)

// requestMarquee names the marquee a request is about, for outage windows:
// the marquee itself, a playground's marquee, an operation's marquee, or
// the marquee a new playground is being created on.
func (rc *reqCtx) requestMarquee(rt *route) string {
	st := rc.st
	name := func(id int64) string {
		if m := st.marqueeByID(id); m != nil {
			return m.Name
		}
		return ""
	}
	switch {
	case strings.HasPrefix(rt.pattern, "/api/playgrounds/{id}"):
		if pg := st.findPlayground(rc.param(0)); pg != nil {
			return name(pg.MarqueeID)
		}
	case strings.HasPrefix(rt.pattern, "/api/marquees/{id}"):
		if m := st.findMarquee(rc.param(0)); m != nil {
			return m.Name
		}
	case rt.pattern == "/api/async_requests/{id}" || rt.pattern == altStatusPattern:
		if op := st.Ops[rc.param(0)]; op != nil {
			return name(op.MarqueeID)
		}
	case rt.pattern == "/api/playgrounds" && rt.method == "POST":
		var body struct {
			Playground struct {
				MarqueeID any `json:"marquee_id"`
			} `json:"playground"`
		}
		if json.Unmarshal(rc.c.body, &body) != nil {
			return ""
		}
		switch v := body.Playground.MarqueeID.(type) {
		case nil:
			if m := st.defaultMarquee(); m != nil {
				return m.Name
			}
		case string:
			if m := st.findMarquee(v); m != nil {
				return m.Name
			}
		case float64:
			return name(int64(v))
		}
	}
	return ""
}
