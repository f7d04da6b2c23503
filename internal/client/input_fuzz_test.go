package client

import (
	"io"
	"net/http"
	"net/url"
	"path"
	"strings"
	"testing"
)

// A path APIPath accepts never leaves /api on the API's host once
// resolved, whatever its dots, escapes or slashes.
func FuzzAPIPath(f *testing.F) {
	for _, s := range []string{"playgrounds", "/api/../../landed", "%2e%2e/x", "a/./b", "//evil.example/x", "x?y=/../z",
		"/api/playgrounds/a%2Fb", `a\..\b`, "http://x/api", "api?x", ".%2E/x", "playgrounds/%252e%252e/x"} {
		f.Add(s)
	}
	base, _ := url.Parse("https://api.example/base/")
	f.Fuzz(func(t *testing.T, raw string) {
		p, err := APIPath(raw)
		if err != nil {
			return
		}
		u, err := base.Parse(p)
		if err != nil {
			return // the client refuses it as a bad URL, sending nothing
		}
		if u.Host != "api.example" || u.Scheme != "https" {
			t.Fatalf("APIPath(%q) = %q resolves to another origin: %s", raw, p, u)
		}
		clean := path.Clean("/" + u.Path)
		if clean != "/api" && !strings.HasPrefix(clean, "/api/") {
			t.Fatalf("APIPath(%q) = %q resolves outside /api: %s", raw, p, clean)
		}
		if hasDotSegment(p) {
			t.Fatalf("APIPath(%q) = %q kept a dot segment", raw, p)
		}
	})
}

// A header ValidateHeader accepts is one net/http writes as one header:
// no line break, nothing that would fail or split the request.
func FuzzValidateHeader(f *testing.F) {
	for _, s := range [][2]string{{"X-A", "b"}, {"X-Evil", "a\r\nInjected: 1"}, {"X\nY", "v"}, {"", ""}, {"X-Tab", "a\tb"},
		{"Host", "evil"}, {"X-U", "caf\u00e9"}, {"X-Nul", "\x00"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, name, value string) {
		if ValidateHeader(name, value) != nil {
			return
		}
		if strings.ContainsAny(name+value, "\r\n\x00") {
			t.Fatalf("accepted a line break or NUL: %q: %q", name, value)
		}
		req, err := http.NewRequest(http.MethodGet, "http://127.0.0.1/api/me", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header[http.CanonicalHeaderKey(name)] = []string{value}
		if err := req.Write(io.Discard); err != nil {
			t.Fatalf("accepted %q: %q, which net/http refuses: %v", name, value, err)
		}
	})
}
