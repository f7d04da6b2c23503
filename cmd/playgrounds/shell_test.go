package playgrounds

import (
	"context"
	"strings"
	"testing"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/stream"
)

func TestReadKeysEscape(t *testing.T) {
	cases := []struct {
		typed string
		sent  string
		left  bool
	}{
		{"ab\x1dxcd\x1dq", "ab\x1dxcd", true},   // Ctrl-] x sends both; Ctrl-] q leaves
		{"\x1d\x1d", "", true},                  // a second Ctrl-] leaves too
		{"\x03\xff\x00", "\x03\xff\x00", false}, // Ctrl-C and binary go through
	}
	for _, c := range cases {
		input := make(chan stream.Input, 4)
		left := false
		readKeys(context.Background(), strings.NewReader(c.typed), input, func() { left = true })
		close(input)
		var sent strings.Builder
		for in := range input {
			sent.Write(in.Data)
		}
		if sent.String() != c.sent || left != c.left {
			t.Errorf("%q: sent %q, left %v; want %q, %v", c.typed, sent.String(), left, c.sent, c.left)
		}
	}
}

func TestShellRunLineSessionAndCommand(t *testing.T) {
	f, out, _, _ := setup(t)
	ctx := context.Background()
	if err := cmdutil.CreateRun(ctx, createOpts(f, map[string]any{"name": "shu", "playspec": "web"})); err != nil {
		t.Fatal(err)
	}
	if err := actionRun(ctx, &ActionOptions{Seams: f.Seams(), Ref: "shu", Action: rollout}); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	f.IOStreams.In = strings.NewReader("echo hi\nexit 3\n")
	err := shellRun(ctx, &ShellOptions{Seams: f.Seams(), StreamClient: f.StreamClient, Ref: "shu"})
	if out.String() != "hi\n" || output.ExitCode(err) != 3 {
		t.Fatalf("stdout %q, err %v (exit %d)", out, err, output.ExitCode(err))
	}
	out.Reset()
	err = shellRun(ctx, &ShellOptions{Seams: f.Seams(), StreamClient: f.StreamClient, Ref: "shu", Service: "worker", Command: []string{"ls"}})
	if err != nil || out.String() != "Dockerfile  jobs  worker.py\n" {
		t.Fatalf("stdout %q, err %v", out, err)
	}
}
