package localapi

import (
	"io"
	"net"
	"net/http"
	"strconv"
)

// ServeHTTP serves the API, the /_local controls and /cable.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/cable" {
		w.Header().Set("X-Request-Id", newID("req_"))
		s.cable.ServeHTTP(w, r)
		return
	}
	defer s.recoverHTTP(w, r)
	if s.serveDevice(w, r) || s.serveSchema(w, r) || s.serveHealth(w, r) {
		return
	}

	body, tooLarge, err := readBody(r.Body, r.ContentLength)
	if err != nil {
		return // the client went away mid-body
	}
	out := s.handle(&call{
		ctx: r.Context(), method: r.Method, path: r.URL.EscapedPath(), query: r.URL.Query(),
		rawQuery: r.URL.RawQuery, header: r.Header, body: body, tooLarge: tooLarge,
		scheme: requestScheme(r), host: r.Host,
	})
	if out.err != nil {
		return
	}
	switch out.after {
	case afterReset:
		resetConnection(w)
		return
	case afterHang:
		if err := s.wait(r.Context(), out.hang); err != nil {
			if err == errServerClosed {
				resetConnection(w)
			}
			return // the client gave up; nobody to answer
		}
	}
	writeReply(w, out.reply)
}

// recoverHTTP is the last line of defence: a panic outside the handlers
// becomes a 500 envelope (when nothing was written yet) and a log line.
func (s *Server) recoverHTTP(w http.ResponseWriter, r *http.Request) {
	v := recover()
	if v == nil {
		return
	}
	if v == http.ErrAbortHandler {
		panic(v)
	}
	s.cfg.Logf("localapi: panic serving %s %s: %v", r.Method, r.URL.Path, v)
	rep := s.errorReply(errInternal, "")
	rep.header.Set("X-Request-Id", newID("req_"))
	writeReply(w, rep)
}

// readBody reads at most maxBodyBytes; more is reported, not read.
func readBody(rc io.ReadCloser, contentLength int64) ([]byte, bool, error) {
	if rc == nil || rc == http.NoBody {
		return nil, false, nil
	}
	defer rc.Close()
	if contentLength > maxBodyBytes {
		return nil, true, nil
	}
	b, err := io.ReadAll(io.LimitReader(rc, maxBodyBytes+1))
	if err != nil {
		return nil, false, err
	}
	if len(b) > maxBodyBytes {
		return nil, true, nil
	}
	return b, false, nil
}

func requestScheme(r *http.Request) string {
	if p := r.Header.Get("X-Forwarded-Proto"); p == "https" || p == "http" {
		return p
	}
	if r.TLS != nil {
		return "https"
	}
	return "http"
}

func writeReply(w http.ResponseWriter, rep *reply) {
	h := w.Header()
	for k, v := range rep.header {
		h[k] = v
	}
	if rep.status != http.StatusNoContent {
		h.Set("Content-Length", strconv.Itoa(len(rep.body)))
	}
	w.WriteHeader(rep.status)
	if rep.status != http.StatusNoContent {
		_, _ = w.Write(rep.body)
	}
}

// resetConnection drops the connection without an answer, with a TCP RST
// where possible, as a crashed proxy would.
func resetConnection(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tcp, ok := conn.(*net.TCPConn); ok {
		_ = tcp.SetLinger(0)
	}
	_ = conn.Close()
}
