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
)

// HTTPOptions configure the streamable HTTP transport.
type HTTPOptions struct {
	// Token is the bearer token every request must carry.
	Token string
	// AllowRemote accepts any Host header (the listener may be on a
	// non-loopback address); Origin is still checked.
	AllowRemote bool
}

// HTTPHandler serves s over streamable HTTP behind three checks: the Host
// header names a loopback host (DNS rebinding) unless AllowRemote, an
// Origin header, when present, is a loopback origin or the Host itself, and
// the Authorization header carries the bearer token.
func HTTPHandler(s *mcp.Server, o HTTPOptions) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{
		// The checks below replace the SDK's own Host check, so that
		// --allow-remote can lift it.
		DisableLocalhostProtection: true,
		// A client that hangs up stops its call (newer protocol revisions).
		PropagateRequestCancellation: true,
	})
	want := []byte("Bearer " + o.Token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !o.AllowRemote && !LoopbackHost(hostOnly(r.Host)) {
			http.Error(w, "forbidden: Host is not a loopback name", http.StatusForbidden)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && !allowedOrigin(origin, r.Host) {
			http.Error(w, "forbidden: foreign Origin", http.StatusForbidden)
			return
		}
		got := []byte(r.Header.Get("Authorization"))
		if o.Token == "" || subtle.ConstantTimeCompare(got, want) != 1 {
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

// LoopbackHost reports whether host (no port) is localhost or a loopback IP.
func LoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return hostport
}

func allowedOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return LoopbackHost(u.Hostname()) || strings.EqualFold(u.Host, host)
}
