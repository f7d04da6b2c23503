package console

import (
	"net"
	"net/http"
	"sync"
)

// unusedConns tracks the connections of a server that never sent a
// request (a browser opens spare ones ahead of need). http.Server.Shutdown
// waits up to 5 seconds for such a connection before it counts as idle, so
// a stop closes them first: Ctrl-C would otherwise wait out the grace
// period whenever a tab is open.
type unusedConns struct {
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// track is an http.Server's ConnState hook.
func (u *unusedConns) track(c net.Conn, st http.ConnState) {
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

// closeAll closes the connections that never sent a request.
func (u *unusedConns) closeAll() {
	u.mu.Lock()
	defer u.mu.Unlock()
	for c := range u.conns {
		_ = c.Close()
	}
	u.conns = nil
}
