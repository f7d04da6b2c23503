package cmdutil

import (
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/internal/output"
)

func TestIdempotencyKeyFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		ok   bool
		key  string
	}{
		{nil, true, ""},
		{[]string{"--idempotency-key", "ci-42-restart"}, true, "ci-42-restart"},
		{[]string{"--idempotency-key", ""}, false, ""},
		{[]string{"--idempotency-key", "has space"}, false, ""},
		{[]string{"--idempotency-key", strings.Repeat("k", 256)}, false, ""},
		{[]string{"--idempotency-key", "caf\u00e9"}, false, ""},
	} {
		var m MutationFlags
		cmd := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return nil }}
		AddMutationFlags(cmd, &m)
		cmd.SetArgs(c.args)
		if err := cmd.Execute(); err != nil {
			t.Fatal(err)
		}
		mo, err := m.Options()
		if (err == nil) != c.ok || (c.ok && mo.IdempotencyKey != c.key) {
			t.Errorf("%q: %+v, %v", c.args, mo, err)
		}
		if err != nil && output.ExitCode(err) != output.ExitUsage {
			t.Errorf("%q: a bad key must be a usage error, got exit %d", c.args, output.ExitCode(err))
		}
	}
}

func TestReadPayloadFromStdin(t *testing.T) {
	ios, in, _, _ := output.Test()
	f := New(ios, nil)
	in.WriteString(`{"marquee": {"name": "m", "port": 2222}}`)
	body, err := ReadPayload(f, "-", "marquee")
	if err != nil || body["name"] != "m" || body["port"] == nil {
		t.Fatalf("%#v %v", body, err)
	}
	in.WriteString(`[1, 2]`)
	if _, err := ReadPayload(f, "-", "marquee"); output.ExitCode(err) != output.ExitUsage {
		t.Errorf("a non-object payload: %v", err)
	}
	if _, err := ReadPayload(f, "/nonexistent/payload.json", "marquee"); output.ExitCode(err) != output.ExitUsage {
		t.Errorf("a missing file: %v", err)
	}
}

func TestRelative(t *testing.T) {
	base := time.Date(2025, 1, 2, 12, 0, 0, 0, time.UTC)
	old := Now
	Now = func() time.Time { return base }
	defer func() { Now = old }()
	for d, want := range map[time.Duration]string{
		30 * time.Second: "now", 5 * time.Minute: "in 5m", -3 * time.Hour: "3h ago", 72 * time.Hour: "in 3d",
	} {
		if got := Relative(base.Add(d)); got != want {
			t.Errorf("%s: %q, want %q", d, got, want)
		}
	}
}

func TestIDOrName(t *testing.T) {
	if IDOrName("42") != int64(42) || IDOrName("web") != "web" || IDOrName("0") != "0" {
		t.Error("IDOrName")
	}
}
