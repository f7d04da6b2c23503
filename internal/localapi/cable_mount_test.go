package localapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/fibegg/fibe/internal/localapi/cable"
)

// The stream server is mounted at /cable: a token from /api/cable_url lets
// a client in and subscribe to a playground by name.
func TestCableMounted(t *testing.T) {
	e := newEnv(t, Config{})
	e.createPG("streamed", "web", nil)
	u := e.do("GET", "/api/cable_url", nil).json(t)["url"].(string)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{Subprotocols: []string{cable.Protocol}})
	if err != nil {
		t.Fatalf("dial %s: %v", u, err)
	}
	defer ws.CloseNow()
	read := func() map[string]any {
		t.Helper()
		for {
			_, data, err := ws.Read(ctx)
			if err != nil {
				t.Fatalf("read: %v", err)
			}
			var m map[string]any
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatalf("frame %q: %v", data, err)
			}
			if m["type"] != "ping" {
				return m
			}
		}
	}
	if m := read(); m["type"] != "welcome" {
		t.Fatalf("first frame %v", m)
	}
	ident := fmt.Sprintf(`{"channel":"PlaygroundLogsChannel","playground_id":%q}`, "streamed")
	sub, _ := json.Marshal(map[string]string{"command": "subscribe", "identifier": ident})
	if err := ws.Write(ctx, websocket.MessageText, sub); err != nil {
		t.Fatal(err)
	}
	if m := read(); m["type"] != "confirm_subscription" {
		t.Fatalf("subscribe answer %v", m)
	}

	// A made-up token or no credentials is refused.
	bad := strings.Split(u, "?")[0] + "?token=nope"
	_, res, err := websocket.Dial(ctx, bad, nil)
	if err == nil || res == nil || res.StatusCode != http.StatusUnauthorized || res.Header.Get("X-Request-Id") == "" {
		t.Fatalf("bad token: %v %v", res, err)
	}
}

func TestCableChaosKeysReachTheStreamServer(t *testing.T) {
	e := newEnv(t, Config{Chaos: "cable-noping=1"})
	if !e.srv.cable.Faults().NoPing {
		t.Fatal("cable-noping from Config not applied")
	}
	expectStatus(t, e.do("POST", "/_local/chaos", map[string]any{"spec": "cable-expire=once,cable-drop=0.25,cable-reject=0.5,cable-expire-burst=2"}), http.StatusOK)
	want := cable.Faults{ExpireOnce: true, DropRate: 0.25, RejectRate: 0.5, ExpireBurst: 2}
	if got := e.srv.cable.Faults(); got != want {
		t.Fatalf("faults %+v, want %+v", got, want)
	}
	if err := e.srv.SetChaos("cable-drop=@3s"); err != nil {
		t.Fatal(err)
	}
	if got := e.srv.cable.Faults(); got != (cable.Faults{DropAfter: 3 * time.Second}) {
		t.Fatalf("faults %+v", got)
	}
}
