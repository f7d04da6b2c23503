package console

import (
	"net"
	"testing"
)

func TestCheckAddr(t *testing.T) {
	for addr, ok := range map[string]bool{
		"127.0.0.1:0": true, "127.0.0.2:8080": true, "[::1]:0": true, "localhost:0": true,
		"0.0.0.0:0": false, ":8080": false, "example.com:80": false, "10.0.0.1:80": false, "127.0.0.1": false, "": false,
	} {
		if err := CheckAddr(addr); (err == nil) != ok {
			t.Errorf("CheckAddr(%q) = %v, want ok=%v", addr, err, ok)
		}
	}
}

func TestAllowedHosts(t *testing.T) {
	v4 := allowedHosts(&net.TCPAddr{IP: net.ParseIP("127.0.0.1"), Port: 4000})
	for _, h := range []string{"127.0.0.1:4000", "localhost:4000"} {
		if !v4[h] {
			t.Errorf("%s refused", h)
		}
	}
	for _, h := range []string{"127.0.0.1:4001", "evil.example:4000", "127.0.0.1", "[::1]:4000"} {
		if v4[h] {
			t.Errorf("%s accepted", h)
		}
	}
	v6 := allowedHosts(&net.TCPAddr{IP: net.ParseIP("::1"), Port: 4000})
	if !v6["[::1]:4000"] || !v6["localhost:4000"] || v6["127.0.0.1:4000"] {
		t.Errorf("hosts for [::1]:4000: %v", v6)
	}
}

func TestParseEnv(t *testing.T) {
	env, err := parseEnv("A=1 B=two,C=")
	if err != nil || len(env) != 3 || env["A"] != "1" || env["B"] != "two" || env["C"] != "" {
		t.Fatalf("parseEnv: %v %v", env, err)
	}
	if env, err := parseEnv("  "); env != nil || err != nil {
		t.Fatalf("empty: %v %v", env, err)
	}
	if _, err := parseEnv("NOEQUALS"); err == nil {
		t.Fatal("a field without = was accepted")
	}
}
