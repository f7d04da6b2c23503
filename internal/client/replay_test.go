package client

import (
	"testing"

	"github.com/fibegg/fibe/internal/localapi"
)

// A create replayed after its playground was deleted: one GET after the
// replay finds it gone, and the create ends in CONFLICT naming why and whose
// key it was, instead of showing the first answer's "creating".
func TestReplayedCreateOfADeletedPlayground(t *testing.T) {
	s, url := emulator(t, localapi.Config{})
	c := emulatorClient(t, url)
	body := map[string]any{"name": "gone-1", "playspec_id": "web", "marquee_id": "local"}
	mo := MutationOptions{IdempotencyKey: "readme-demo"}
	if _, _, err := c.Playgrounds.Create(ctxT(t), body, mo, WaitOptions{}); err != nil {
		t.Fatal(err)
	}

	// Replayed while it exists: the playground as it is now.
	p, resp, err := c.Playgrounds.Create(ctxT(t), body, mo, WaitOptions{})
	if err != nil || !resp.Replayed || !resp.Refreshed || p.Name != "gone-1" {
		t.Fatalf("replay of a live create: %+v %+v %v", p, resp, err)
	}

	if _, err := c.Playgrounds.Delete(ctxT(t), "gone-1", MutationOptions{}, WaitOptions{}); err != nil {
		t.Fatal(err)
	}
	gets := s.Stats().Requests["GET /api/playgrounds/{id}"]["404"]
	_, _, err = c.Playgrounds.Create(ctxT(t), body, mo, WaitOptions{})
	e := mustError(t, err, CodeConflict)
	if e.Details["reason"] != ReasonReplayedResourceGone || e.Details["key_source"] != KeySourceExplicit ||
		e.Details["playground"] != "gone-1" || e.IdempotencyKey != "readme-demo" || !e.Replayed || e.OutcomeUnknown || e.Resume != nil {
		t.Fatalf("replay of a deleted create: %+v", e)
	}
	if n := s.Stats().Requests["GET /api/playgrounds/{id}"]["404"] - gets; n != 1 {
		t.Errorf("%d GETs after the replay, want 1", n)
	}
	if n := s.Stats().Creates["gone-1"]; n != 1 {
		t.Errorf("creates = %d, want 1", n)
	}
}

// The same with a key the journal handed out (the first answer was lost):
// the error says so, so the words can offer --new-key.
func TestReplayedCreateOfADeletedPlaygroundJournaledKey(t *testing.T) {
	s, url := emulator(t, localapi.Config{Seed: 1, Chaos: "commit-then-502=1"})
	dir := t.TempDir()
	body := map[string]any{"name": "gone-2", "playspec_id": "web", "marquee_id": "local"}
	first := journalClient(t, url, dir, "default", nil)
	if _, _, err := first.Playgrounds.Create(ctxT(t), body, MutationOptions{}, WaitOptions{}); !IsOutcomeUnknown(err) {
		t.Fatalf("the first answer must be lost: %v", err)
	}
	if err := s.SetChaos(""); err != nil {
		t.Fatal(err)
	}
	if _, err := first.Playgrounds.Delete(ctxT(t), "gone-2", MutationOptions{}, WaitOptions{}); err != nil {
		t.Fatal(err)
	}
	again := journalClient(t, url, dir, "default", nil)
	_, _, err := again.Playgrounds.Create(ctxT(t), body, MutationOptions{}, WaitOptions{})
	e := mustError(t, err, CodeConflict)
	if e.Details["reason"] != ReasonReplayedResourceGone || e.Details["key_source"] != KeySourceJournal {
		t.Fatalf("replay with a journaled key: %+v", e)
	}
	if list := pending(t, again); len(list) != 0 {
		t.Errorf("the replay settled the entry; journal = %+v", list)
	}
}
