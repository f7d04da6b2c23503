package client

import (
	"net/http"
	"strings"
	"testing"
)

// A status URL on another origin (127.0.0.2) is polled without the API key;
// the key never reaches it, not in a header, not anywhere in the request.
func TestBearerTokenNeverReachesASecondOrigin(t *testing.T) {
	other, otherRec := serveOn(t, "127.0.0.2", func(w http.ResponseWriter, r *http.Request, s seen) {
		replyJSON(w, 200, map[string]any{"status": "success", "result": map[string]any{"ok": true, "message": "fine"}})
	})
	api, apiRec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		replyJSON(w, 202, map[string]any{"request_id": "req_x", "status": "queued", "status_url": other.URL + "/status/req_x"})
	})
	c, _ := newTestClient(t, api.URL)
	ct, _, err := c.Marquees.TestConnection(ctxT(t), "prod-eu", MutationOptions{}, WaitOptions{})
	if err != nil || !ct.OK {
		t.Fatalf("%+v %v", ct, err)
	}
	if apiRec.all()[0].Header.Get("Authorization") != "Bearer "+testKey {
		t.Fatal("API origin did not get the key")
	}
	reqs := otherRec.all()
	if len(reqs) != 1 || reqs[0].Path != "/status/req_x" {
		t.Fatalf("second origin saw %+v", reqs)
	}
	for name, vals := range reqs[0].Header {
		for _, v := range vals {
			if strings.Contains(v, testKey) {
				t.Fatalf("key sent to 127.0.0.2 in %s", name)
			}
		}
	}
	if reqs[0].Header.Get("Authorization") != "" || strings.Contains(reqs[0].Path+reqs[0].Body, testKey) {
		t.Fatal("credentials reached the second origin")
	}

	// A trusted host does get the key.
	c2, _ := newTestClient(t, api.URL, func(o *Options) { o.TrustedHosts = []string{"127.0.0.2"} })
	if _, _, err := c2.Marquees.TestConnection(ctxT(t), "prod-eu", MutationOptions{}, WaitOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := otherRec.all()[1].Header.Get("Authorization"); got != "Bearer "+testKey {
		t.Fatalf("trusted host got %q", got)
	}
}

func TestPlainHTTPStatusURLOnAnotherOriginIsRefused(t *testing.T) {
	api, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		replyJSON(w, 202, map[string]any{"request_id": "req_y", "status": "queued", "status_url": "http://status.example.invalid/req_y"})
	})
	c, _ := newTestClient(t, api.URL)
	_, _, err := c.Marquees.TestConnection(ctxT(t), "prod-eu", MutationOptions{}, WaitOptions{})
	if e := mustError(t, err, CodeInvalidResponse); !strings.Contains(e.Message, "plain-http") {
		t.Fatalf("%+v", e)
	}
	if rec.count() != 1 {
		t.Fatalf("%d requests", rec.count())
	}
}

func TestStatusURLAbsoluteOnTheSameOriginAndDefaultPath(t *testing.T) {
	for _, style := range []string{"absolute", "absent"} {
		t.Run(style, func(t *testing.T) {
			var base string
			srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
				if r.Method == http.MethodPost {
					h := map[string]any{"request_id": "req_z", "status": "queued"}
					if style == "absolute" {
						h["status_url"] = base + "/api/elsewhere/req_z?x=1"
					}
					replyJSON(w, 202, h)
					return
				}
				replyJSON(w, 200, map[string]any{"status": "success", "result": map[string]any{"public_key": "ssh-ed25519 AAAA"}})
			})
			base = srv.URL
			c, _ := newTestClient(t, srv.URL)
			k, _, err := c.Marquees.SSHKey(ctxT(t), "prod-eu", MutationOptions{}, WaitOptions{})
			if err != nil || k.PublicKey != "ssh-ed25519 AAAA" {
				t.Fatalf("%+v %v", k, err)
			}
			poll := rec.all()[1]
			want := map[string]string{"absolute": "/api/elsewhere/req_z?x=1", "absent": "/api/async_requests/req_z"}[style]
			if poll.Path != want || poll.Header.Get("Authorization") == "" {
				t.Fatalf("polled %s (auth %q), want %s with auth", poll.Path, poll.Header.Get("Authorization"), want)
			}
		})
	}
}

// A redirect to another origin is not followed: the API key cannot ride
// along to it, and the 3xx comes back as a typed error.
func TestRedirectToAnotherOriginIsNotFollowed(t *testing.T) {
	other, otherRec := serveOn(t, "127.0.0.2", func(w http.ResponseWriter, r *http.Request, s seen) {
		replyJSON(w, 200, map[string]any{"id": 1})
	})
	api, _ := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		http.Redirect(w, r, other.URL+"/api/me", http.StatusTemporaryRedirect)
	})
	c, _ := newTestClient(t, api.URL)
	_, _, err := c.Me(ctxT(t))
	if e := mustError(t, err, CodeInvalidResponse); e.Status != http.StatusTemporaryRedirect {
		t.Fatalf("%+v", e)
	}
	if n := otherRec.count(); n != 0 {
		t.Fatalf("127.0.0.2 received %d requests", n)
	}
}
