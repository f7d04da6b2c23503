package console

import (
	"context"
	"fmt"
	"html/template"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/fibegg/fibe/internal/client"
)

// turboStream renders one <turbo-stream> element.
func turboStream(action, target, html string) string {
	if action == "refresh" {
		return `<turbo-stream action="refresh"></turbo-stream>`
	}
	return fmt.Sprintf(`<turbo-stream action="%s" target="%s"><template>%s</template></turbo-stream>`,
		action, template.HTMLEscapeString(target), html)
}

const keepAlive = 15 * time.Second

// serveEvents is an SSE endpoint of Turbo Streams for one topic.
func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request, key string, mk func() poller) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "500 internal error: streaming unsupported", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	s.events.Add(1)
	sub, unwatch := s.hub.watch(key, mk)
	defer unwatch()
	_, _ = fmt.Fprint(w, ": connected\n\n")
	fl.Flush()
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.ctx.Done():
			return
		case <-tick.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return
			}
			fl.Flush()
		case msg, ok := <-sub.ch:
			if !ok {
				return
			}
			if err := writeEvent(w, msg); err != nil {
				return
			}
			fl.Flush()
		}
	}
}

func writeEvent(w http.ResponseWriter, msg string) error {
	var b strings.Builder
	for _, line := range strings.Split(msg, "\n") {
		b.WriteString("data: ")
		b.WriteString(strings.TrimSuffix(line, "\r"))
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	_, err := fmt.Fprint(w, b.String())
	return err
}

func (s *Server) listEvents(w http.ResponseWriter, r *http.Request) {
	s.serveEvents(w, r, "list", func() poller { return &listPoller{api: s.api} })
}

func (s *Server) playgroundEvents(w http.ResponseWriter, r *http.Request) {
	ref := r.PathValue("ref")
	s.serveEvents(w, r, pgTopic(ref), func() poller { return &playgroundPoller{s: s, ref: ref} })
}

func pgTopic(ref string) string { return "pg:" + ref }

// pollTimeout bounds one poll, retries included.
const pollTimeout = 20 * time.Second

// listPoller polls the list once for all rows.
type listPoller struct {
	api *client.Client

	mu   sync.Mutex
	rows map[int64]string // id → rendered row
	ids  string           // the set of ids, in order
	err  string           // rendered #api-error
}

func (p *listPoller) poll(ctx context.Context) []string {
	ctx, cancel := context.WithTimeout(ctx, pollTimeout)
	defer cancel()
	pgs, err := p.api.Playgrounds.ListAll(ctx, client.ListOptions{})
	if ctx.Err() != nil && err != nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	out := errorStream(&p.err, err)
	if err != nil {
		return out
	}
	sortPlaygrounds(pgs)
	rows := make(map[int64]string, len(pgs))
	var ids strings.Builder
	for i := range pgs {
		rows[pgs[i].ID] = fragment("row", pgs[i])
		fmt.Fprintf(&ids, "%d,", pgs[i].ID)
	}
	first := p.rows == nil
	if !first && ids.String() != p.ids {
		out = append(out, turboStream("refresh", "", ""))
	} else if !first {
		for i := range pgs {
			id := pgs[i].ID
			if rows[id] != p.rows[id] {
				out = append(out, turboStream("replace", fmt.Sprintf("playground_%d", id), rows[id]))
			}
		}
	}
	p.rows, p.ids = rows, ids.String()
	return out
}

func (p *listPoller) snapshot() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := []string{}
	for id, row := range p.rows {
		out = append(out, turboStream("replace", fmt.Sprintf("playground_%d", id), row))
	}
	return out
}

// playgroundPoller polls one playground.
type playgroundPoller struct {
	s   *Server
	ref string

	mu      sync.Mutex
	seen    bool
	summary string // rendered #playground_summary
	shape   string // what a whole-page refresh is for: services, preview URL
	err     string
}

func (p *playgroundPoller) poll(ctx context.Context) []string {
	ctx, cancel := context.WithTimeout(ctx, pollTimeout)
	defer cancel()
	pg, _, err := p.s.api.Playgrounds.Get(ctx, p.ref)
	if ctx.Err() != nil && err != nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	out := errorStream(&p.err, err)
	if err != nil {
		return out
	}
	summary := fragment("summary", pg)
	shape := p.s.pageShape(pg)
	if p.seen && summary != p.summary {
		out = append(out, turboStream("replace", "playground_summary", summary))
	}
	if p.seen && shape != p.shape {
		out = append(out, turboStream("refresh", "", ""))
	}
	p.seen, p.summary, p.shape = true, summary, shape
	return out
}

func (p *playgroundPoller) snapshot() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.seen {
		return nil
	}
	return []string{turboStream("replace", "playground_summary", p.summary)}
}

// pageShape is what changes the page beyond its summary: the services and
// the preview URL. A change of it is sent as a whole-page refresh.
func (s *Server) pageShape(pg *client.Playground) string {
	var b strings.Builder
	for _, sv := range pg.Services {
		fmt.Fprintf(&b, "%s=%s;", sv.Name, sv.Status)
	}
	b.WriteString("|" + s.previewSrc(pg))
	return b.String()
}

// Publish sends a Turbo Stream to every tab watching a playground page
// (ref as in its URL).
func (s *Server) Publish(ref, stream string) { s.hub.publish(pgTopic(ref), stream) }

// errorStream is the stream that shows a poll's error in #api-error (or
// clears it), sent only when what the pane shows changes; last is what it
// shows now.
func errorStream(last *string, err error) []string {
	html := fragment("api-error", errorOf(err))
	if html == *last {
		return nil
	}
	*last = html
	return []string{turboStream("replace", "api-error", html)}
}
