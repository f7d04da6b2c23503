//go:build unix

package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fibegg/fibe/internal/localapi"
)

// TestDocExamples types the examples of the command-line reference into a
// shell, as written, against the emulator (jq where it is installed).
func TestDocExamples(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	w.env["PATH"] = filepath.Dir(fibeBin) + ":" + pathEnv()
	w.env["CI_JOB_ID"] = "4242"
	_, jqErr := exec.LookPath("jq")
	sh := func(line string) string {
		t.Helper()
		cmd := exec.Command("sh", "-ec", line)
		cmd.Env = w.environ()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", line, err, out)
		}
		return string(out)
	}
	mustContain(t, "create", sh(`fibe pg create --name preview-42 --playspec web --marquee prod-eu`), "preview-42", "prod-eu")
	mustContain(t, "rollout", sh(`fibe pg rollout preview-42`), "running")
	mustContain(t, "--jq", sh(`fibe pg list --jq '.[].name'`), "preview-42")
	mustContain(t, "restart", sh(`fibe pg restart preview-42 --idempotency-key "ci-$CI_JOB_ID-restart"`), "running")
	mustContain(t, "restart again", sh(`fibe pg restart preview-42 --idempotency-key "ci-$CI_JOB_ID-restart" 2>&1 >/dev/null`), "Replayed", "ci-4242-restart")
	if jqErr != nil {
		t.Log("jq not installed: the examples piped into jq are not run")
		return
	}
	id := strings.TrimSpace(sh(`fibe pg rollout preview-42 --no-wait --json | jq -r .request_id`))
	if !strings.HasPrefix(id, "req_") {
		t.Fatalf("request id from --no-wait --json | jq: %q", id)
	}
	mustContain(t, "ops wait", sh(`fibe ops wait `+id), "preview-42", "running")
	if got := strings.TrimSpace(sh(`fibe pg list --json | jq '.[] | select(.status=="running") | .name'`)); got != `"preview-42"` {
		t.Errorf("list | jq select: %q", got)
	}
}
