package build

import (
	"runtime/debug"
	"testing"
)

func TestResolve(t *testing.T) {
	vcs := &debug.BuildInfo{Main: debug.Module{Version: "v0.3.1-0.20260102030405-0123456789ab+dirty"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2026-01-02T03:04:05Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	cases := []struct {
		name     string
		info     *debug.BuildInfo
		in, want [3]string
	}{
		{"ldflags win", vcs, [3]string{"1.2.3", "abc1234", "2025-01-01"}, [3]string{"1.2.3", "abc1234", "2025-01-01"}},
		{"go build in a checkout", vcs, [3]string{unsetVersion, unsetCommit, unsetDate},
			[3]string{"v0.3.1-0.20260102030405-0123456789ab+dirty", "0123456789ab-dirty", "2026-01-02T03:04:05Z"}},
		{"go install module@version", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}},
			[3]string{unsetVersion, unsetCommit, unsetDate}, [3]string{"v1.4.0", "", ""}},
		{"nothing recorded", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}},
			[3]string{unsetVersion, unsetCommit, unsetDate}, [3]string{"dev", "", ""}},
		{"no build info", nil, [3]string{unsetVersion, "abc", unsetDate}, [3]string{"dev", "abc", ""}},
	}
	for _, c := range cases {
		v, cm, d := resolve(c.info, c.in[0], c.in[1], c.in[2])
		if got := [3]string{v, cm, d}; got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
