package api

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/cmd/cmdutil/cmdtest"
	"github.com/fibegg/fibe/cmd/factory"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/output"
)

// setup serves an emulator on 127.0.0.1 and returns a Factory pointed at
// it through the environment, as a user would configure it.
func setup(t *testing.T) (*cmdutil.Factory, *bytes.Buffer, *localapi.Server) {
	t.Helper()
	srv, url := cmdtest.Emulator(t, localapi.Config{})
	cmdtest.Isolate(t, map[string]string{"FIBE_API_URL": url, "FIBE_API_KEY": localapi.DefaultAPIKey, "FIBE_POLL_INTERVAL": "20ms"})
	ios, _, out, _ := iostreams.Test()
	return factory.New(ios, nil), out, srv
}

// run drives the command as typed, through its flags, into run.
func runAPI(t *testing.T, f *cmdutil.Factory, args ...string) error {
	t.Helper()
	cmd := NewCmdAPI(f, func(ctx context.Context, o *Options) error { return run(ctx, o) })
	cmd.SetArgs(args)
	cmd.SetOut(f.IOStreams.Out)
	cmd.SetErr(f.IOStreams.ErrOut)
	return cmd.ExecuteContext(context.Background())
}

func TestRunGetsPostsAndRefuses(t *testing.T) {
	f, out, srv := setup(t)
	f.IOStreams.SetJSON(true)

	if err := runAPI(t, f, "playspecs", "--paginate"); err != nil {
		t.Fatal(err)
	}
	var specs []map[string]any
	if err := json.Unmarshal(out.Bytes(), &specs); err != nil || len(specs) == 0 {
		t.Fatalf("playspecs: %s (%v)", out, err)
	}

	out.Reset()
	f.IOStreams.In = bytes.NewBufferString(`{"playground": {"name": "via-api-2", "playspec_id": "web", "marquee_id": "local"}}`)
	if err := runAPI(t, f, "-X", "POST", "/api/playgrounds", "--input", "-"); err != nil {
		t.Fatal(err)
	}
	var pg map[string]any
	if err := json.Unmarshal(out.Bytes(), &pg); err != nil || pg["name"] != "via-api-2" {
		t.Fatalf("create: %s (%v)", out, err)
	}
	if n := srv.Stats().Creates["via-api-2"]; n != 1 {
		t.Fatalf("the create reached the emulator %d times, want 1", n)
	}

	before := total(srv.Stats())
	for _, bad := range [][]string{
		{"-X", "PO ST", "playgrounds"},
		{"https://elsewhere.example/api/playgrounds"},
		{"playgrounds", "-f", "no-equals-sign"},
		{"playgrounds", "-F", "body=@/nonexistent/file.json"},
	} {
		if err := runAPI(t, f, bad...); output.ExitCode(err) != output.ExitUsage {
			t.Errorf("fibe api %v: %v (exit %d), want a usage error", bad, err, output.ExitCode(err))
		}
	}
	if after := total(srv.Stats()); after != before {
		t.Fatalf("bad input sent %d requests", after-before)
	}
}

// total counts every request the emulator answered.
func total(s localapi.Stats) int {
	n := 0
	for _, byStatus := range s.Requests {
		for _, c := range byStatus {
			n += c
		}
	}
	return n
}
