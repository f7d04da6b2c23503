package console

import (
	"context"
	"net/http"
	"time"
)

// previewPage is the emulator's web page of a running playground, served
// on the console's own server with --api-url local: a text field, a
// counter that starts at load and the load time, so a reset shows.
func (s *Server) previewPage(w http.ResponseWriter, r *http.Request) {
	if !s.cfg.Local {
		http.NotFound(w, r)
		return
	}
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
