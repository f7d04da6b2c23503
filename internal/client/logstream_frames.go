package client

import (
	"encoding/json"
	"strings"
)

// ActionCable names used by the log stream.
const (
	cableProtocol         = "actioncable-v1-json"
	cableKeyProtocol      = "fibe-api-key."
	playgroundLogsChannel = "PlaygroundLogsChannel"
	containerLogsChannel  = "ContainerLogsChannel"
	statusSessionExpired  = "session_expired"
)

// logIdentifier is the subscription identifier of a log channel. Field
// order is fixed so the identifier string is stable.
type logIdentifier struct {
	Channel      string `json:"channel"`
	PlaygroundID int64  `json:"playground_id"`
	ServiceName  string `json:"service_name,omitempty"`
	Tail         int    `json:"tail,omitempty"`
	Since        *int64 `json:"since,omitempty"`
}

func (id logIdentifier) String() string {
	b, _ := json.Marshal(id)
	return string(b)
}

// subscribeCommand is the frame that subscribes to identifier.
func subscribeCommand(identifier string) []byte {
	b, _ := json.Marshal(struct {
		Command    string `json:"command"`
		Identifier string `json:"identifier"`
	}{"subscribe", identifier})
	return b
}

// frameKind is what an incoming frame means to the follower.
type frameKind int

const (
	frameOther      frameKind = iota // unknown type, or another subscription's message
	frameWelcome                     // the connection is up
	framePing                        // the server is alive
	frameConfirm                     // our subscription is confirmed
	frameReject                      // our subscription is rejected
	frameLog                         // one log line
	frameExpired                     // the session is gone
	frameDisconnect                  // the server is closing the connection
)

// cableFrame is a decoded server frame.
type cableFrame struct {
	kind      frameKind
	line      LogLine
	reason    string // disconnect reason
	reconnect bool   // disconnect: whether the server invites a reconnect
}

// parseFrame decodes one server frame of the subscription identifier.
// Both shapes of the expiry message are understood: {"status":
// "session_expired"} and {"type":"status","status":"session_expired"}, as a
// channel message or as a frame of its own.
func parseFrame(data []byte, identifier string) (cableFrame, bool) {
	var raw struct {
		Type       string          `json:"type"`
		Identifier string          `json:"identifier"`
		Message    json.RawMessage `json:"message"`
		Status     string          `json:"status"`
		Reason     string          `json:"reason"`
		Reconnect  *bool           `json:"reconnect"`
	}
	if json.Unmarshal(data, &raw) != nil {
		return cableFrame{}, false
	}
	switch raw.Type {
	case "welcome":
		return cableFrame{kind: frameWelcome}, true
	case "ping":
		return cableFrame{kind: framePing}, true
	case "confirm_subscription":
		return cableFrame{kind: ours(raw.Identifier, identifier, frameConfirm)}, true
	case "reject_subscription":
		// Some servers omit the identifier on a reject; with one
		// subscription per connection it can only be ours.
		if raw.Identifier == "" {
			return cableFrame{kind: frameReject}, true
		}
		return cableFrame{kind: ours(raw.Identifier, identifier, frameReject)}, true
	case "disconnect":
		if raw.Reason == statusSessionExpired {
			return cableFrame{kind: frameExpired}, true
		}
		return cableFrame{kind: frameDisconnect, reason: raw.Reason, reconnect: raw.Reconnect == nil || *raw.Reconnect}, true
	}
	if raw.Status == statusSessionExpired {
		return cableFrame{kind: frameExpired}, true
	}
	if len(raw.Message) == 0 || ours(raw.Identifier, identifier, frameLog) != frameLog {
		return cableFrame{kind: frameOther}, true
	}
	var msg struct {
		Type   string `json:"type"`
		Status string `json:"status"`
		LogLine
	}
	if json.Unmarshal(raw.Message, &msg) != nil {
		return cableFrame{}, false
	}
	switch {
	case msg.Status == statusSessionExpired:
		return cableFrame{kind: frameExpired}, true
	case msg.Type == "log" || (msg.Type == "" && msg.Seq > 0):
		return cableFrame{kind: frameLog, line: msg.LogLine}, true
	}
	return cableFrame{kind: frameOther}, true
}

func ours(got, want string, kind frameKind) frameKind {
	if got == want || sameJSON(got, want) {
		return kind
	}
	return frameOther
}

// sameJSON compares two identifiers as JSON objects, since a server may
// re-encode the identifier with other spacing or key order.
func sameJSON(a, b string) bool {
	if !strings.HasPrefix(strings.TrimSpace(a), "{") {
		return false
	}
	var x, y map[string]any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return string(xb) == string(yb)
}
