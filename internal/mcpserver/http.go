package mcpserver

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fibegg/fibe/internal/client"
)

// HTTPOptions configure the streamable HTTP transport.
type HTTPOptions struct {
	// Token is the bearer token every request must carry.
	Token string
	// AllowRemote accepts any Host header (the listener may be on a
	// non-loopback address); Origin is still checked.
	AllowRemote bool
	// Origins are browser origins allowed besides the server's own
	// (--allow-origin), e.g. "http://localhost:3000".
	Origins []string
}

// HTTPHandler serves s over streamable HTTP behind three checks: the Host
// header names a loopback host (client.IsLoopbackHost: DNS rebinding)
// unless AllowRemote, an
// Origin header, when present, is the server's own origin or one of
// o.Origins, and the Authorization header carries the bearer token (the
// scheme's case does not matter, RFC 9110).
func HTTPHandler(s *mcp.Server, o HTTPOptions) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{
		// The checks below replace the SDK's own Host check, so that
		// --allow-remote can lift it.
		DisableLocalhostProtection: true,
		// A client that hangs up stops its call (newer protocol revisions).
		PropagateRequestCancellation: true,
		// No EventStore: a call the client cancelled has its stream ended
		// without its response (endStreamOnCancel), and with no store
		// the SDK keeps nothing a resumed stream could replay it from.
	})
	want := []byte(o.Token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !o.AllowRemote && !client.IsLoopbackHost(hostOnly(r.Host)) {
			http.Error(w, "forbidden: Host is not a loopback name", http.StatusForbidden)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && !allowedOrigin(origin, r.Host, o.Origins) {
			http.Error(w, "forbidden: foreign Origin", http.StatusForbidden)
			return
		}
		scheme, token, _ := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
		got := []byte(strings.TrimSpace(token))
		if o.Token == "" || !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="fibe"`)
			http.Error(w, "unauthorized: missing or wrong bearer token", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// NewToken returns a random bearer token.
func NewToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return "fibe_mcp_" + hex.EncodeToString(b), nil
}

func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return hostport
}

// allowedOrigin: the server's own origin (the Host the request came to, or
// a loopback name on the same port), or one the user named.
func allowedOrigin(origin, host string, extra []string) bool {
	for _, o := range extra {
		if strings.EqualFold(strings.TrimSuffix(o, "/"), origin) {
			return true
		}
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || u.Scheme != "http" {
		return false
	}
	if strings.EqualFold(u.Host, host) {
		return true
	}
	_, hostPort, err := net.SplitHostPort(host)
	return err == nil && client.IsLoopbackHost(hostOnly(host)) && client.IsLoopbackHost(u.Hostname()) && u.Port() == hostPort
}
