// Package console is the server side of `fibe console`: a local web
// console over the same client as the CLI (console.md).
//
// It binds loopback only. The URL it prints carries a single-use token that
// the first visit exchanges for an HttpOnly, SameSite=Strict session
// cookie; without the cookie every route answers 401. The Host header must
// name the console's own address (DNS rebinding), and every non-GET request
// needs the page's CSRF token. The API key stays on the server side: pages,
// assets, cookies and socket frames never hold it.
//
// Pages are rendered with html/template and driven by Hotwire: Turbo
// Streams over Server-Sent Events carry live changes, found by one poller
// per watched page (shared by every tab on it, stopped when none watches).
// Streams (logs, terminal) are relayed: one API cable connection per
// browser connection, never recovered here; the browser's controllers make
// the one-shot recovery of contract §7. Each connection is opened by the
// pane's stream.Relay (the breaker admits it, one retry budget spans the
// browser's reopens, the relay judges its liveness), so the browser learns
// the outcome the CLI would: CIRCUIT_OPEN, or the spent budget's error.
//
// The front end (web/) is bundled by esbuild into web/dist, committed and
// embedded; `go generate ./internal/console` rebuilds it.
package console
