package mcpserver

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// docsMarkdown is docs/mcp-tools.md: every registered tool with its hints
// and arguments, generated from the registry so it cannot drift.
func docsMarkdown() string {
	var b strings.Builder
	b.WriteString("# MCP tools\n\n")
	b.WriteString("<!-- Generated from the registered tools by `go test ./internal/mcpserver -run TestToolDocs -update`; do not edit. -->\n\n")
	b.WriteString(resultsIntro)
	b.WriteString(summary())
	b.WriteString(longWork)
	for _, t := range Tools() {
		fmt.Fprintf(&b, "\n## `%s`\n\n%s\n\n", t.Name, t.Description)
		fmt.Fprintf(&b, "Hints: %s.\n\n", strings.Join(hints(t), ", "))
		fmt.Fprintf(&b, "Result (`structuredContent`): %s.\n\n", resultShape(t.Output))
		props := t.Input.Properties
		if len(props) == 0 {
			b.WriteString("No arguments.\n")
			continue
		}
		b.WriteString("| argument | type | required | description |\n|---|---|---|---|\n")
		required := map[string]bool{}
		for _, r := range t.Input.Required {
			required[r] = true
		}
		names := make([]string, 0, len(props))
		for n := range props {
			names = append(names, n)
		}
		sort.Slice(names, func(i, j int) bool {
			if required[names[i]] != required[names[j]] {
				return required[names[i]]
			}
			return names[i] < names[j]
		})
		for _, n := range names {
			p := props[n]
			req := ""
			if required[n] {
				req = "yes"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", n, typeOf(p), req, cell(describe(p)))
		}
	}
	return b.String()
}

const resultsIntro = "`fibe mcp serve` offers these tools. Durations are in seconds. Every tool's input and output\n" +
	"schemas are in `tools/list`.\n\n" +
	"## Results\n\n" +
	"- The text content of a success is exactly what `--json` prints for the same command.\n" +
	"- `structuredContent` is always a JSON object and every output schema is an object schema (`\"type\": \"object\"`),\n" +
	"  as the MCP specification requires and its clients enforce. A list is wrapped as\n" +
	"  `{\"items\": [...], \"page\", \"per_page\", \"total\"}` with the paging facts the API gave (`total` alone with\n" +
	"  `all`); `fibe_api` keeps an object answer as it is (the API's own envelope), wraps an array as `{\"items\": [...]}`\n" +
	"  and any other JSON value as `{\"value\": ...}`; an answer that is not JSON is `{status, content_type, text}`.\n" +
	"- A tool that can wait answers, instead of its result, the 202 handle `{request_id, status, status_url}` with\n" +
	"  `\"wait\": false`, or the hand-off handle `{status: \"pending\", handed_off: true, ..., resume}` when the call's\n" +
	"  budget ends first (see \"Long work\" below).\n" +
	"- A replayed mutation carries `\"_meta\": {\"idempotent_replayed\": true}`.\n" +
	"- A failure is an `isError` result holding `{\"error\": {code, message, status, request_id, details, retryable,\n" +
	"  idempotency_key, resume}}`; `resume`, when set, is the tool call that continues.\n\n" +
	"## Tools\n\n"

const longWork = `
## Long work

MCP clients give up on a call after their own timeout (60 s in some desktop clients) and drop the
answer that comes later, so a call that waits answers before that:

- **Call budget.** Every tool that waits takes ` + "`call_budget`" + ` (seconds, 0 = none; default the server's
  ` + "`--call-budget`" + `, setting ` + "`mcp_call_budget`" + `, 50 s). When it is shorter than the wait's timeout and the
  work is still pending at its end, the call answers a success, the hand-off handle
  ` + "`{\"status\": \"pending\", \"handed_off\": true, \"request_id\"?, \"status_url\"?, \"playground\"?, \"idempotency_key\", \"waiting_for\", \"resume\"}`" + `,
  and stops polling; the platform goes on. ` + "`resume`" + ` is ` + "`fibe_ops_wait`" + ` with the ` + "`request_id`" + ` of a pending
  operation, or ` + "`fibe_playgrounds_wait`" + ` with the playground and the state awaited (a create waiting until
  ` + "`running`" + `). When the budget is not shorter than ` + "`wait_timeout`" + `, the wait ends as before, with ` + "`ASYNC_TIMEOUT`" + `.
  A handed-off mutation keeps its outcome-journal entry (docs/contract.md §10), marked handed off, until
  its operation ends or the server's 24 h replay window closes, whatever the journal window, so calling the
  same tool again with the same arguments resumes the same operation; it never starts a second one.
- **Heartbeat.** A call that carries a ` + "`progressToken`" + ` gets a progress notification at least every 10 s,
  even when nothing changed.
- **Cancellation.** ` + "`notifications/cancelled`" + ` for a call stops its work (polls, retries and waits end within a
  second) and the call gets no response, as the protocol says: over stdio nothing is written for it; over
  streamable HTTP (` + "`--http`" + `) the event stream of the POST that carried the call ends without it (no event
  store is kept, so no resumption replays it either). A cancel that arrives after the answer went out changes
  nothing. A JSON-RPC batch (protocol revision 2025-03-26) shares one stream: cancelling one of its calls ends
  that stream for the others too.
- **End of input (stdio).** A call read before stdin closed that ends within 2 s is answered before the server
  exits, so a script may write its requests and close stdin at once (` + "`printf '...' | fibe mcp serve`" + `).
  Closing stdin is also how a client shuts its server down: work still running after those 2 s (a wait) is
  cancelled, and the server exits 0 without its answer.
- **Confirmation.** A destructive tool (` + "`_delete`" + `, ` + "`_stop`" + `), and a ` + "`fibe_api`" + ` request that may change something
  (any method but GET, except the POSTs that only read or test: a status refresh, a logs snapshot, a
  connection test), called without ` + "`\"confirm\": true`" + ` asks the user with a form (` + "`elicitation/create`" + `, one boolean
  field, e.g. "Delete playground preview-42?") when the client declared the ` + "`elicitation`" + ` capability. Only an
  accepted true runs it; a decline, a cancel, false or an answer that is not a boolean is the same
  ` + "`INVALID_ARGUMENT`" + ` (field ` + "`confirm`" + `) as a missing ` + "`confirm`" + `, and nothing is sent. Clients without the capability
  pass ` + "`confirm`" + `. ` + "`fibe mcp serve --yes`" + ` skips both.
- **Resources.** Templates ` + "`fibe://playgrounds/{ref}`" + `, ` + "`fibe://marquees/{ref}`" + ` and
  ` + "`fibe://operations/{request_id}`" + `: reading one is a GET under the contract, its contents the ` + "`--json`" + ` document
  (` + "`application/json`" + `); a URI that names nothing is a resource-not-found error, never an empty document.
  ` + "`resources/list`" + ` lists the first page of playgrounds and marquees. ` + "`resources/subscribe`" + ` on a playground sends
  ` + "`notifications/resources/updated`" + ` when its status changes: one poller per playground (every ` + "`poll_interval`" + `),
  shared by every subscriber, stopped on the last unsubscribe or when the session ends.
- **Tool sets.** ` + "`--tools core|full`" + ` (setting ` + "`mcp_tools`" + `): ` + "`full`" + ` is every tool below; ` + "`core`" + ` leaves out
  the tools of resources beyond playgrounds and marquees (marked "full set only", today ` + "`fibe_playspecs_list`" + `
  and ` + "`fibe_playspecs_get`" + `). The tools of the generic verbs (list, get, create, update, delete) and of the
  actions are generated from each resource's one description, the one the command line is built from, so
  their arguments, checks and bodies are the command line's. Tools and their schemas are built on the first
  ` + "`tools/list`" + ` or ` + "`tools/call`" + `, not at startup.
`

// resultShape names the top-level fields of an output schema, and each
// alternative of one that has several.
func resultShape(s *jsonschema.Schema) string {
	if len(s.AnyOf) > 0 {
		alts := make([]string, len(s.AnyOf))
		for i, a := range s.AnyOf {
			alts[i] = resultShape(a)
		}
		return strings.Join(alts, ", or ")
	}
	if len(s.Properties) == 0 {
		return "any JSON object"
	}
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, "`"+n+"`")
	}
	sort.Strings(names)
	return "{" + strings.Join(names, ", ") + "}"
}

// Summary is the table of tool names and what they do (README).
func summary() string {
	var b strings.Builder
	b.WriteString("| tool | does |\n|---|---|\n")
	for _, t := range Tools() {
		desc := t.Description
		if i := strings.Index(desc, ". "); i > 0 {
			desc = desc[:i+1]
		}
		fmt.Fprintf(&b, "| `%s` | %s |\n", t.Name, cell(desc))
	}
	return b.String()
}

func hints(t *Tool) []string {
	var h []string
	switch {
	case t.ReadOnly:
		h = append(h, "read-only")
	case t.Destructive && t.Gated:
		h = append(h, "destructive (asks the user, or needs `confirm: true`)")
	case t.Destructive:
		h = append(h, "destructive")
	default:
		h = append(h, "mutating")
	}
	if t.Idempotent {
		h = append(h, "idempotent")
	}
	if t.Local {
		h = append(h, "local state only")
	}
	if !coreTools[t.Name] {
		h = append(h, "full set only")
	}
	return h
}

func typeOf(s *jsonschema.Schema) string {
	if s.Type != "" {
		if s.Type == "object" && s.AdditionalProperties != nil && s.AdditionalProperties.Type != "" {
			return "object of " + s.AdditionalProperties.Type
		}
		return s.Type
	}
	return strings.Join(s.Types, " or ")
}

func describe(s *jsonschema.Schema) string {
	d := s.Description
	var extra []string
	if len(s.Enum) > 0 {
		vals := make([]string, len(s.Enum))
		for i, v := range s.Enum {
			vals[i] = fmt.Sprintf("`%v`", v)
		}
		extra = append(extra, "one of "+strings.Join(vals, ", "))
	}
	if s.Minimum != nil && s.Maximum != nil {
		extra = append(extra, fmt.Sprintf("%g to %g", *s.Minimum, *s.Maximum))
	}
	if len(s.Default) > 0 {
		var v any
		if json.Unmarshal(s.Default, &v) == nil {
			extra = append(extra, fmt.Sprintf("default `%v`", v))
		}
	}
	if len(extra) > 0 {
		if d != "" {
			d += " "
		}
		d += "(" + strings.Join(extra, "; ") + ")"
	}
	return d
}

func cell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
}
