package cable

import (
	"encoding/json"
	"strconv"
)

// Channel names.
const (
	PlaygroundLogsChannel = "PlaygroundLogsChannel"
	ContainerLogsChannel  = "ContainerLogsChannel"
	// PlaygroundTerminalChannel is an interactive shell in a service.
	PlaygroundTerminalChannel = "PlaygroundTerminalChannel"
)

// command is a frame sent by the client.
type command struct {
	Command    string `json:"command"` // subscribe, unsubscribe, message
	Identifier string `json:"identifier"`
	Data       string `json:"data,omitempty"`
}

// identifier is the decoded subscription identifier of a channel.
type identifier struct {
	Channel      string          `json:"channel"`
	PlaygroundID json.RawMessage `json:"playground_id"`
	ServiceName  string          `json:"service_name"`
	Tail         *int64          `json:"tail"`
	Since        *int64          `json:"since"`

	// Terminal channel: the service (default: the first), the window
	// size, whether a pseudo-terminal is wanted (default true) and one
	// command to run instead of a shell.
	Service string `json:"service"`
	Cols    int    `json:"cols"`
	Rows    int    `json:"rows"`
	TTY     *bool  `json:"tty"`
	Command string `json:"command"`
}

// playgroundRef returns playground_id as the string Lookup expects: a
// number or a name are both accepted.
func (id identifier) playgroundRef() string {
	var n int64
	if err := json.Unmarshal(id.PlaygroundID, &n); err == nil {
		return strconv.FormatInt(n, 10)
	}
	var s string
	if err := json.Unmarshal(id.PlaygroundID, &s); err == nil {
		return s
	}
	return ""
}

// Server frames.
type (
	typedFrame struct {
		Type       string `json:"type"`
		Identifier string `json:"identifier,omitempty"`
		Message    any    `json:"message,omitempty"`
	}
	channelFrame struct {
		Identifier string `json:"identifier"`
		Message    any    `json:"message"`
	}
)

// expiredMessage is the payload that tells a client its session is gone.
// The platform has used two shapes; the server alternates between them so
// clients are kept honest about both.
func expiredMessage(i int) any {
	if i%2 == 0 {
		return map[string]string{"status": "session_expired"}
	}
	return map[string]string{"type": "status", "status": "session_expired"}
}
