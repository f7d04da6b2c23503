package console

import (
	"context"
	"net/http"
	"strings"
	"time"
)

// previewHandler serves the preview listener: the emulator's page of each
// running playground, on an origin of its own. The console's pages frame
// it in a sandboxed iframe; it may be framed by the console's origin only,
// and it answers only to its own address (DNS rebinding). It needs no
// session: a preview page shows nothing of the account.
func (s *Server) previewHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /_preview/{ref}/", s.previewPage)
	var ancestors []string
	for h := range s.hosts {
		ancestors = append(ancestors, "http://"+h)
	}
	policy := "frame-ancestors " + strings.Join(ancestors, " ")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Content-Security-Policy", policy)
		if !s.previewHosts[strings.ToLower(r.Host)] {
			http.Error(w, "421 misdirected request: this preview server answers only to its own address", http.StatusMisdirectedRequest)
			return
		}
		if r.URL.Path == "/favicon.ico" {
			favicon(w, r)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// previewPage is the emulator's web page of a running playground: a text
// field, a counter that starts at load and the load time, so a reset shows.
func (s *Server) previewPage(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 20*time.Second)
	defer cancel()
	pg, _, err := s.api.Playgrounds.Get(ctx, r.PathValue("ref"))
	if err != nil || pg.Status != "running" {
		http.Error(w, "404 not found: no running playground by that name", http.StatusNotFound)
		return
	}
	var buf = map[string]string{"Name": pg.Name, "Playspec": pg.PlayspecName}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if err := templates().ExecuteTemplate(w, "preview.html", buf); err != nil {
		s.cfg.Logf("console: preview: %v", err)
	}
}
