package output

import "testing"

func TestCommandLineCarriesTheAPIAndProfile(t *testing.T) {
	for _, tc := range []struct {
		invocation []string
		want       string
	}{
		{nil, "fibe ops wait req_1"},
		{[]string{"pg", "rollout", "x"}, "fibe ops wait req_1"},
		{[]string{"--api-url", "local", "pg", "rollout", "x", "--profile=ci"}, "fibe --api-url local --profile=ci ops wait req_1"},
		{[]string{"--api-key", "secret", "--api-url=http://127.0.0.1:7878", "pg", "rollout", "x"}, "fibe --api-url=http://127.0.0.1:7878 ops wait req_1"},
		{[]string{"pg", "create", "--", "--profile", "p"}, "fibe ops wait req_1"},
	} {
		if got := CommandLine(tc.invocation, "ops", "wait", "req_1"); got != tc.want {
			t.Errorf("CommandLine(%q) = %q, want %q", tc.invocation, got, tc.want)
		}
	}
}
