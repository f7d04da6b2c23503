package version

import "testing"

func TestLineLeavesOutWhatIsUnknown(t *testing.T) {
	cases := []struct {
		info Info
		want string
	}{
		{Info{Version: "1.2.3", Commit: "abc1234", Date: "2025-01-02T03:04:05Z", Go: "go1.26.0", Platform: "linux/amd64"},
			"fibe 1.2.3 (commit abc1234, built 2025-01-02T03:04:05Z, go1.26.0, linux/amd64)"},
		{Info{Version: "v1.4.0", Go: "go1.26.0", Platform: "darwin/arm64"}, "fibe v1.4.0 (go1.26.0, darwin/arm64)"},
	}
	for _, c := range cases {
		if got := c.info.Line(); got != c.want {
			t.Errorf("%q, want %q", got, c.want)
		}
	}
}
