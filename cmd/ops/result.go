package ops

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/fibegg/fibe/cmd/marquees"
	"github.com/fibegg/fibe/cmd/playgrounds"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/resource"
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
// lines, a public key, a connection test's line. method and path are the
// request that started it (the Factory's OperationOf; empty when this
// machine did not start it): the poll answer does not say what an
// operation was (docs/api.md), and the printer is chosen from the route,
// never guessed from the result's keys. A result of an unknown route is
// printed as "Key: value" lines. The raw JSON is for --json.
func printResult(ios *iostreams.IOStreams, method, path string, raw json.RawMessage) error {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		_, err := fmt.Fprintln(ios.Out, strings.TrimSpace(string(raw)))
		return err
	}
	if print := resultPrinter(method, path); print != nil {
		if ok, err := print(ios, raw); ok {
			return err
		}
	}
	return printFields(ios, m)
}

// resultPrinter is a printer of the results of requests with method and
// path under /api ("/api/playgrounds/demo/operations"), nil when no route
// is known. A resource's create, update and actions are its description's
// (internal/resource: the path, and the Go type of what they answer); the
// routes no description has yet are the rows of otherRoutes.
func resultPrinter(method, path string) resultPrint {
	p, _, _ := strings.Cut(path, "?")
	p = "/" + strings.Trim(p, "/")
	if !strings.HasPrefix(p, "/api/") {
		p = "/api" + p
	}
	method = strings.ToUpper(method)
	for _, r := range resource.All() {
		rest, ok := strings.CutPrefix(p, r.Path)
		if !ok || rest != "" && rest[0] != '/' {
			continue
		}
		segs := strings.Split(strings.TrimPrefix(rest, "/"), "/")
		switch {
		case rest == "" && method == http.MethodPost && r.Serves(resource.VerbCreate),
			len(segs) == 1 && segs[0] != "" && (method == http.MethodPatch || method == http.MethodPut) && r.Serves(resource.VerbUpdate):
			return typePrinter(r.Item)
		case len(segs) == 1 && segs[0] != "" && method == http.MethodDelete && r.Serves(resource.VerbDelete):
			return deletedResult
		}
		for _, a := range r.Actions {
			if method == http.MethodPost && len(segs) == 2 && segs[0] != "" && "/"+segs[1] == a.Path {
				return typePrinter(a.Result)
			}
		}
		for _, o := range otherRoutes {
			if o.resource == r.Name && o.method == method && len(segs) == 2 && segs[0] != "" && segs[1] == o.sub {
				return o.print
			}
		}
	}
	return nil
}

// resultPrint prints a result it could read and says so; ok false leaves
// the result to the field printer.
type resultPrint func(ios *iostreams.IOStreams, raw json.RawMessage) (ok bool, err error)

// typePrinter prints a result of a Go type the descriptions name (an
// item, an action's result) as its own command does; nil for a type with
// no card.
func typePrinter(t reflect.Type) resultPrint {
	switch t {
	case reflect.TypeFor[client.Playground](), reflect.TypeFor[client.PlaygroundStatus]():
		return playgroundResult
	case reflect.TypeFor[client.Marquee]():
		return marqueeResult
	case reflect.TypeFor[client.ConnectionTest]():
		return connectionTestResult
	}
	return nil
}

// otherRoutes are the routes that may answer 202 (docs/api.md) that no
// resource description has as an action yet: <method> <resource path>/<id>/<sub>
// (a debug read is a GET that may answer 202).
var otherRoutes = []struct {
	resource, method, sub string
	print                 resultPrint
}{
	{"playgrounds", http.MethodPost, "status", playgroundResult},
	{"playgrounds", http.MethodPost, "logs", logsResult},
	{"marquees", http.MethodPost, "ssh_keys", sshKeyResult},
	{"playgrounds", http.MethodGet, "debug", debugResult},
}

func playgroundResult(ios *iostreams.IOStreams, raw json.RawMessage) (bool, error) {
	var st client.PlaygroundStatus
	if json.Unmarshal(raw, &st) != nil {
		return false, nil
	}
	return true, playgrounds.PrintStatusCard(ios, &st)
}

func marqueeResult(ios *iostreams.IOStreams, raw json.RawMessage) (bool, error) {
	var mq client.Marquee
	if json.Unmarshal(raw, &mq) != nil {
		return false, nil
	}
	return true, marquees.PrintMarquee(ios, &mq)
}

func logsResult(ios *iostreams.IOStreams, raw json.RawMessage) (bool, error) {
	var logs struct {
		Lines []string `json:"lines"`
	}
	if json.Unmarshal(raw, &logs) != nil {
		return false, nil
	}
	_, err := io.WriteString(ios.Out, joinLines(output.LogLines(ios, logs.Lines)))
	return true, err
}

func debugResult(ios *iostreams.IOStreams, raw json.RawMessage) (bool, error) {
	var report map[string]any
	if json.Unmarshal(raw, &report) != nil || report["playground"] == nil {
		return false, nil
	}
	return true, playgrounds.PrintDebug(ios, report)
}

func sshKeyResult(ios *iostreams.IOStreams, raw json.RawMessage) (bool, error) {
	var key client.SSHKey
	if json.Unmarshal(raw, &key) != nil || key.PublicKey == "" {
		return false, nil
	}
	_, err := fmt.Fprintln(ios.Out, output.Sanitize(key.PublicKey))
	return true, err
}

func connectionTestResult(ios *iostreams.IOStreams, raw json.RawMessage) (bool, error) {
	var ct client.ConnectionTest
	if json.Unmarshal(raw, &ct) != nil {
		return false, nil
	}
	cs := ios.ColorScheme()
	mark, msg := iostreams.Check(cs), ct.Message
	if !ct.OK {
		mark, msg = cs.Red("✗"), firstNonEmpty(ct.Message, ct.Error)
	}
	_, err := fmt.Fprintln(ios.Out, strings.TrimSpace(mark+" "+output.Sanitize(msg)))
	return true, err
}

func deletedResult(ios *iostreams.IOStreams, raw json.RawMessage) (bool, error) {
	var d struct {
		Deleted bool   `json:"deleted"`
		Name    string `json:"name"`
	}
	if json.Unmarshal(raw, &d) != nil || !d.Deleted {
		return false, nil
	}
	ios.Notice("Deleted %s.", output.Sanitize(firstNonEmpty(d.Name, "it")))
	return true, nil
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

func joinLines(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}
