package client

import (
	"net"
	"strings"
)

// IsLoopbackHost is the one loopback rule of the project (docs/contract.md
// §5): the plain-http exception of the client, the Host and Origin checks
// of the MCP server's HTTP transport, `mcp serve --http` and the console's
// --addr all ask it. host is a host without a port, as url.URL.Hostname or
// net.SplitHostPort give it.
//
// Loopback is the name "localhost" (any case) or a literal loopback IP:
// all of 127.0.0.0/8 (127.0.0.2 too), ::1, and an IPv4-mapped 127.x
// address; an IPv6 literal may keep its brackets ("[::1]"). A name is never
// resolved, since what it resolves to may change between the check and its
// use: "localhost." (a name handed to DNS as is), "evil.localhost", "127.1"
// (a resolver's shorthand, not a literal) and a zoned "::1%lo" are not
// loopback here.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		host = host[1 : len(host)-1]
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
