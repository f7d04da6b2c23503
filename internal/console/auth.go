package console

import (
	"crypto/subtle"
	"net/http"
	"net/url"
	"strings"
	"time"
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
	mux.HandleFunc("GET /{resource}", s.resourcePage)
	mux.HandleFunc("POST /{resource}", s.createResource)
	mux.HandleFunc("GET /assets/", serveAsset)
	return s.guard(mux)
}

// favicon answers /favicon.ico, which browsers ask for on their own: no
// content, and not a 404 in the log.
func favicon(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Cache-Control", "max-age=86400")
	w.WriteHeader(http.StatusNoContent)
}

// The console's pages may be framed by nothing (clickjacking); a page's
// own policy (pagePolicy) adds what it loads. Everything else (assets,
// errors, streams) gets the strictest one.
const basePolicy = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

// pagePolicy is the Content-Security-Policy of a page: scripts, styles and
// connections from the console only, plus the inline scripts and style
// elements that carry the session's nonce (Turbo and xterm create style
// elements; xterm sets style attributes, which cannot carry a nonce);
// frames from the preview origin only; framed by nothing.
func (s *Server) pagePolicy(nonce, frameSrc string) string {
	if frameSrc == "" {
		frameSrc = "'none'"
	}
	n := "'nonce-" + nonce + "'"
	return "default-src 'self'; script-src 'self' " + n + "; style-src 'self' " + n + "; style-src-attr 'unsafe-inline'; " +
		"img-src 'self' data:; connect-src 'self'; frame-src " + frameSrc + "; " +
		"frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"
}

func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Content-Security-Policy", basePolicy)
		if !s.hosts[strings.ToLower(r.Host)] {
			http.Error(w, "421 misdirected request: this console answers only to its own address", http.StatusMisdirectedRequest)
			return
		}
		if r.URL.Path == "/favicon.ico" {
			favicon(w, r)
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
		defer s.idle(sess)
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
		s.sessions[id] = &session{csrf: randomHex(32), nonce: randomHex(16), lastSeen: time.Now()}
	}
	s.mu.Unlock()
	if !ok {
		http.Error(w, "401 unauthorized: this login link was already used; restart fibe console for a new one", http.StatusUnauthorized)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: id, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, afterLogin(r.URL), http.StatusSeeOther)
}

// afterLogin is where the login redirects: the same path of the console
// without the token. A path that a browser would read as another host
// (//evil.example/, /\evil.example/) is not one of the console: the list.
func afterLogin(u *url.URL) string {
	p := u.EscapedPath()
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.HasPrefix(p, "/\\") || strings.ContainsAny(p, "\\\r\n") {
		return "/"
	}
	q := u.Query()
	q.Del("token")
	if len(q) == 0 {
		return p
	}
	return p + "?" + q.Encode()
}

// sessionOf is the request's session, unless it expired (idle for
// IdleTimeout with no request running); the request counts as running
// until idle is called.
func (s *Server) sessionOf(r *http.Request) *session {
	c, err := r.Cookie(cookieName)
	if err != nil || c.Value == "" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sess := s.sessions[c.Value]
	if sess == nil {
		return nil
	}
	now := time.Now()
	if sess.active == 0 && now.Sub(sess.lastSeen) > s.cfg.IdleTimeout {
		delete(s.sessions, c.Value)
		return nil
	}
	sess.active++
	sess.lastSeen = now
	return sess
}

// idle ends a request of sess: its idle time starts now unless another
// runs.
func (s *Server) idle(sess *session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess.active--
	sess.lastSeen = time.Now()
}

func validCSRF(sess *session, r *http.Request) bool {
	got := r.Header.Get(csrfHeader)
	if got == "" {
		r.Body = http.MaxBytesReader(nil, r.Body, 1<<20)
		got = r.PostFormValue(csrfField)
	}
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(sess.csrf)) == 1
}
