package client

import "testing"

// The one loopback rule, as every door asks it.
func TestIsLoopbackHost(t *testing.T) {
	for _, c := range []struct {
		host string
		want bool
	}{
		{"localhost", true},
		{"LocalHost", true},
		{"127.0.0.1", true},
		{"127.0.0.2", true}, // all of 127.0.0.0/8
		{"127.255.255.254", true},
		{"::1", true},
		{"[::1]", true}, // an IPv6 literal with its brackets
		{"0:0:0:0:0:0:0:1", true},
		{"::ffff:127.0.0.1", true}, // IPv4-mapped loopback
		{"localhost.", false},      // a name handed to DNS as is
		{"evil.localhost", false},
		{"localhost.evil.example", false},
		{"127.1", false}, // a resolver's shorthand, not a literal
		{"127.0.0.1.", false},
		{"0x7f.0.0.1", false},
		{"::1%lo", false}, // zoned
		{"[::1", false},
		{"0.0.0.0", false},
		{"::", false},
		{"10.0.0.1", false},
		{"128.0.0.1", false},
		{"::2", false},
		{"example.com", false},
		{"", false},
		{"127.0.0.1:80", false}, // a host, not a host:port
	} {
		if got := IsLoopbackHost(c.host); got != c.want {
			t.Errorf("IsLoopbackHost(%q) = %v, want %v", c.host, got, c.want)
		}
	}
}
