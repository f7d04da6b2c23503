package client

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/reliability"
)

// deviceServer answers POST /cli/device_codes with code, then each poll
// with the next of polls (status, body, Retry-After), repeating the last.
type deviceServer struct {
	mu    sync.Mutex
	code  string
	polls []devicePollReply
	n     int
	auth  []string // Authorization headers seen
}

type devicePollReply struct {
	status     int
	body       string
	retryAfter string
}

func (d *deviceServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.auth = append(d.auth, r.Header.Get("Authorization"))
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/cli/device_codes":
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(d.code))
	case "/cli/device_codes/poll":
		var in struct {
			DeviceCode string `json:"device_code"`
		}
		if json.NewDecoder(r.Body).Decode(&in) != nil || in.DeviceCode != "dc_secret_123" {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error":"invalid_request"}`))
			return
		}
		p := d.polls[min(d.n, len(d.polls)-1)]
		d.n++
		if p.retryAfter != "" {
			w.Header().Set("Retry-After", p.retryAfter)
		}
		w.WriteHeader(p.status)
		_, _ = w.Write([]byte(p.body))
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

const testDeviceCode = `{"device_code":"dc_secret_123","user_code":"BCDF-GHJK","verification_uri":"https://fibe.example/cli/device",
"verification_uri_complete":"https://fibe.example/cli/device?user_code=BCDF-GHJK","expires_in":600,"interval":2}`

func deviceClient(t *testing.T, d *deviceServer, mod ...func(*Options)) (*Client, *testEnv) {
	t.Helper()
	srv := httptest.NewServer(d)
	t.Cleanup(srv.Close)
	return newTestClient(t, srv.URL, append([]func(*Options){func(o *Options) { o.APIKey = "" }}, mod...)...)
}

// The first poll waits one interval; a 429 and a slow_down each widen the
// interval by 5 s for every later poll; the key comes with its scopes, and
// the flow never sends an Authorization header nor traces the device code.
func TestDeviceLoginPacingAndKey(t *testing.T) {
	d := &deviceServer{code: testDeviceCode, polls: []devicePollReply{
		{429, `{"error":{"code":"RATE_LIMITED","message":"slow"}}`, ""},
		{400, `{"error":"slow_down"}`, ""},
		{200, `{"status":"authorization_pending"}`, ""},
		{200, `{"status":"authorized","api_key":"fibe_new_key_0001","api_key_id":7,"scopes":["playgrounds:read"]}`, ""},
	}}
	var trace bytes.Buffer
	c, env := deviceClient(t, d, func(o *Options) {
		o.Policy.MaxRetries = reliability.NoRetries
		o.Debug = &trace
	})
	dc, err := c.StartDeviceLogin(ctxT(t), "laptop")
	if err != nil {
		t.Fatal(err)
	}
	var pending []int
	login, err := c.WaitDeviceLogin(ctxT(t), dc, func(n int) { pending = append(pending, n) })
	if err != nil {
		t.Fatal(err)
	}
	if login.APIKey != "fibe_new_key_0001" || login.APIKeyID != 7 || !slices.Equal(login.Scopes, []string{"playgrounds:read"}) {
		t.Errorf("login %+v", login)
	}
	want := []time.Duration{2 * time.Second, 7 * time.Second, 12 * time.Second, 12 * time.Second}
	if got := env.clock.Sleeps(); !slices.Equal(got, want) {
		t.Errorf("sleeps %v, want %v", got, want)
	}
	if !slices.Equal(pending, []int{3}) {
		t.Errorf("pending polls %v, want [3]", pending)
	}
	for _, a := range d.auth {
		if a != "" {
			t.Errorf("the device flow sent Authorization %q", a)
		}
	}
	if strings.Contains(trace.String(), "dc_secret_123") || strings.Contains(trace.String(), "fibe_new_key_0001") {
		t.Errorf("the trace shows a secret:\n%s", trace.String())
	}
}

// A denial and an expiry (the server's 410, or the lifetime passing) end
// the wait with their codes; an odd answer is INVALID_RESPONSE.
func TestDeviceLoginEndings(t *testing.T) {
	for _, c := range []struct {
		name  string
		code  string
		polls []devicePollReply
		want  string
	}{
		{"denied", testDeviceCode, []devicePollReply{{200, `{"status":"authorization_pending"}`, ""}, {403, `{"error":"access_denied"}`, ""}}, CodeDeviceDenied},
		{"expired by the server", testDeviceCode, []devicePollReply{{410, `{"error":"expired_token"}`, ""}}, CodeDeviceExpired},
		{"already consumed", testDeviceCode, []devicePollReply{{400, `{"error":"already_consumed"}`, ""}}, CodeDeviceExpired},
		{"lifetime passed", strings.Replace(testDeviceCode, `"expires_in":600`, `"expires_in":9`, 1),
			[]devicePollReply{{200, `{"status":"authorization_pending"}`, ""}}, CodeDeviceExpired},
		{"odd answer", testDeviceCode, []devicePollReply{{200, `{"status":"maybe"}`, ""}}, CodeInvalidResponse},
	} {
		t.Run(c.name, func(t *testing.T) {
			cl, _ := deviceClient(t, &deviceServer{code: c.code, polls: c.polls})
			dc, err := cl.StartDeviceLogin(ctxT(t), "laptop")
			if err != nil {
				t.Fatal(err)
			}
			login, err := cl.WaitDeviceLogin(ctxT(t), dc, nil)
			if login != nil {
				t.Fatalf("got a key: %+v", login)
			}
			mustError(t, err, c.want)
		})
	}
}

// A code or URL that could drive a terminal is refused before it is shown.
func TestDeviceLoginRefusesOddCodes(t *testing.T) {
	for _, odd := range []string{
		strings.Replace(testDeviceCode, "BCDF-GHJK\",\"verification_uri\"", "BC\\u001b[2JDF\",\"verification_uri\"", 1),
		strings.Replace(testDeviceCode, `"verification_uri":"https://fibe.example/cli/device"`, `"verification_uri":"javascript:alert(1)"`, 1),
		`{"device_code":"dc_secret_123"}`,
	} {
		cl, _ := deviceClient(t, &deviceServer{code: odd})
		if _, err := cl.StartDeviceLogin(ctxT(t), "laptop"); err == nil {
			t.Errorf("accepted %s", odd)
		} else {
			mustError(t, err, CodeInvalidResponse)
		}
	}
}
