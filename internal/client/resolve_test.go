package client

import (
	"net/http"
	"testing"
)

// A name with a slash is one path segment: its escaping must survive a
// base URL that carries a path prefix (an API behind a reverse proxy).
func TestEscapedNameSurvivesABasePathPrefix(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		replyJSON(w, 200, map[string]any{"id": 7, "name": "team/preview one"})
	})
	for _, base := range []string{srv.URL, srv.URL + "/fibe"} {
		c, _ := newTestClient(t, base)
		before := rec.count()
		if _, _, err := c.Playgrounds.Get(ctxT(t), "team/preview one"); err != nil {
			t.Fatal(err)
		}
		reqs := rec.all()[before:]
		got := reqs[len(reqs)-1].Path
		want := "/api/playgrounds/team%2Fpreview%20one"
		if base != srv.URL {
			want = "/fibe" + want
		}
		if got != want {
			t.Fatalf("base %s: sent %s, want %s", base, got, want)
		}
	}
}
