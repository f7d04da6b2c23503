// Package httpserve holds what the project's own loopback servers (the
// console, the emulator a command serves) share about stopping promptly.
package httpserve

import (
	"net"
	"net/http"
	"sync"
)

// UnusedConns tracks the connections of a server that never sent a
// request (a browser opens spare ones ahead of need). http.Server.Shutdown
// waits up to 5 seconds for such a connection before it counts as idle, so
// a stop closes them first: Ctrl-C would otherwise wait out the grace
// period whenever a tab is open.
type UnusedConns struct {
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// Track is an http.Server's ConnState hook.
func (u *UnusedConns) Track(c net.Conn, st http.ConnState) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if st == http.StateNew {
		if u.conns == nil {
			u.conns = map[net.Conn]struct{}{}
		}
		u.conns[c] = struct{}{}
		return
	}
	delete(u.conns, c)
}

// CloseAll closes the connections that never sent a request; call it
// before http.Server.Shutdown.
func (u *UnusedConns) CloseAll() {
	u.mu.Lock()
	defer u.mu.Unlock()
	for c := range u.conns {
		_ = c.Close()
	}
	u.conns = nil
}
