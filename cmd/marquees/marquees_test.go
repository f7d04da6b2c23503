package marquees

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/cmd/factory"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/reliability"
)

type env struct {
	cmdutil.Seams
	out, errOut *bytes.Buffer
	srv         *localapi.Server
}

// setup serves the emulator on 127.0.0.1 and hands the commands only what
// they take: test streams and a client for that server.
func setup(t *testing.T) *env {
	t.Helper()
	srv, err := localapi.New(localapi.Config{Speed: 50})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { srv.Close(); ts.Close() })
	c, err := client.New(client.Options{
		BaseURL: ts.URL, APIKey: localapi.DefaultAPIKey,
		Policy: reliability.Policy{PollInterval: 10 * time.Millisecond, PollTimeout: 10 * time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	ios, _, out, errOut := iostreams.Test()
	return &env{
		Seams: cmdutil.Seams{IO: ios, Client: func() (*client.Client, error) { return c, nil }},
		out:   out, errOut: errOut, srv: srv,
	}
}

func (e *env) reset() { e.out.Reset(); e.errOut.Reset() }

func (e *env) list(t *testing.T, opts ListOptions) string {
	t.Helper()
	e.reset()
	opts.Seams, opts.Spec = e.Seams, listSpec()
	if err := cmdutil.ListRun(context.Background(), &opts); err != nil {
		t.Fatal(err)
	}
	return e.out.String()
}

func TestListRun(t *testing.T) {
	e := setup(t)
	out := e.list(t, ListOptions{})
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 4 || strings.Join(strings.Fields(lines[0]), " ") != "ID NAME HOST PORT USER STATUS FUNDED PAID UNTIL" {
		t.Fatalf("table:\n%s", out)
	}
	for i, name := range []string{"unpaid", "prod-eu", "local"} { // newest first; ties by id, descending
		if f := strings.Fields(lines[i+1]); len(f) < 2 || f[1] != name {
			t.Errorf("row %d: %q, want %s", i+1, lines[i+1], name)
		}
	}
	if !strings.Contains(lines[1], " no ") {
		t.Errorf("unpaid is not marked unfunded: %q", lines[1])
	}

	// Filters reach the server; a page short of the total says so.
	var filter ListOptions
	filter.Name = "prod-eu"
	if out := e.list(t, filter); strings.Count(out, "\n") != 2 || !strings.Contains(out, "prod-eu") {
		t.Errorf("--name prod-eu:\n%s", out)
	}
	var page ListOptions
	page.PerPage = 1
	if out := e.list(t, page); strings.Count(out, "\n") != 2 || e.errOut.String() != "Showing 1 of 3 (page 1); use --page or --all for more.\n" {
		t.Errorf("--per-page 1: stdout\n%sstderr %q", out, e.errOut)
	}
	page.All = true
	if out := e.list(t, page); strings.Count(out, "\n") != 4 || e.errOut.Len() != 0 {
		t.Errorf("--all --per-page 1: stdout\n%sstderr %q", out, e.errOut)
	}

	e.IO.SetJSON(true)
	var items []client.Marquee
	if err := json.Unmarshal([]byte(e.list(t, ListOptions{})), &items); err != nil || len(items) != 3 {
		t.Errorf("--json: %s (%v)", e.out, err)
	}
	var none ListOptions
	none.Search = "nothing-matches"
	if out := e.list(t, none); out != "[]\n" {
		t.Errorf("empty --json: %q", out)
	}
}

// Filters the server could not match are usage errors, and nothing runs.
func TestListFlagsAreCheckedFirst(t *testing.T) {
	for _, args := range [][]string{
		{"--status", "paused"},
		{"--sort", "colour"},
		{"--created-after", "yesterday"},
		{"--all", "--page", "2"},
		{"--per-page", "-1"},
		{"extra"},
	} {
		ios, _, _, _ := iostreams.Test()
		ran := false
		cmd := NewCmdList(factory.New(ios, nil), func(context.Context, *ListOptions) error { ran = true; return nil })
		cmd.SetArgs(args)
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		if err := cmd.Execute(); output.ExitCode(err) != output.ExitUsage || ran {
			t.Errorf("%q: %v (exit %d, ran %v)", args, err, output.ExitCode(err), ran)
		}
	}
}

func TestGetRun(t *testing.T) {
	e := setup(t)
	ctx := context.Background()
	get := func(ref string) error {
		e.reset()
		return cmdutil.GetRun(ctx, &GetOptions{Seams: e.Seams, Spec: getSpec(nil), Ref: ref})
	}
	if err := get("unpaid"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Name", "unpaid", "Paid until", "Funded today", "no (top up to run playgrounds)"} {
		if !strings.Contains(e.out.String(), want) {
			t.Errorf("%q not in the card:\n%s", want, e.out)
		}
	}
	if err := get("nope"); output.ExitCode(err) != output.ExitNotFound {
		t.Errorf("get nope: %v (exit %d)", err, output.ExitCode(err))
	}
	e.IO.SetJSON(true)
	if err := get("prod-eu"); err != nil {
		t.Fatal(err)
	}
	var m client.Marquee
	if err := json.Unmarshal(e.out.Bytes(), &m); err != nil || m.Name != "prod-eu" {
		t.Errorf("--json: %s (%v)", e.out, err)
	}
}

// Create sends the flags and the key file (never printed back); update
// changes one field; both print the card.
func TestCreateAndUpdateRun(t *testing.T) {
	e := setup(t)
	ctx := context.Background()
	keyFile := filepath.Join(t.TempDir(), "id")
	const secret = "-----BEGIN OPENSSH PRIVATE KEY-----\nsecret-material\n-----END OPENSSH PRIVATE KEY-----\n"
	if err := os.WriteFile(keyFile, []byte(secret), 0o600); err != nil {
		t.Fatal(err)
	}
	create := &CreateOptions{Seams: e.Seams, Spec: createSpec(), BodyFlags: cmdutil.BodyFlags{Values: map[string]any{
		"name": "staging", "host": "203.0.113.7", "user": "deploy", "port": 2200, "ssh-key-file": keyFile,
	}}}
	if err := cmdutil.CreateRun(ctx, create); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"staging", "203.0.113.7", "2200", "deploy"} {
		if !strings.Contains(e.out.String(), want) {
			t.Errorf("%q not in the card:\n%s", want, e.out)
		}
	}
	if strings.Contains(e.out.String()+e.errOut.String(), "secret-material") {
		t.Error("the private key was printed")
	}

	e.reset()
	update := &UpdateOptions{Seams: e.Seams, Spec: updateSpec(nil), Ref: "staging",
		BodyFlags: cmdutil.BodyFlags{Values: map[string]any{"port": 2222}}}
	if err := cmdutil.UpdateRun(ctx, update); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(e.out.String(), "2222") || strings.Contains(e.out.String(), "2200") {
		t.Errorf("card after update:\n%s", e.out)
	}

	// A payload file works with or without the wrapper; flags win over it.
	payload := filepath.Join(t.TempDir(), "mq.json")
	if err := os.WriteFile(payload, []byte(`{"marquee": {"name": "from-file", "host": "198.51.100.1", "user": "ops"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	e.reset()
	e.IO.SetJSON(true)
	create = &CreateOptions{Seams: e.Seams, Spec: createSpec(), BodyFlags: cmdutil.BodyFlags{File: payload, Values: map[string]any{"user": "root"}}}
	if err := cmdutil.CreateRun(ctx, create); err != nil {
		t.Fatal(err)
	}
	var m client.Marquee
	if err := json.Unmarshal(e.out.Bytes(), &m); err != nil || m.Name != "from-file" || m.Host != "198.51.100.1" || m.User != "root" {
		t.Errorf("create -f --json: %s (%v)", e.out, err)
	}
}

// Bad bodies are usage errors naming what is wrong, and nothing is sent.
func TestBadBodiesSendNothing(t *testing.T) {
	e := setup(t)
	ctx := context.Background()
	before := e.srv.Stats().Mutations
	for _, c := range []struct {
		values map[string]any
		want   string
	}{
		{map[string]any{"name": "x"}, `--host is required (or "host" in the payload)`},
		{map[string]any{"host": "x"}, `--name is required (or "name" in the payload)`},
		{map[string]any{"name": "x", "host": "h", "port": 70000}, "--port must be between 1 and 65535"},
		{map[string]any{"name": "x", "host": "h", "ssh-key-file": filepath.Join(t.TempDir(), "missing")}, "--ssh-key-file cannot be read"},
	} {
		err := cmdutil.CreateRun(ctx, &CreateOptions{Seams: e.Seams, Spec: createSpec(), BodyFlags: cmdutil.BodyFlags{Values: c.values}})
		if output.ExitCode(err) != output.ExitUsage || !strings.Contains(err.Error(), c.want) {
			t.Errorf("create %v: %v, want %q", c.values, err, c.want)
		}
	}
	err := cmdutil.UpdateRun(ctx, &UpdateOptions{Seams: e.Seams, Spec: updateSpec(nil), Ref: "local"})
	if output.ExitCode(err) != output.ExitUsage || err.Error() != "nothing to change: give --name, --host, --port, --user, --ssh-key-file or -f" {
		t.Errorf("update without changes: %v", err)
	}
	if got := e.srv.Stats().Mutations; got != before {
		t.Errorf("%d mutations sent", got-before)
	}
}

// test-connection waits for the test and reports it; an unreachable host
// is exit 1 with nothing on stdout. ssh-key prints the public key line;
// --no-wait prints the handle instead.
func TestAsyncCommandsRun(t *testing.T) {
	e := setup(t)
	ctx := context.Background()
	if err := testConnectionRun(ctx, &RefOptions{Seams: e.Seams, Ref: "local"}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(e.out.String(), "✓ Connected to local: connected to ") {
		t.Errorf("test-connection: %q", e.out)
	}

	if err := cmdutil.CreateRun(ctx, &CreateOptions{Seams: e.Seams, Spec: createSpec(), BodyFlags: cmdutil.BodyFlags{Values: map[string]any{
		"name": "gone", "host": "gone.invalid"}}}); err != nil {
		t.Fatal(err)
	}
	e.reset()
	err := testConnectionRun(ctx, &RefOptions{Seams: e.Seams, Ref: "gone"})
	if output.ExitCode(err) != output.ExitError || e.out.Len() != 0 || !strings.Contains(err.Error(), "no such host") {
		t.Errorf("unreachable: %v (exit %d), stdout %q", err, output.ExitCode(err), e.out)
	}

	e.reset()
	if err := sshKeyRun(ctx, &RefOptions{Seams: e.Seams, Ref: "prod-eu"}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(e.out.String(), "ssh-ed25519 ") || !strings.HasSuffix(e.out.String(), " fibe@prod-eu\n") {
		t.Errorf("ssh-key: %q", e.out)
	}

	e.reset()
	e.IO.SetJSON(true)
	opts := &RefOptions{Seams: e.Seams, Ref: "prod-eu"}
	opts.Wait.NoWait = true
	if err := sshKeyRun(ctx, opts); err != nil {
		t.Fatal(err)
	}
	var h map[string]any
	if err := json.Unmarshal(e.out.Bytes(), &h); err != nil {
		t.Fatalf("--no-wait --json: %s (%v)", e.out, err)
	}
	id, _ := h["request_id"].(string)
	if id == "" || h["status_url"] == nil {
		t.Errorf("--no-wait --json handle: %s", e.out)
	}

	// For people, the handle and the command that waits for it, worded
	// by the Command seam.
	e.reset()
	e.IO.SetJSON(false)
	opts.Command = func(args ...string) string { return "fibe --profile ci " + strings.Join(args, " ") }
	if err := sshKeyRun(ctx, opts); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(e.out.String(), "Request") || !strings.HasPrefix(e.errOut.String(), "Wait for it with: fibe --profile ci ops wait ") {
		t.Errorf("--no-wait: stdout %q stderr %q", e.out, e.errOut)
	}
}

func TestDeleteRun(t *testing.T) {
	e := setup(t)
	ctx := context.Background()
	err := cmdutil.DeleteRun(ctx, &cmdutil.DeleteOptions{Seams: e.Seams, Spec: deleteSpec(nil), Ref: "unpaid", Yes: true})
	if err != nil {
		t.Fatal(err)
	}
	if e.out.String() != "✓ Deleted marquee unpaid\n" {
		t.Errorf("delete: %q", e.out)
	}
	e.reset()
	if err := cmdutil.GetRun(ctx, &GetOptions{Seams: e.Seams, Spec: getSpec(nil), Ref: "unpaid"}); output.ExitCode(err) != output.ExitNotFound {
		t.Errorf("get after delete: %v", err)
	}
}
