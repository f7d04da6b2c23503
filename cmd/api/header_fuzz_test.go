package api

import (
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/fibegg/fibe/cmd/factory"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// Whatever -H carries, it is a usage error (exit 2, nothing sent) or a
// header the client and net/http send as one header line.
func FuzzHeaderFlag(f *testing.F) {
	for _, s := range []string{"X-A: b", "X-Evil: a\r\nInjected: 1", "X-A:", ":v", "Bad Name: v", "Authorization: Bearer x",
		"X-Tab:\ta\tb ", "X-Bell: \a", "Host: evil", "X-U: caf\u00e9", "X-A: b: c"} {
		f.Add(s)
	}
	ios, _, _, _ := iostreams.Test()
	fac := factory.New(ios, nil)
	f.Fuzz(func(t *testing.T, h string) {
		opts := &Options{Seams: fac.Seams(), Path: "me", Method: "GET", Headers: []string{h}}
		req, err := opts.request()
		if err != nil {
			var fe *output.FlagError
			if !errors.As(err, &fe) {
				t.Fatalf("-H %q: %v is not a usage error", h, err)
			}
			return
		}
		hr, _ := http.NewRequest(http.MethodGet, "http://127.0.0.1/api/me", nil)
		for k, vs := range req.Header {
			for _, v := range vs {
				if err := client.ValidateHeader(k, v); err != nil {
					t.Fatalf("-H %q gave %q: %q, which the client refuses: %v", h, k, v, err)
				}
			}
			hr.Header[http.CanonicalHeaderKey(k)] = vs
		}
		if err := hr.Write(io.Discard); err != nil {
			t.Fatalf("-H %q: net/http refuses it: %v", h, err)
		}
	})
}
