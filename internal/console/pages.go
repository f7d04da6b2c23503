package console

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/reliability"
	"github.com/fibegg/fibe/internal/resource"
)

type ctxKey struct{}

func withSession(ctx context.Context, s *session) context.Context {
	return context.WithValue(ctx, ctxKey{}, s)
}

func sessionFrom(ctx context.Context) *session {
	s, _ := ctx.Value(ctxKey{}).(*session)
	return s
}

// actionNames are the buttons of a playground page, in order: the
// playground's actions as its description has them (by their wire name,
// which the form's URL carries), then delete.
func actionNames() []struct{ Action, Label string } {
	acts := resource.Playgrounds().Actions
	out := make([]struct{ Action, Label string }, 0, len(acts)+1)
	for _, a := range acts {
		out = append(out, struct{ Action, Label string }{a.Wire, strings.ToUpper(a.Name[:1]) + a.Name[1:]})
	}
	return append(out, struct{ Action, Label string }{"delete", "Delete"})
}

// errorView is an error as the page shows it: the CLI's one error line,
// and its code and request id as attributes, all from the shared
// presenter, plus what finishes the operation when its outcome is unknown.
type errorView struct {
	Code, RequestID, line, resume string
}

func (e *errorView) Line() string {
	if e == nil {
		return ""
	}
	if e.resume != "" {
		return e.line + " — " + e.resume
	}
	return e.line
}

func errorOf(err error) *errorView {
	if err == nil {
		return nil
	}
	body := output.ErrorBodyOf(err)
	v := &errorView{Code: body.Code, RequestID: body.RequestID, line: oneLine(output.ErrorLine(err))}
	switch r := body.Resume; {
	case r == nil:
	case r.WaitRequestID != "":
		v.resume = "operation " + r.WaitRequestID + " was accepted and may still finish"
	case r.IdempotencyKey != "":
		v.resume = "outcome unknown: it may have been applied; submit it again to finish it (the form keeps its key)"
	}
	return v
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// page is what the layout needs.
type page struct {
	Title        string
	CSRF         string
	Nonce        string // the session's CSP nonce
	AssetVersion string
	APILabel     string
	Nav          []navLink
	Body         any
}

type listView struct {
	Playgrounds []client.Playground
	Err         *errorView
}

type actionForm struct {
	Ref, Action, Label, Key, CSRF string
}

type playgroundView struct {
	PG          *client.Playground
	Ref         string
	CSRF        string
	Actions     []actionForm
	Err         *errorView
	Op          *opView
	PreviewSrc  string
	Env         string
	SettingsKey string
	Expires     string
	Panes       map[string]bool // which of logs, terminal, preview to show
}

func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, name, title string, body any) {
	var buf bytes.Buffer
	p := page{Title: title, AssetVersion: assetVersion(), APILabel: s.cfg.APILabel, Nav: navLinks(), Body: body}
	if sess := sessionFrom(r.Context()); sess != nil {
		p.CSRF, p.Nonce = sess.csrf, sess.nonce
	}
	if err := templates().ExecuteTemplate(&buf, name, p); err != nil {
		s.cfg.Logf("console: rendering %s: %v", name, err)
		http.Error(w, "500 internal error: could not render the page", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Security-Policy", s.pagePolicy(p.Nonce, s.frameSrc(body)))
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// fragment renders one named template into a string.
func fragment(name string, data any) string {
	var buf bytes.Buffer
	if err := templates().ExecuteTemplate(&buf, name, data); err != nil {
		return ""
	}
	return buf.String()
}

func (s *Server) listPage(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
	defer cancel()
	pgs, err := s.api.Playgrounds.ListAll(ctx, client.ListOptions{})
	sortPlaygrounds(pgs)
	s.render(w, r, http.StatusOK, "list.html", "Playgrounds", listView{Playgrounds: pgs, Err: errorOf(err)})
}

func sortPlaygrounds(pgs []client.Playground) {
	sort.SliceStable(pgs, func(i, j int) bool { return pgs[i].ID < pgs[j].ID })
}

func (s *Server) playgroundPage(w http.ResponseWriter, r *http.Request) {
	ref := r.PathValue("ref")
	ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
	defer cancel()
	pg, _, err := s.api.Playgrounds.Get(ctx, ref)
	if err != nil {
		status := http.StatusBadGateway
		if client.IsNotFound(err) {
			status = http.StatusNotFound
		}
		s.render(w, r, status, "playground.html", ref, s.playgroundView(r, ref, nil, err))
		return
	}
	s.render(w, r, http.StatusOK, "playground.html", pg.Name, s.playgroundView(r, ref, pg, nil))
}

func (s *Server) playgroundView(r *http.Request, ref string, pg *client.Playground, err error) playgroundView {
	v := playgroundView{PG: pg, Ref: ref, Err: errorOf(err)}
	if sess := sessionFrom(r.Context()); sess != nil {
		v.CSRF = sess.csrf
	}
	if pg != nil {
		v.Ref = fmt.Sprint(pg.ID)
		v.PreviewSrc = s.previewSrc(pg)
		if pg.ExpiresAt != nil {
			v.Expires = pg.ExpiresAt.UTC().Format(time.RFC3339)
		}
	}
	v.Actions = actionForms(v.Ref, v.CSRF)
	v.SettingsKey = reliability.NewIdempotencyKey()
	v.Op = s.ops.latest(v.Ref)
	v.Panes = panesOf(r.URL.Query().Get("panes"))
	return v
}

// actionForms mints a fresh idempotency key per form: a double submit of
// one rendered form is one logical operation.
func actionForms(ref, csrf string) []actionForm {
	names := actionNames()
	out := make([]actionForm, 0, len(names))
	for _, a := range names {
		out = append(out, actionForm{Ref: ref, Action: a.Action, Label: a.Label, Key: reliability.NewIdempotencyKey(), CSRF: csrf})
	}
	return out
}

// previewSrc is the iframe's URL: the emulator's preview page on the
// preview listener, or the playground's first web URL; "" when there is
// none (the pane shows a placeholder, never a page of the console).
func (s *Server) previewSrc(pg *client.Playground) string {
	if pg.Status != "running" {
		return ""
	}
	if s.cfg.Local {
		return s.PreviewBaseURL() + "/_preview/" + url.PathEscape(pg.Name) + "/"
	}
	for _, u := range pg.ServiceURLs {
		if strings.HasPrefix(u.URL, "http://") || strings.HasPrefix(u.URL, "https://") {
			return u.URL
		}
	}
	return ""
}

// frameSrc is the page's CSP frame-src: the preview listener's origin
// with --api-url local, else the origin of the page's preview (if any).
func (s *Server) frameSrc(body any) string {
	if s.cfg.Local {
		return s.PreviewBaseURL()
	}
	if v, ok := body.(playgroundView); ok && v.PreviewSrc != "" {
		if u, err := url.Parse(v.PreviewSrc); err == nil && u.Host != "" {
			return u.Scheme + "://" + u.Host
		}
	}
	return ""
}

// panesOf reads ?panes=logs,terminal,preview (a page showing only some
// panes; ?panes=none shows none); all three by default.
func panesOf(q string) map[string]bool {
	all := map[string]bool{"logs": true, "terminal": true, "preview": true}
	if q == "" {
		return all
	}
	out := map[string]bool{}
	for _, p := range strings.Split(q, ",") {
		if all[p] {
			out[p] = true
		}
	}
	return out
}
