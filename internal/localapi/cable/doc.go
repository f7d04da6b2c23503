// Package cable is the ActionCable websocket endpoint of the local Fibe API
// emulator, mounted at /cable.
//
// It speaks the JSON flavour of ActionCable (subprotocol actioncable-v1-json):
// a welcome frame on connect, a ping frame every few seconds, subscribe
// commands answered with confirm_subscription or reject_subscription, and
// channel messages wrapped as {"identifier": ..., "message": {...}}.
//
// Two channels stream a playground's logs: PlaygroundLogsChannel (every
// service) and ContainerLogsChannel (one service). Lines come from a
// deterministic per-playground generator: line n exists once n line
// intervals have passed since the playground's stream epoch, and its content
// depends only on the playground and n. That makes replay exact: a
// subscription may ask for the last N lines (tail) or every line after a
// sequence number (since), which is what a reconnecting client sends to
// resume without losing or repeating a line.
//
// PlaygroundTerminalChannel is an interactive shell in a playground's
// service (terminal.go): a small line shell per subscription (shell.go)
// with the line discipline of a pseudo-terminal, input and resize
// messages, output and exit messages, and, as this emulator's additions to
// the identifier, "tty": false for a script's session (no echo, no prompt)
// and "command" to run one command and exit with its code. Terminal output
// goes through the same fault dice as log lines.
//
// Faults are injected on the server side of a real connection, so clients are
// tested as they would run against a misbehaving server: session_expired
// messages (once, at a rate, or in a burst), dropped connections, rejected
// subscriptions and silenced pings. Stats counts what happened, for tests and
// for the emulator's /_local/stats.
package cable
