package ops

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
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
// of resultRoutes matches.
func resultPrinter(method, path string) resultPrint {
	p, _, _ := strings.Cut(path, "?")
	p = strings.TrimPrefix(strings.Trim(p, "/"), "api/")
	segs := strings.Split(p, "/")
	for _, r := range resultRoutes {
		if r.method == strings.ToUpper(method) && routeMatches(r.route, segs) {
			return r.print
		}
	}
	return nil
}

func routeMatches(route, segs []string) bool {
	if len(route) != len(segs) {
		return false
	}
	for i, want := range route {
		if segs[i] == "" || want != "*" && want != segs[i] {
			return false
		}
	}
	return true
}

// resultPrint prints a result it could read and says so; ok false leaves
// the result to the field printer.
type resultPrint func(ios *iostreams.IOStreams, raw json.RawMessage) (ok bool, err error)

// resultRoutes are the routes that may answer 202 (docs/api.md), each with
// the printer of its result ("*" is one segment of the path under /api).
var resultRoutes = []struct {
	method string
	route  []string
	print  resultPrint
}{
	{http.MethodPost, []string{"playgrounds"}, playgroundResult},
	{http.MethodPatch, []string{"playgrounds", "*"}, playgroundResult},
	{http.MethodPut, []string{"playgrounds", "*"}, playgroundResult},
	{http.MethodDelete, []string{"playgrounds", "*"}, deletedResult},
	{http.MethodPost, []string{"playgrounds", "*", "operations"}, playgroundResult},
	{http.MethodPost, []string{"playgrounds", "*", "status"}, playgroundResult},
	{http.MethodPost, []string{"playgrounds", "*", "logs"}, logsResult},
	{http.MethodPost, []string{"marquees"}, marqueeResult},
	{http.MethodPatch, []string{"marquees", "*"}, marqueeResult},
	{http.MethodPut, []string{"marquees", "*"}, marqueeResult},
	{http.MethodDelete, []string{"marquees", "*"}, deletedResult},
	{http.MethodPost, []string{"marquees", "*", "connection_tests"}, connectionTestResult},
	{http.MethodPost, []string{"marquees", "*", "ssh_keys"}, sshKeyResult},
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
