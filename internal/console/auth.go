package console

import (
	"crypto/subtle"
	"net/http"
	"strings"
)

const (
	cookieName = "fibe_console"
	csrfField  = "authenticity_token"
	csrfHeader = "X-CSRF-Token"
)

// Handler is the console's whole HTTP surface behind its guards: the Host
// check, the login token exchange, the session cookie and CSRF.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.listPage)
	mux.HandleFunc("GET /playgrounds/{ref}", s.playgroundPage)
	mux.HandleFunc("POST /playgrounds/{ref}/actions/{action}", s.postAction)
	mux.HandleFunc("POST /playgrounds/{ref}/settings", s.saveSettings)
	mux.HandleFunc("PATCH /playgrounds/{ref}/settings", s.saveSettings)
	mux.HandleFunc("GET /events/playgrounds", s.listEvents)
	mux.HandleFunc("GET /events/playgrounds/{ref}", s.playgroundEvents)
	mux.HandleFunc("GET /streams/url", s.streamURL)
	mux.HandleFunc("GET /streams/ws/{ticket}", s.streamRelay)
	mux.HandleFunc("GET /assets/", serveAsset)
	mux.HandleFunc("GET /_preview/{ref}/", s.previewPage)
	return s.guard(mux)
}

func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		if !s.hosts[strings.ToLower(r.Host)] {
			http.Error(w, "421 misdirected request: this console answers only to its own address", http.StatusMisdirectedRequest)
			return
		}
		if tok := r.URL.Query().Get("token"); tok != "" && r.Method == http.MethodGet {
			s.login(w, r, tok)
			return
		}
		sess := s.sessionOf(r)
		if sess == nil {
			http.Error(w, "401 unauthorized: open the URL that fibe console printed", http.StatusUnauthorized)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			if !validCSRF(sess, r) {
				http.Error(w, "403 forbidden: missing or wrong CSRF token", http.StatusForbidden)
				return
			}
		}
		next.ServeHTTP(w, r.WithContext(withSession(r.Context(), sess)))
	})
}

// login exchanges the single-use token for a session cookie and redirects
// to the same URL without the token. A second use gets no cookie.
func (s *Server) login(w http.ResponseWriter, r *http.Request, tok string) {
	s.mu.Lock()
	ok := !s.used && subtle.ConstantTimeCompare([]byte(tok), []byte(s.token)) == 1
	var id string
	if ok {
		s.used = true
		id = randomHex(32)
		s.sessions[id] = &session{csrf: randomHex(32)}
	}
	s.mu.Unlock()
	if !ok {
		http.Error(w, "401 unauthorized: this login link was already used; restart fibe console for a new one", http.StatusUnauthorized)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: id, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	u := *r.URL
	q := u.Query()
	q.Del("token")
	u.RawQuery = q.Encode()
	http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
}

func (s *Server) sessionOf(r *http.Request) *session {
	c, err := r.Cookie(cookieName)
	if err != nil || c.Value == "" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessions[c.Value]
}

func validCSRF(sess *session, r *http.Request) bool {
	got := r.Header.Get(csrfHeader)
	if got == "" {
		r.Body = http.MaxBytesReader(nil, r.Body, 1<<20)
		got = r.PostFormValue(csrfField)
	}
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(sess.csrf)) == 1
}
