package localapi

import (
	"context"
	"net/http"
	"net/url"
	"testing"
)

// BenchmarkHandle measures the pipeline without a socket: a read, a list,
// a mutation refused by validation and a body refused before the handler.
func BenchmarkHandle(b *testing.B) {
	s, err := New(Config{RateLimit: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for _, tc := range []struct {
		name, method, path string
		body               string
	}{
		{"get", "GET", "/api/me", ""},
		{"list", "GET", "/api/marquees", ""},
		{"refused-mutation", "POST", "/api/playgrounds", `{"playground":{"name":"Bad Name"}}`},
		{"malformed-body", "POST", "/api/playgrounds", `{`},
	} {
		b.Run(tc.name, func(b *testing.B) {
			h := http.Header{}
			h.Set("Authorization", "Bearer "+DefaultAPIKey)
			h.Set("Content-Type", "application/json")
			h.Set("Idempotency-Key", "bench")
			for b.Loop() {
				out := s.handle(&call{ctx: context.Background(), method: tc.method, path: tc.path,
					query: url.Values{}, header: h, body: []byte(tc.body), host: "127.0.0.1"})
				if out.reply == nil || out.reply.status >= 500 {
					b.Fatalf("%s %s: %+v", tc.method, tc.path, out)
				}
			}
		})
	}
}
