package client

import (
	"strings"
	"sync"
	"testing"

	"github.com/fibegg/fibe/internal/localapi"
)

// Each mutation's own callback (MutationOptions.OnEvent) hears its
// attempts, retry, replay, 202 and polls, and nothing of another mutation
// running at the same time; the client's callback hears both.
func TestMutationOnEventIsPerOperation(t *testing.T) {
	s, url := emulator(t, localapi.Config{Seed: 1})
	all := &eventLog{}
	c := emulatorClient(t, url, func(o *Options) { o.OnEvent = all.add; o.Policy.BreakerThreshold = 1000 })
	refs := []string{mustCreate(t, c, "ev-a"), mustCreate(t, c, "ev-b")}
	if err := s.SetChaos("commit-then-502=1"); err != nil {
		t.Fatal(err)
	}
	logs := []*eventLog{{}, {}}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, ref := range refs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, errs[i] = c.Playgrounds.Action(ctxT(t), ref, "rollout", false, MutationOptions{OnEvent: logs[i].add}, WaitOptions{})
		}()
	}
	wg.Wait()
	ids := map[string]bool{}
	for i, ref := range refs {
		if errs[i] != nil {
			t.Fatalf("rollout %s: %v", ref, errs[i])
		}
		l := logs[i]
		accepted := l.kinds(EventAccepted)
		if len(accepted) != 1 || accepted[0].RequestID == "" {
			t.Fatalf("%s: accepted events %+v", ref, accepted)
		}
		id := accepted[0].RequestID
		ids[id] = true
		if n := len(l.kinds(EventAttempt)); n < 2 {
			t.Errorf("%s: %d attempts heard, want the first and its retry at least", ref, n)
		}
		if n := len(l.kinds(EventRetry)); n < 1 {
			t.Errorf("%s: no retry heard after the lost answer", ref)
		}
		if n := len(l.kinds(EventReplay)); n != 1 {
			t.Errorf("%s: %d replays heard, want 1", ref, n)
		}
		polls := l.kinds(EventPoll)
		if len(polls) == 0 || polls[len(polls)-1].Status != "success" {
			t.Errorf("%s: polls %+v, the last one success", ref, polls)
		}
		l.mu.Lock()
		for _, e := range l.events {
			if strings.Contains(e.URL, refs[1-i]) || (e.RequestID != "" && e.Kind == EventPoll && e.RequestID != id) {
				t.Errorf("%s heard an event of the other rollout: %+v", ref, e)
			}
		}
		n := len(l.events)
		l.mu.Unlock()
		all.mu.Lock()
		total := len(all.events)
		all.mu.Unlock()
		if total < n {
			t.Errorf("the client's callback heard %d events, fewer than one operation's %d", total, n)
		}
	}
	if len(ids) != 2 {
		t.Fatalf("the two rollouts had one request id: %v", ids)
	}
}
