package mcpserver

import (
	"sync"

	"github.com/fibegg/fibe/internal/resource"
)

// The tool sets of --tools (setting mcp_tools).
const (
	ToolsCore = "core"
	ToolsFull = "full"
)

// coreTools are the tools docs/mcp-tools.md names: the core set.
var coreTools = map[string]bool{
	"fibe_playgrounds_list": true, "fibe_playgrounds_get": true, "fibe_playgrounds_create": true,
	"fibe_playgrounds_update": true, "fibe_playgrounds_delete": true, "fibe_playgrounds_action": true,
	"fibe_playgrounds_stop": true, "fibe_playgrounds_exec": true, "fibe_playgrounds_status": true,
	"fibe_playgrounds_wait": true, "fibe_playgrounds_logs": true, "fibe_logs_follow": true,
	"fibe_marquees_list": true, "fibe_marquees_get": true, "fibe_marquees_create": true,
	"fibe_marquees_update": true, "fibe_marquees_delete": true, "fibe_marquees_test_connection": true,
	"fibe_ops_get": true, "fibe_ops_wait": true, "fibe_breaker_status": true, "fibe_breaker_reset": true,
	"fibe_api": true, "fibe_whoami": true,
}

// ToolSet is the tools of a set: core, or full (every tool the server
// has; as resources gain tools of their own, only full lists them).
func ToolSet(name string) []*Tool {
	if name == ToolsFull {
		return Tools()
	}
	var out []*Tool
	for _, t := range Tools() {
		if coreTools[t.Name] {
			out = append(out, t)
		}
	}
	return out
}

// Tools returns every tool the server has, in a stable order, built on
// the first call.
func Tools() []*Tool {
	toolsOnce.Do(func() { tools = buildTools() })
	return tools
}

var (
	toolsOnce sync.Once
	tools     []*Tool
)

// buildTools lists the tools: each resource's generated tools (verbs.go),
// the playgrounds' own after theirs, then the tools of operations,
// breakers, identity and the raw API.
func buildTools() []*Tool {
	pg := resource.Playgrounds()
	out := resourceTools(pg)
	out = append(out, pgExec(), pgStatus(), pgWait(), pgLogs(), logsFollow())
	out = append(out, extraTools()...)
	for _, r := range resource.All() {
		if r != pg {
			out = append(out, resourceTools(r)...)
		}
	}
	out = append(out, psServices(), composeValidate())
	out = append(out, tplVersions(), tplVersionCreate(), tplPublish(), tplLaunch(), launchTool())
	out = append(out, tricksList(), tricksRun(), tricksStatus(), tricksWait())
	out = append(out, webhookTest(), webhookDeliveries(), webhookEventTypes())
	out = append(out, propTools()...)
	return append(out, opsGet(), opsWait(), breakerStatus(), breakerReset(), whoami(), api())
}
