package stream

import (
	"encoding/json"
	"strings"
)

// ActionCable names.
const (
	playgroundLogsChannel     = "PlaygroundLogsChannel"
	containerLogsChannel      = "ContainerLogsChannel"
	playgroundTerminalChannel = "PlaygroundTerminalChannel"
	statusSessionExpired      = "session_expired"
)

// subscribeCommand is the frame that subscribes to identifier.
func subscribeCommand(identifier string) []byte {
	b, _ := json.Marshal(struct {
		Command    string `json:"command"`
		Identifier string `json:"identifier"`
	}{"subscribe", identifier})
	return b
}

// messageCommand is the frame that sends data (a JSON object) to the
// channel of identifier, as ActionCable's perform does.
func messageCommand(identifier string, data any) []byte {
	d, _ := json.Marshal(data)
	b, _ := json.Marshal(struct {
		Command    string `json:"command"`
		Identifier string `json:"identifier"`
		Data       string `json:"data"`
	}{"message", identifier, string(d)})
	return b
}

// frameKind is what an incoming frame means to a stream.
type frameKind int

const (
	frameOther      frameKind = iota // unknown type, or another subscription's message
	frameWelcome                     // the connection is up
	framePing                        // the server is alive
	frameConfirm                     // our subscription is confirmed
	frameReject                      // our subscription is rejected
	frameMessage                     // a message of our channel
	frameExpired                     // the session is gone
	frameDisconnect                  // the server is closing the connection
)

// frame is a decoded server frame.
type frame struct {
	kind      frameKind
	message   json.RawMessage // frameMessage: the channel's payload
	reason    string          // disconnect reason
	reconnect bool            // disconnect: whether the server invites a reconnect
}

// parseFrame decodes one server frame of the subscription identifier.
// Both shapes of the expiry message are understood: {"status":
// "session_expired"} and {"type":"status","status":"session_expired"}, as a
// channel message or as a frame of its own.
func parseFrame(data []byte, identifier string) (frame, bool) {
	var raw struct {
		Type       string          `json:"type"`
		Identifier string          `json:"identifier"`
		Message    json.RawMessage `json:"message"`
		Status     string          `json:"status"`
		Reason     string          `json:"reason"`
		Reconnect  *bool           `json:"reconnect"`
	}
	if json.Unmarshal(data, &raw) != nil {
		return frame{}, false
	}
	switch raw.Type {
	case "welcome":
		return frame{kind: frameWelcome}, true
	case "ping":
		return frame{kind: framePing}, true
	case "confirm_subscription":
		return frame{kind: ours(raw.Identifier, identifier, frameConfirm)}, true
	case "reject_subscription":
		// Some servers omit the identifier on a reject; with one
		// subscription per connection it can only be ours.
		if raw.Identifier == "" {
			return frame{kind: frameReject}, true
		}
		return frame{kind: ours(raw.Identifier, identifier, frameReject)}, true
	case "disconnect":
		if raw.Reason == statusSessionExpired {
			return frame{kind: frameExpired}, true
		}
		return frame{kind: frameDisconnect, reason: raw.Reason, reconnect: raw.Reconnect == nil || *raw.Reconnect}, true
	}
	if raw.Status == statusSessionExpired {
		return frame{kind: frameExpired}, true
	}
	if len(raw.Message) == 0 || ours(raw.Identifier, identifier, frameMessage) != frameMessage {
		return frame{kind: frameOther}, true
	}
	var msg struct {
		Status string `json:"status"`
	}
	if json.Unmarshal(raw.Message, &msg) != nil {
		return frame{}, false
	}
	if msg.Status == statusSessionExpired {
		return frame{kind: frameExpired}, true
	}
	return frame{kind: frameMessage, message: raw.Message}, true
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
