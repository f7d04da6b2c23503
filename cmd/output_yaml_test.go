package cmd

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/fibegg/fibe/cmd/cmdutil/cmdtest"
	"github.com/fibegg/fibe/cmd/factory"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/output"
)

// yamlCase is how one command is run for TestYAMLMatchesJSON: its
// arguments, its stdin, and what must happen before each run so that both
// runs print the same document (mutations carry a fixed idempotency key,
// so the second run is the server's replay of the first).
type yamlCase struct {
	args   []string
	stdin  string
	before [][]string
	// drop removes the settings that differ between the two runs by
	// design (config list shows the output setting itself).
	drop string
	// shape compares the documents with every string and number blanked:
	// each run reads lines the emulator writes as time goes by, or
	// measures a latency.
	shape bool
	// raw: what is printed is a file fragment for another program (an MCP
	// client's JSON config), the same bytes whatever the output format.
	raw bool
}

// yamlExempt are the commands that print no document: they serve until
// interrupted, write files, or print a script or a terminal.
var yamlExempt = map[string]string{
	"completion":        "prints a shell script; refuses --json",
	"man":               "writes manual pages; refuses --json",
	"local serve":       "serves until interrupted",
	"console":           "serves until interrupted",
	"mcp serve":         "serves until interrupted",
	"playgrounds shell": "a terminal; its --json is a stream of frames",
}

// runFibe runs the command tree in process and returns stdout and the error.
func runFibe(t *testing.T, stdin string, args ...string) (string, error) {
	t.Helper()
	ios, in, out, _ := iostreams.Test()
	in.WriteString(stdin)
	root := NewCmdRoot(factory.New(ios, args))
	root.SetArgs(args)
	err := Execute(context.Background(), root)
	if err != nil {
		output.PrintError(ios, err, args, "")
	}
	return out.String(), err
}

func leafCommands(c *cobra.Command) []string {
	var out []string
	for _, s := range c.Commands() {
		if s.Hidden || s.Name() == "help" {
			continue
		}
		if s.HasSubCommands() {
			out = append(out, leafCommands(s)...)
			continue
		}
		out = append(out, strings.TrimPrefix(s.CommandPath(), "fibe "))
	}
	return out
}

// TestYAMLMatchesJSON runs every command of the tree that prints a
// document twice, with --json and with --output yaml, and checks that the
// YAML parsed back is the JSON document; streams (NDJSON) and commands
// that print nothing on stdout print the same bytes both ways. A command
// added to the tree without a case here (or an exemption) fails the test.
func TestYAMLMatchesJSON(t *testing.T) {
	_, url := cmdtest.Emulator(t, localapi.Config{})
	cmdtest.Isolate(t, map[string]string{"FIBE_API_URL": url, "FIBE_API_KEY": localapi.DefaultAPIKey, "FIBE_POLL_INTERVAL": "20ms",
		"SHELL": ""}) // doctor does not look for completion: every check passes
	ctx := func(args ...string) {
		t.Helper()
		if out, err := runFibe(t, "", args...); err != nil {
			t.Fatalf("setup %v: %v\n%s", args, err, out)
		}
	}
	// A settled playground, a finished operation to look at, and things to delete.
	ctx("pg", "create", "--name", "yaml-pg", "--playspec", "web", "--marquee", "local")
	ctx("pg", "rollout", "yaml-pg")
	out, _ := runFibe(t, "", "pg", "restart", "yaml-pg", "--no-wait", "--json")
	var h struct {
		RequestID string `json:"request_id"`
	}
	if err := json.Unmarshal([]byte(out), &h); err != nil || h.RequestID == "" {
		t.Fatalf("restart handle %q: %v", out, err)
	}
	ctx("ops", "wait", h.RequestID)
	ctx("pg", "create", "--name", "yaml-del", "--playspec", "web", "--marquee", "local")
	// One playground per action sent without waiting, so that none finds
	// another's operation still running.
	for _, name := range []string{"yaml-ro", "yaml-rs", "yaml-st", "yaml-sp"} {
		ctx("pg", "create", "--name", name, "--playspec", "web", "--marquee", "local")
		ctx("pg", "rollout", name)
	}
	ctx("mq", "create", "--name", "yaml-mq-del", "--host", "h.example", "--user", "u")
	compose := filepath.Join(t.TempDir(), "compose.yml")
	if err := os.WriteFile(compose, []byte("services:\n  web:\n    image: nginx:1.27\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx("ps", "create", "--name", "yaml-ps-del", "--compose", compose)
	ctx("pg", "create", "--name", "yaml-tdel", "--playspec", "web", "--marquee", "local")
	ctx("agents", "create", "--name", "yaml-agent", "--provider", "gemini")
	ctx("agents", "create", "--name", "yaml-agent-del", "--provider", "gemini")
	// Webhook endpoints 1 (read), 2 (deleted) and 3 (tested), and a
	// signed body to verify.
	for _, n := range []string{"yaml-one", "yaml-two", "yaml-three"} {
		ctx("webhooks", "create", "--url", "http://127.0.0.1:9/"+n, "--event", "webhook.test")
	}
	const hookSecret = "yaml-hook-secret-0123456789"
	t.Setenv("YAML_HOOK_SECRET", hookSecret)
	hookBody := `{"event":"webhook.test","timestamp":"2026-12-03T10:00:00Z","data":{}}`
	mac := hmac.New(sha256.New, []byte(hookSecret))
	mac.Write([]byte(hookBody))
	hookFile := filepath.Join(t.TempDir(), "body.json")
	if err := os.WriteFile(hookFile, []byte(hookBody), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx("props", "create", "--repository-url", "https://github.com/local-dev/yaml-del")
	ctx("api", "-X", "POST", "/api/github_repositories", "-f", "name=yaml-attach")
	key := func(name string) []string { return []string{"--idempotency-key", "yaml-test-" + name} }
	// Templates: one to read and change, one to delete, a version to delete.
	ctx("templates", "create", "--name", "yaml-tpl", "--body", compose)
	ctx("templates", "create", "--name", "yaml-tpl-del", "--body", compose)
	tplOut, _ := runFibe(t, "", "templates", "versions", "create", "yaml-tpl", "--body", compose, "--json")
	var ver struct {
		ID int64 `json:"id"`
	}
	if err := json.Unmarshal([]byte(tplOut), &ver); err != nil || ver.ID == 0 {
		t.Fatalf("version %q: %v", tplOut, err)
	}
	for _, k := range []string{"YAML_SET", "YAML_GET", "YAML_DEL"} {
		ctx("secrets", "set", k, "--value", "yaml-value")
	}
	out, _ = runFibe(t, "", "api-keys", "create", "--label", "yaml-del", "--scope", "secrets:read", "--json")
	var apiKey struct {
		ID int64 `json:"id"`
	}
	if err := json.Unmarshal([]byte(out), &apiKey); err != nil || apiKey.ID == 0 {
		t.Fatalf("api key %q: %v", out, err)
	}

	cases := map[string]yamlCase{
		"props attach":               {args: append([]string{"props", "attach", "local-dev/yaml-attach"}, key("props-attach")...)},
		"props branches":             {args: []string{"props", "branches", "demo-app"}},
		"props create":               {args: append([]string{"props", "create", "--repository-url", "https://github.com/local-dev/yaml-new"}, key("props-create")...)},
		"props delete":               {args: append([]string{"props", "delete", "yaml-del", "--yes"}, key("props-delete")...)},
		"props env-defaults":         {args: []string{"props", "env-defaults", "demo-app", "--branch", "main"}},
		"props get":                  {args: []string{"props", "get", "demo-app"}},
		"props list":                 {args: []string{"props", "list"}},
		"props mirror":               {args: append([]string{"props", "mirror", "https://github.com/nginx/nginx"}, key("props-mirror")...)},
		"props sync":                 {args: append([]string{"props", "sync", "demo-app"}, key("props-sync")...)},
		"props update":               {args: append([]string{"props", "update", "demo-app", "--default-branch", "main"}, key("props-update")...)},
		"api":                        {args: []string{"api", "/api/playspecs"}},
		"api-keys create":            {args: append([]string{"api-keys", "create", "--label", "yaml", "--scope", "secrets:read"}, key("key-create")...)},
		"api-keys delete":            {args: append([]string{"api-keys", "delete", strconv.FormatInt(apiKey.ID, 10), "--yes"}, key("key-delete")...)},
		"api-keys list":              {args: []string{"api-keys", "list", "--label", "yaml-del"}},
		"auth login":                 {args: []string{"auth", "login", "--with-token"}, stdin: localapi.DefaultAPIKey + "\n"},
		"auth logout":                {args: []string{"auth", "logout"}, before: [][]string{{"auth", "login", "--with-token"}}},
		"auth status":                {args: []string{"auth", "status"}},
		"breaker reset":              {args: []string{"breaker", "reset"}},
		"breaker status":             {args: []string{"breaker", "status"}},
		"config get":                 {args: []string{"config", "get", "timeout"}},
		"config list":                {args: []string{"config", "list"}, drop: "output"},
		"config set":                 {args: []string{"config", "set", "timeout", "40s"}},
		"doctor":                     {args: []string{"doctor"}, shape: true},
		"marquees create":            {args: append([]string{"mq", "create", "--name", "yaml-mq", "--host", "h.example", "--user", "u"}, key("mq-create")...)},
		"marquees delete":            {args: append([]string{"mq", "delete", "yaml-mq-del", "--yes"}, key("mq-delete")...)},
		"marquees get":               {args: []string{"mq", "get", "local"}},
		"playspecs create":           {args: append([]string{"ps", "create", "--name", "yaml-ps", "--compose", compose}, key("ps-create")...)},
		"playspecs delete":           {args: append([]string{"ps", "delete", "yaml-ps-del", "--yes"}, key("ps-delete")...)},
		"playspecs get":              {args: []string{"ps", "get", "web"}},
		"playspecs list":             {args: []string{"ps", "list"}},
		"playspecs services":         {args: []string{"ps", "services", "web"}},
		"playspecs update":           {args: append([]string{"ps", "update", "web", "--description", "The web app"}, key("ps-update")...)},
		"playspecs validate":         {args: []string{"ps", "validate", "--compose", compose}},
		"marquees list":              {args: []string{"mq", "list"}},
		"marquees ssh-key":           {args: []string{"mq", "ssh-key", "local"}, shape: true},
		"marquees autoconnect-token": {args: append([]string{"mq", "autoconnect-token", "--email", "ops@example.com"}, key("mq-autoconnect")...)},
		"playgrounds env":            {args: []string{"pg", "env", "yaml-pg"}},
		"playgrounds compose":        {args: []string{"pg", "compose", "yaml-pg"}},
		"playgrounds debug":          {args: []string{"pg", "debug", "yaml-pg", "--logs-tail", "3"}, shape: true},
		"marquees test-connection":   {args: []string{"mq", "test-connection", "local"}},
		"marquees update":            {args: append([]string{"mq", "update", "local", "--port", "22"}, key("mq-update")...)},
		"mcp install":                {args: []string{"mcp", "install", "--client", "cursor", "--print"}, raw: true},
		"mcp uninstall":              {args: []string{"mcp", "uninstall", "--client", "cursor", "--scope", "user"}},
		"ops forget":                 {args: []string{"ops", "forget", "--all"}},
		"ops get":                    {args: []string{"ops", "get", h.RequestID}},
		"ops pending":                {args: []string{"ops", "pending"}},
		"ops wait":                   {args: []string{"ops", "wait", h.RequestID}},
		"playgrounds create":         {args: append([]string{"pg", "create", "--name", "yaml-new", "--playspec", "web"}, key("pg-create")...)},
		"playgrounds delete":         {args: append([]string{"pg", "delete", "yaml-del", "--yes", "--no-wait"}, key("pg-delete")...)},
		"playgrounds extend":         {args: append([]string{"pg", "extend", "yaml-pg"}, key("pg-extend")...)},
		"playgrounds get":            {args: []string{"pg", "get", "yaml-pg"}},
		"playgrounds list":           {args: []string{"pg", "list", "--name", "yaml-ro"}},
		"playgrounds logs":           {args: []string{"pg", "logs", "yaml-pg", "--tail", "5"}, shape: true},
		"playgrounds restart":        {args: append([]string{"pg", "restart", "yaml-rs", "--no-wait"}, key("pg-restart")...)},
		"playgrounds rollout":        {args: append([]string{"pg", "rollout", "yaml-ro", "--no-wait"}, key("pg-rollout")...)},
		"playgrounds start":          {args: append([]string{"pg", "start", "yaml-st", "--no-wait"}, key("pg-start")...)},
		"playgrounds status":         {args: []string{"pg", "status", "yaml-pg"}},
		"playgrounds stop":           {args: append([]string{"pg", "stop", "yaml-sp", "--no-wait"}, key("pg-stop")...)},
		"playgrounds update":         {args: append([]string{"pg", "update", "yaml-pg", "--env", "A=1"}, key("pg-update")...)},
		"playgrounds wait":           {args: []string{"pg", "wait", "yaml-pg"}},
		"secrets delete":             {args: append([]string{"secrets", "delete", "YAML_DEL", "--yes"}, key("secret-delete")...)},
		"secrets get":                {args: []string{"secrets", "get", "YAML_GET", "--reveal"}},
		"secrets list":               {args: []string{"secrets", "list", "--key", "YAML_"}},
		"secrets set":                {args: append([]string{"secrets", "set", "YAML_SET"}, key("secret-set")...), stdin: "changed\n"},
		"status":                     {args: []string{"status"}, shape: true},
		"version":                    {args: []string{"version"}},
		"launch":                     {args: append([]string{"launch", "--compose", compose, "--name", "yaml-launch", "--marquee", "local", "--no-wait"}, key("launch")...)},
		"templates categories":       {args: []string{"templates", "categories"}},
		"templates create":           {args: append([]string{"templates", "create", "--name", "yaml-tpl-new", "--body", compose}, key("tpl-create")...)},
		"templates delete":           {args: append([]string{"templates", "delete", "yaml-tpl-del", "--yes"}, key("tpl-delete")...)},
		"templates fork":             {args: append([]string{"templates", "fork", "nginx-static"}, key("tpl-fork")...)},
		"templates get":              {args: []string{"templates", "get", "yaml-tpl"}},
		"templates launch":           {args: append([]string{"templates", "launch", "yaml-tpl", "--marquee", "local", "--name", "yaml-tl", "--no-wait"}, key("tpl-launch")...)},
		"templates list":             {args: []string{"templates", "list"}},
		"templates publish":          {args: append([]string{"templates", "publish", "yaml-tpl"}, key("tpl-publish")...)},
		"templates unpublish":        {args: append([]string{"templates", "unpublish", "yaml-tpl"}, key("tpl-unpublish")...)},
		"templates update":           {args: append([]string{"templates", "update", "yaml-tpl", "--description", "yaml"}, key("tpl-update")...)},
		"templates versions create":  {args: append([]string{"templates", "versions", "create", "yaml-tpl", "--body", compose}, key("tpl-version")...)},
		"templates versions delete":  {args: append([]string{"templates", "versions", "delete", "yaml-tpl", strconv.FormatInt(ver.ID, 10), "--yes"}, key("tpl-version-delete")...)},
		"templates versions list":    {args: []string{"templates", "versions", "list", "yaml-tpl"}},
		"tricks run":                 {args: append([]string{"tricks", "run", "--playspec", "web", "--name", "yaml-trick", "--no-wait"}, key("trick-run")...)},
		"tricks rerun":               {args: []string{"tricks", "rerun", "yaml-pg", "--no-wait"}, shape: true},
		"tricks list":                {args: []string{"tricks", "list"}},
		"tricks status":              {args: []string{"tricks", "status", "yaml-pg"}},
		"tricks logs":                {args: []string{"tricks", "logs", "yaml-pg", "--tail", "5"}, shape: true},
		"tricks delete":              {args: append([]string{"tricks", "delete", "yaml-tdel", "--yes", "--no-wait"}, key("trick-delete")...)},
		"agents create":              {args: append([]string{"agents", "create", "--name", "yaml-agent-new", "--provider", "cursor"}, key("agent-create")...)},
		"agents get":                 {args: []string{"agents", "get", "yaml-agent"}},
		"agents list":                {args: []string{"agents", "list", "--name", "yaml-agent-del"}},
		"agents update":              {args: append([]string{"agents", "update", "yaml-agent", "--description", "d"}, key("agent-update")...)},
		"agents delete":              {args: append([]string{"agents", "delete", "yaml-agent-del", "--yes"}, key("agent-delete")...)},
		"agents duplicate":           {args: append([]string{"agents", "duplicate", "yaml-agent"}, key("agent-duplicate")...)},
		"agents runtime-status":      {args: []string{"agents", "runtime-status", "yaml-agent"}},
		"audit-logs list":            {args: []string{"audit-logs", "list", "--resource-type", "Marquee"}},
		"webhooks create":            {args: append([]string{"webhooks", "create", "--url", "http://127.0.0.1:9/new", "--event", "webhook.test"}, key("wh-create")...)},
		"webhooks delete":            {args: append([]string{"webhooks", "delete", "2", "--yes"}, key("wh-delete")...)},
		"webhooks deliveries":        {args: []string{"webhooks", "deliveries", "1"}},
		"webhooks event-types":       {args: []string{"webhooks", "event-types"}},
		"webhooks get":               {args: []string{"webhooks", "get", "1"}},
		"webhooks list":              {args: []string{"webhooks", "list", "--url", "yaml-one"}},
		"webhooks test":              {args: append([]string{"webhooks", "test", "3"}, key("wh-test")...)},
		"webhooks update":            {args: append([]string{"webhooks", "update", "1", "--description", "yaml"}, key("wh-update")...)},
		"webhooks verify": {args: []string{"webhooks", "verify", "--secret-env", "YAML_HOOK_SECRET",
			"--signature", "sha256=" + hex.EncodeToString(mac.Sum(nil)), hookFile}},
	}

	root := NewCmdRoot(factory.New(iostreams.System(), nil))
	leaves := leafCommands(root)
	sort.Strings(leaves)
	docs := 0
	for _, leaf := range leaves {
		if _, ok := yamlExempt[leaf]; ok {
			continue
		}
		c, ok := cases[leaf]
		if !ok {
			t.Errorf("fibe %s has --json but no case in TestYAMLMatchesJSON: add one (or an exemption with its reason)", leaf)
			continue
		}
		run := func(flags ...string) string {
			t.Helper()
			for _, b := range c.before {
				if out, err := runFibe(t, localapi.DefaultAPIKey+"\n", b...); err != nil {
					t.Fatalf("%s: before %v: %v\n%s", leaf, b, err, out)
				}
			}
			out, err := runFibe(t, c.stdin, append(append([]string{}, c.args...), flags...)...)
			if err != nil {
				t.Errorf("fibe %s %v: %v", leaf, flags, err)
			}
			return out
		}
		j, y := run("--json"), run("--output", "yaml")
		if c.raw {
			if y != j || j == "" {
				t.Errorf("fibe %s: --output yaml changed a file fragment:\n--json:\n%s\n--output yaml:\n%s", leaf, j, y)
			}
			continue
		}
		var doc any
		if dec := json.NewDecoder(strings.NewReader(j)); strings.TrimSpace(j) == "" || dec.Decode(&doc) != nil || dec.More() {
			// Not one document (NDJSON, or nothing): the same bytes both ways.
			if y != j {
				t.Errorf("fibe %s: --output yaml changed a stream:\n--json:\n%s\n--output yaml:\n%s", leaf, j, y)
			}
			continue
		}
		var back any
		if err := yaml.Unmarshal([]byte(y), &back); err != nil {
			t.Errorf("fibe %s --output yaml is not YAML: %v\n%s", leaf, err, y)
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(y), "{") || strings.HasPrefix(strings.TrimSpace(y), "[{") {
			t.Errorf("fibe %s --output yaml printed JSON:\n%s", leaf, y)
		}
		a, b := normalize(t, doc, c.drop), normalize(t, back, c.drop)
		if c.shape {
			a, b = blank(a), blank(b)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("fibe %s: YAML parsed back differs from the JSON\n--json:\n%s\n--output yaml:\n%s", leaf, j, y)
		}
		docs++
	}
	if docs < 25 {
		t.Errorf("only %d commands printed a document", docs)
	}
}

// normalize re-reads v through JSON with exact numbers, dropping the rows
// keyed drop from a list of settings and every time_remaining (a
// countdown: it moves between the two runs).
func normalize(t *testing.T, v any, drop string) any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		t.Fatal(err)
	}
	if list, ok := out.([]any); ok && drop != "" {
		kept := list[:0]
		for _, item := range list {
			if m, ok := item.(map[string]any); ok && m["key"] == drop {
				continue
			}
			kept = append(kept, item)
		}
		out = kept
	}
	return dropCountdown(out)
}

func dropCountdown(v any) any {
	switch x := v.(type) {
	case []any:
		for i := range x {
			x[i] = dropCountdown(x[i])
		}
	case map[string]any:
		delete(x, "time_remaining")
		for k := range x {
			x[k] = dropCountdown(x[k])
		}
	}
	return v
}

// blank replaces every string of v with "" and every number with 0.
func blank(v any) any {
	switch x := v.(type) {
	case string:
		return ""
	case json.Number:
		return json.Number("0")
	case []any:
		for i := range x {
			x[i] = blank(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = blank(x[k])
		}
	}
	return v
}

// --jq and --json on the command line with --output yaml are usage errors
// printed as YAML; given as flags they win over FIBE_OUTPUT=yaml; errors
// under YAML are the error document in YAML on stderr.
func TestOutputYAMLFlagsAndErrors(t *testing.T) {
	srv, url := cmdtest.Emulator(t, localapi.Config{})
	cmdtest.Isolate(t, map[string]string{"FIBE_API_URL": url, "FIBE_API_KEY": localapi.DefaultAPIKey})
	for _, args := range [][]string{
		{"mq", "list", "--output", "yaml", "--jq", ".[]"},
		{"mq", "list", "--output", "yaml", "--json"},
		{"mq", "list", "--output", "xml"},
	} {
		ios, _, out, errOut := iostreams.Test()
		root := NewCmdRoot(factory.New(ios, args))
		root.SetArgs(args)
		err := Execute(context.Background(), root)
		if output.ExitCode(err) != output.ExitUsage || out.Len() != 0 {
			t.Errorf("%v: %v (exit %d) stdout %q", args, err, output.ExitCode(err), out)
		}
		output.PrintError(ios, err, args, "")
		if args[3] == "yaml" && !strings.HasPrefix(errOut.String(), "error:\n  code: USAGE_ERROR\n") {
			t.Errorf("%v: stderr %q, want the YAML error document", args, errOut)
		}
	}
	if n := len(srv.Stats().Requests); n != 0 {
		t.Errorf("bad output flags sent requests to %d routes", n)
	}

	t.Setenv("FIBE_OUTPUT", "yaml")
	if out, err := runFibe(t, "", "mq", "get", "local"); err != nil || !strings.HasPrefix(out, "id: 1\nname: local\n") {
		t.Errorf("FIBE_OUTPUT=yaml: %q %v", out, err)
	}
	if out, err := runFibe(t, "", "mq", "get", "local", "--json"); err != nil || !strings.HasPrefix(out, "{\n") {
		t.Errorf("--json under FIBE_OUTPUT=yaml: %q %v", out, err)
	}
	if out, err := runFibe(t, "", "mq", "get", "local", "--jq", ".name"); err != nil || out != "local\n" {
		t.Errorf("--jq under FIBE_OUTPUT=yaml: %q %v", out, err)
	}
	ios, _, _, errOut := iostreams.Test()
	root := NewCmdRoot(factory.New(ios, nil))
	root.SetArgs([]string{"mq", "get", "nope"})
	err := Execute(context.Background(), root)
	output.PrintError(ios, err, nil, "")
	var doc struct {
		Error struct {
			Code string `yaml:"code"`
		} `yaml:"error"`
	}
	if yaml.Unmarshal(errOut.Bytes(), &doc) != nil || doc.Error.Code != "RESOURCE_NOT_FOUND" || strings.HasPrefix(errOut.String(), "{") {
		t.Errorf("error under FIBE_OUTPUT=yaml: %q", errOut)
	}
}

func TestWantsYAML(t *testing.T) {
	for args, want := range map[string]bool{
		"pg list --output yaml":    true,
		"pg list --output=YAML":    true,
		"pg list --output json":    false,
		"pg list -- --output yaml": false,
		"pg list":                  false,
	} {
		if got := wantsYAML(splitArgs(args)); got != want {
			t.Errorf("%q: %v", args, got)
		}
	}
}

// FIBE_OUTPUT from the environment leaves the commands that print no
// document alone: `source <(fibe completion bash)` must keep working.
func TestOutputSettingSparesScripts(t *testing.T) {
	cmdtest.Isolate(t, map[string]string{"FIBE_OUTPUT": "yaml"})
	if out, err := runFibe(t, "", "completion", "bash"); err != nil || !strings.Contains(out, "bash completion") {
		t.Errorf("completion bash under FIBE_OUTPUT=yaml: %v\n%.200s", err, out)
	}
	if _, err := runFibe(t, "", "completion", "bash", "--output", "yaml"); output.ExitCode(err) != output.ExitUsage {
		t.Errorf("completion bash --output yaml: %v", err)
	}
}
