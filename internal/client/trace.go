package client

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// tracer writes the --debug trace. Credentials never reach it: the
// Authorization header is shown as redacted, and any JSON field or query
// parameter named like a key, token, password or secret (or a device
// login's device_code, which can be traded for a key) is masked.
type tracer struct {
	mu sync.Mutex
	w  io.Writer
}

const redacted = "[REDACTED]"

// maxTraceBody keeps the trace readable.
const maxTraceBody = 2048

func (t *tracer) printf(format string, args ...any) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintf(t.w, "[debug] "+format+"\n", args...)
}

func (t *tracer) request(r *request, u *url.URL, n, of int, payload []byte, auth bool) {
	if t == nil {
		return
	}
	t.printf("--> %s %s (attempt %d/%d, breaker %s)", r.method, redactURL(u), n, of, r.resource)
	if auth {
		t.printf("    Authorization: Bearer %s", redacted)
	} else {
		t.printf("    (no Authorization: not the API origin)")
	}
	if r.key != "" {
		t.printf("    Idempotency-Key: %s", r.key)
	}
	if len(payload) > 0 {
		t.printf("    body: %s", redactBody(payload))
	}
}

func (t *tracer) response(resp *response, u *url.URL, took time.Duration) {
	if t == nil {
		return
	}
	line := fmt.Sprintf("<-- %d in %s", resp.status, took.Round(time.Millisecond))
	if id := resp.meta.RequestID; id != "" {
		line += " (request " + oneLine(id) + ")"
	}
	if resp.meta.Replayed {
		line += " [idempotent replay]"
	}
	for _, h := range []string{"Retry-After", "X-RateLimit-Remaining", "X-RateLimit-Reset"} {
		if v := resp.header.Get(h); v != "" {
			line += fmt.Sprintf(" %s=%s", h, oneLine(v))
		}
	}
	t.printf("%s", line)
	if len(resp.body) > 0 {
		if holdsValues(u) {
			t.printf("    body: %s", redactBody(resp.body, "value"))
		} else {
			t.printf("    body: %s", redactBody(resp.body))
		}
	}
}

// valuePaths are the API paths whose answers carry secrets in a field
// called "value" (a revealed secret), a name too common to mask
// everywhere.
var valuePaths = []string{"/api/secrets"}

func holdsValues(u *url.URL) bool {
	for _, p := range valuePaths {
		if rest, ok := strings.CutPrefix(u.Path, p); ok && (rest == "" || strings.HasPrefix(rest, "/")) {
			return true
		}
	}
	return false
}

// sensitiveName reports whether a field name looks like it holds a secret.
func sensitiveName(name string) bool {
	n := strings.ToLower(name)
	for _, s := range []string{"key", "token", "password", "passwd", "secret", "authorization", "credential", "device_code"} {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

func redactURL(u *url.URL) string {
	c := *u
	c.User = nil
	q := c.Query()
	changed := false
	for k := range q {
		if sensitiveName(k) {
			q.Set(k, redacted)
			changed = true
		}
	}
	if changed {
		c.RawQuery = q.Encode()
	}
	return c.String()
}

// redactBody masks sensitive fields of a JSON body; a body that is not JSON
// is only described, never echoed (it might be anything).
func redactBody(b []byte, also ...string) string {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Sprintf("(%d bytes, not JSON)", len(b))
	}
	out, _ := json.Marshal(redactValue(v, also))
	s := string(out)
	if len(s) > maxTraceBody {
		s = s[:maxTraceBody] + fmt.Sprintf("… (%d bytes)", len(out))
	}
	return s
}

func redactValue(v any, also []string) any {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if sensitiveName(k) || slices.Contains(also, k) {
				x[k] = redacted
			} else {
				x[k] = redactValue(x[k], also)
			}
		}
		return x
	case []any:
		for i := range x {
			x[i] = redactValue(x[i], also)
		}
		return x
	case string:
		if strings.Contains(x, "?") {
			if u, err := url.Parse(x); err == nil && u.IsAbs() {
				return redactURL(u)
			}
		}
		return x
	default:
		return v
	}
}
