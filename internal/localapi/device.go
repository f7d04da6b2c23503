package localapi

import (
	"crypto/rand"
	"encoding/json"
	"html/template"
	"net/http"
	"strings"
	"sync"
	"time"
)

// The device login of the public CLI (docs/api.md, "Device login"):
//
//	POST /cli/device_codes       {"hostname"} → 201 {device_code, user_code,
//	                              verification_uri, verification_uri_complete,
//	                              expires_in, interval}
//	POST /cli/device_codes/poll  {"device_code"} → 200 {"status":
//	                              "authorization_pending"} | 200 {"status":
//	                              "authorized", api_key, api_key_id, scopes}
//	                              | 400 slow_down / already_consumed /
//	                              invalid_grant | 403 access_denied |
//	                              410 expired_token (as {"error": "..."})
//	GET/POST /cli/device          the approval page a browser opens
//
// Codes live in memory, expire after 15 minutes and are polled every 5
// seconds at speed 1 (both divided by Config.Speed, at least a second).
// Config.DeviceAutoApprove approves every code as it is issued; the chaos
// key device-slow-down=N answers the first N polls of every code with
// slow_down. A poll sooner than the code's interval is answered slow_down
// too, and each slow_down widens that code's interval by 5 s (scaled), as
// RFC 8628 §3.5 has it.
const (
	deviceExpiry   = 15 * time.Minute
	deviceInterval = 5 * time.Second
	deviceSlowStep = 5 * time.Second
	// devicePollSlack forgives a poll that arrives this much early.
	devicePollSlack = 100 * time.Millisecond
)

type deviceState int

const (
	devicePending deviceState = iota
	deviceApproved
	deviceDenied
	deviceConsumed
)

type deviceEntry struct {
	deviceCode, userCode, hostname string
	expires                        time.Time
	interval                       time.Duration
	last                           time.Time // issue or last poll
	state                          deviceState
	slowDowns                      int
	keyID                          int64
}

type deviceCodes struct {
	mu       sync.Mutex
	byDevice map[string]*deviceEntry
	byUser   map[string]*deviceEntry
	nextKey  int64
}

// serveDevice answers /cli/...; it reports false for any other path.
func (s *Server) serveDevice(w http.ResponseWriter, r *http.Request) bool {
	switch {
	case r.URL.Path == "/cli/device_codes" && r.Method == http.MethodPost:
		s.deviceIssue(w, r)
	case r.URL.Path == "/cli/device_codes/poll" && r.Method == http.MethodPost:
		s.devicePoll(w, r)
	case r.URL.Path == "/cli/device" && (r.Method == http.MethodGet || r.Method == http.MethodPost):
		s.devicePage(w, r)
	case strings.HasPrefix(r.URL.Path, "/cli/"):
		deviceJSON(w, http.StatusNotFound, map[string]any{"error": "not_found"})
	default:
		return false
	}
	return true
}

func deviceJSON(w http.ResponseWriter, status int, v any) {
	body, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Request-Id", newID("req_"))
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// scaledSeconds is d at the emulator's speed, in whole seconds (at least one).
func (s *Server) scaledSeconds(d time.Duration) int {
	return max(int((s.scaled(d)+time.Second-1)/time.Second), 1)
}

// userCodeAlphabet has no vowels or look-alikes, as user codes are read aloud and typed.
const userCodeAlphabet = "BCDFGHJKLMNPQRSTVWXZ"

func newUserCode() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	out := make([]byte, 0, 9)
	for i, c := range b {
		if i == 4 {
			out = append(out, '-')
		}
		out = append(out, userCodeAlphabet[int(c)%len(userCodeAlphabet)])
	}
	return string(out)
}

func (s *Server) deviceIssue(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Hostname string `json:"hostname"`
	}
	body, _, err := readBody(r.Body, r.ContentLength)
	if err != nil || (len(body) > 0 && json.Unmarshal(body, &in) != nil) {
		deviceJSON(w, http.StatusBadRequest, map[string]any{"error": "invalid_request"})
		return
	}
	expiresIn, interval := s.scaledSeconds(deviceExpiry), s.scaledSeconds(deviceInterval)
	now := s.now()
	e := &deviceEntry{
		deviceCode: newID("dc_") + newID(""), userCode: newUserCode(), hostname: in.Hostname,
		expires: now.Add(time.Duration(expiresIn) * time.Second), interval: time.Duration(interval) * time.Second, last: now,
	}
	if s.cfg.DeviceAutoApprove {
		e.state = deviceApproved
	}
	d := &s.device
	d.mu.Lock()
	if d.byDevice == nil {
		d.byDevice, d.byUser = map[string]*deviceEntry{}, map[string]*deviceEntry{}
	}
	d.byDevice[e.deviceCode], d.byUser[e.userCode] = e, e
	d.mu.Unlock()
	page := requestScheme(r) + "://" + r.Host + "/cli/device"
	deviceJSON(w, http.StatusCreated, map[string]any{
		"device_code": e.deviceCode, "user_code": e.userCode,
		"verification_uri": page, "verification_uri_complete": page + "?user_code=" + e.userCode,
		"expires_in": expiresIn, "interval": interval,
	})
}

func (s *Server) devicePoll(w http.ResponseWriter, r *http.Request) {
	var in struct {
		DeviceCode string `json:"device_code"`
	}
	body, _, err := readBody(r.Body, r.ContentLength)
	if err != nil || json.Unmarshal(body, &in) != nil || in.DeviceCode == "" {
		deviceJSON(w, http.StatusBadRequest, map[string]any{"error": "invalid_request"})
		return
	}
	s.mu.Lock()
	injected := s.chaos.deviceSlowDown
	s.mu.Unlock()
	now := s.now()
	d := &s.device
	d.mu.Lock()
	defer d.mu.Unlock()
	e := d.byDevice[in.DeviceCode]
	switch {
	case e == nil:
		deviceJSON(w, http.StatusBadRequest, map[string]any{"error": "invalid_grant"})
		return
	case !now.Before(e.expires) && e.state != deviceConsumed:
		deviceJSON(w, http.StatusGone, map[string]any{"error": "expired_token"})
		return
	case e.state == deviceConsumed:
		deviceJSON(w, http.StatusBadRequest, map[string]any{"error": "already_consumed"})
		return
	case e.state == deviceDenied:
		deviceJSON(w, http.StatusForbidden, map[string]any{"error": "access_denied"})
		return
	}
	early := now.Sub(e.last) < e.interval-devicePollSlack
	e.last = now
	if early || e.slowDowns < injected {
		e.slowDowns++
		e.interval += s.scaled(deviceSlowStep)
		deviceJSON(w, http.StatusBadRequest, map[string]any{"error": "slow_down"})
		return
	}
	if e.state == devicePending {
		deviceJSON(w, http.StatusOK, map[string]any{"status": "authorization_pending"})
		return
	}
	e.state = deviceConsumed
	d.nextKey++
	e.keyID = d.nextKey
	deviceJSON(w, http.StatusOK, map[string]any{
		"status": "authorized", "api_key": s.cfg.APIKey, "api_key_id": e.keyID, "scopes": scopeCatalogue,
	})
}

// devicePageTmpl is parsed on first use: no command pays for it at start-up.
var devicePageTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("device").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Fibe emulator: approve a device</title>
<style>body{font:16px system-ui,sans-serif;max-width:34em;margin:3em auto;padding:0 1em}
code,input{font:1.4em ui-monospace,monospace;letter-spacing:.1em}button{font-size:1em;margin-right:.5em}</style>
</head><body>
<h1>Approve a device login</h1>
{{if .Message}}<p id="result">{{.Message}}</p>{{end}}
{{if .Form}}<form method="post" action="/cli/device">
<p>{{if .Hostname}}<strong>{{.Hostname}}</strong> asks{{else}}A command line asks{{end}} for an API key of this (emulated) account.
Check that the code matches the one in your terminal.</p>
<p><label>Code <input name="user_code" value="{{.UserCode}}" autocomplete="off" required></label></p>
<p><button name="decision" value="approve">Approve</button><button name="decision" value="deny">Deny</button></p>
</form>{{end}}
</body></html>
`))
})

type devicePageData struct {
	UserCode, Hostname, Message string
	Form                        bool
}

// devicePage is what the platform's approval page does, for the emulator's
// one account: GET shows the code with Approve and Deny, POST records the
// decision.
func (s *Server) devicePage(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	code := strings.ToUpper(strings.TrimSpace(r.Form.Get("user_code")))
	data := devicePageData{UserCode: code, Form: true}
	status := http.StatusOK
	now := s.now()
	d := &s.device
	d.mu.Lock()
	e := d.byUser[code]
	if e != nil {
		data.Hostname = e.hostname
	}
	switch {
	case code == "":
	case e == nil:
		status, data.Message = http.StatusNotFound, "No login is waiting for this code."
	case !now.Before(e.expires):
		status, data.Message, data.Form = http.StatusGone, "This code has expired. Run the login again.", false
	case e.state != devicePending:
		status, data.Message, data.Form = http.StatusConflict, "This code was already used.", false
	case r.Method == http.MethodPost && r.Form.Get("decision") == "approve":
		e.state, data.Message, data.Form = deviceApproved, "Approved. You can close this window and go back to the terminal.", false
	case r.Method == http.MethodPost && r.Form.Get("decision") == "deny":
		e.state, data.Message, data.Form = deviceDenied, "Denied. The terminal will not get a key.", false
	case r.Method == http.MethodPost:
		status, data.Message = http.StatusBadRequest, "Choose Approve or Deny."
	}
	d.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Frame-Options", "DENY")
	w.WriteHeader(status)
	_ = devicePageTmpl().Execute(w, data)
}
