package fibe_test

import (
	"testing"

	"github.com/fibegg/fibe/pkg/fibe"
)

// The SDK's agents and tricks through the emulator: the verbs, a copy,
// the runtime status; bad input is INVALID_ARGUMENT and nothing is sent.
func TestAgentsService(t *testing.T) {
	srv := server(t)
	c := srv.Client()
	ctx := ctxT(t)
	a, resp, err := c.Agents.Create(ctx, &fibe.AgentCreateParams{Name: "reviewer", Provider: "opencode", Description: "reads diffs",
		Extra: map[string]any{"skill_toggles": map[string]any{"lint": true}}})
	if err != nil || resp == nil || a.ProviderLabel == "" || a.Description == nil || *a.Description != "reads diffs" ||
		a.EffectiveMemoryLimit == nil || a.EffectiveSkillToggles["lint"] != true {
		t.Fatalf("create: %+v %v", a, err)
	}
	up, _, err := c.Agents.Update(ctx, "reviewer", &fibe.AgentUpdateParams{Sync: new(true), MemoryLimit: "4g"})
	if err != nil || !up.SyncEnabled || up.EffectiveMemoryLimit == nil || *up.EffectiveMemoryLimit != "4g" {
		t.Fatalf("update: %+v %v", up, err)
	}
	cp, _, err := c.Agents.Duplicate(ctx, "reviewer")
	if err != nil || cp.ID == a.ID || cp.Provider != "opencode" || cp.Name != "reviewer-copy" {
		t.Fatalf("duplicate: %+v %v", cp, err)
	}
	st, _, err := c.Agents.RuntimeStatus(ctx, cp.Name)
	if err != nil || st.ID != cp.ID || st.Status != "stopped" || st.RuntimeReachable {
		t.Fatalf("runtime status: %+v %v", st, err)
	}
	list, page, err := c.Agents.List(ctx, &fibe.AgentListOptions{Provider: "opencode", IncludeRuntimeStatus: true,
		ListOptions: fibe.ListOptions{Sort: "name_asc"}})
	if err != nil || len(list) != 2 || list[0].Name != "reviewer" || list[1].RuntimeStatus == nil || page.Page().Total != 2 {
		t.Fatalf("list: %+v %v", list, err)
	}
	if _, err := c.Agents.Delete(ctx, "reviewer"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Agents.Get(ctx, "reviewer"); !fibe.IsNotFound(err) {
		t.Fatalf("get after delete: %v", err)
	}

	before := sum(requests(srv, "POST /api/agents"))
	for name, p := range map[string]*fibe.AgentCreateParams{
		"no provider":      {Name: "x"},
		"unknown provider": {Name: "x", Provider: "bogus"},
		"no name":          {Provider: "gemini"},
	} {
		if _, _, err := c.Agents.Create(ctx, p); asError(t, err).Code != fibe.CodeInvalidArgument {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, _, err := c.Tricks.Trigger(ctx, &fibe.TrickTriggerParams{}); asError(t, err).Code != fibe.CodeInvalidArgument {
		t.Errorf("trigger without a playspec: %v", err)
	}
	if after := sum(requests(srv, "POST /api/agents")); after != before {
		t.Errorf("bad input sent %d requests", after-before)
	}
	if tricks, _, err := c.Tricks.List(ctx, &fibe.TrickListOptions{Result: fibe.TrickFailed}); err != nil || len(tricks) != 0 {
		t.Errorf("tricks: %v %v", tricks, err)
	}
}

func TestTrickOutcome(t *testing.T) {
	yes, no := true, false
	for _, c := range []struct {
		p    fibe.Playground
		want string
	}{
		{fibe.Playground{Status: "completed", ResultStatus: "failed", JobResult: &fibe.JobResult{Success: &yes}}, fibe.TrickFailed},
		{fibe.Playground{Status: "completed", JobResult: &fibe.JobResult{Success: &no}}, fibe.TrickFailed},
		{fibe.Playground{Status: "completed", JobResult: &fibe.JobResult{Success: &yes}}, fibe.TrickSucceeded},
		{fibe.Playground{Status: "completed"}, fibe.TrickUnknown},
		{fibe.Playground{Status: "error"}, fibe.TrickFailed},
		{fibe.Playground{Status: "running"}, fibe.TrickRunning},
		{fibe.Playground{Status: "running", ResultStatus: " Succeeded "}, fibe.TrickSucceeded},
	} {
		if got := fibe.TrickOutcome(&c.p); got != c.want {
			t.Errorf("%+v: %s, want %s", c.p, got, c.want)
		}
	}
}
