package ops

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/fibegg/fibe/cmd/marquees"
	"github.com/fibegg/fibe/cmd/playgrounds"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// requestIDPattern is what a request id may look like (req_5c1d): it is
// put in a URL path, so anything else is refused before a request is sent.
var requestIDPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$`) })

// validRequestID refuses, as a usage error, an id no server could have
// given.
func validRequestID(id string) error {
	if requestIDPattern().MatchString(id) {
		return nil
	}
	shown := id
	if len(shown) > 40 {
		shown = shown[:40] + "…"
	}
	return output.FlagErrorf("invalid request id %q: expected an id like req_5c1d (at most 128 letters, digits, '_', '-', '.' or ':')", shown)
}

// printResult prints an operation's result for people, as the command that
// started the operation would have: a playground card, a marquee card, log
// lines, a public key; anything else as "Key: value" lines. The raw JSON
// is for --json.
func printResult(ios *iostreams.IOStreams, raw json.RawMessage) error {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		_, err := fmt.Fprintln(ios.Out, strings.TrimSpace(string(raw)))
		return err
	}
	switch {
	case has(m, "lines"):
		var logs struct {
			Lines []string `json:"lines"`
		}
		if json.Unmarshal(raw, &logs) == nil {
			_, err := io.WriteString(ios.Out, joinLines(output.LogLines(ios, logs.Lines)))
			return err
		}
	case has(m, "public_key"):
		if key, ok := m["public_key"].(string); ok {
			_, err := fmt.Fprintln(ios.Out, output.Sanitize(key))
			return err
		}
	case m["deleted"] == true:
		name, _ := m["name"].(string)
		ios.Notice("Deleted %s.", output.Sanitize(firstNonEmpty(name, "it")))
		return nil
	case has(m, "ok") && len(m) <= 2:
		cs := ios.ColorScheme()
		msg, _ := m["message"].(string)
		mark := iostreams.Check(cs)
		if m["ok"] != true {
			mark = cs.Red("✗")
		}
		_, err := fmt.Fprintln(ios.Out, strings.TrimSpace(mark+" "+output.Sanitize(msg)))
		return err
	case has(m, "host"):
		var mq client.Marquee
		if json.Unmarshal(raw, &mq) == nil {
			return marquees.PrintMarquee(ios, &mq)
		}
	case has(m, "playspec_id") || has(m, "service_urls") || has(m, "services"):
		var st client.PlaygroundStatus
		if json.Unmarshal(raw, &st) == nil {
			return playgrounds.PrintStatusCard(ios, &st)
		}
	}
	return printFields(ios, m)
}

// printFields prints an object nobody has a card for as sorted "Key: value"
// lines.
func printFields(ios *iostreams.IOStreams, m map[string]any) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	d := iostreams.NewDetail(ios.Out, ios.ColorScheme())
	for _, k := range keys {
		d.Add(label(k), compact(m[k]))
	}
	return d.Render()
}

// label turns "error_step" into "Error step".
func label(key string) string {
	s := strings.ReplaceAll(key, "_", " ")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func has(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

func joinLines(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}
