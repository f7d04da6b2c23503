package client

import (
	"testing"

	"github.com/fibegg/fibe/internal/localapi"
)

// A logs snapshot is a read sent as POST: it is not journaled, so when its
// answer is lost the error promises nothing to finish (no unknown outcome,
// no key to reuse) and the journal stays empty.
func TestLostReadOnlyPostPromisesNoReRun(t *testing.T) {
	s, url := emulator(t, localapi.Config{})
	c := journalClient(t, url, t.TempDir(), "default", nil)
	if _, _, err := c.Playgrounds.Create(ctxT(t), map[string]any{"name": "ro-1", "playspec_id": "web", "marquee_id": "local"}, MutationOptions{}, WaitOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetChaos("commit-then-502=1"); err != nil {
		t.Fatal(err)
	}
	_, _, err := c.Playgrounds.Logs(ctxT(t), "ro-1", "", 0, MutationOptions{}, WaitOptions{})
	e := mustError(t, err, CodeInternal)
	if e.OutcomeUnknown || e.Resume != nil || IsOutcomeUnknown(err) {
		t.Errorf("a lost logs snapshot promises a re-run: %+v", e)
	}
	if list := pending(t, c); len(list) != 0 {
		t.Errorf("journal = %+v", list)
	}
	// A mutation under the same fault still does.
	_, _, err = c.Playgrounds.Action(ctxT(t), "ro-1", "rollout", false, MutationOptions{}, WaitOptions{})
	if e := mustError(t, err, CodeInternal); !e.OutcomeUnknown || e.Resume == nil {
		t.Errorf("a lost rollout: %+v", e)
	}
}
