package cmdutil

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/resource"
)

// maxPayload bounds a -f payload; the API refuses bodies over 1 MiB anyway.
const maxPayload = 1 << 20

// PayloadSchema describes the JSON object a -f payload holds: the resource
// wrapper it may come in ({"playground": {...}}), the fields this CLI knows
// (API names), and the names the CLI itself uses for some of them
// ("playspec" for "playspec_id", as the flag is called).
type PayloadSchema struct {
	Wrapper string
	Fields  []string
	Aliases map[string]string
}

// ReadFileFlag reads the file a flag names ("-" for ios's stdin), at most
// 1 MiB, as the API takes no larger body; a failure is a usage error
// naming the flag.
func ReadFileFlag(ios *iostreams.IOStreams, flag, path string) ([]byte, error) {
	var r io.Reader = ios.In
	source := "stdin"
	if path != "-" {
		file, err := os.Open(path)
		if err != nil {
			return nil, output.FlagErrorf("%s %s cannot be read: %v", flag, path, unwrapPathError(err))
		}
		defer file.Close()
		r, source = file, path
	}
	data, err := io.ReadAll(io.LimitReader(r, maxPayload+1))
	if err != nil {
		return nil, output.FlagErrorf("%s %s cannot be read: %v", flag, source, unwrapPathError(err))
	}
	if len(data) > maxPayload {
		return nil, output.FlagErrorf("%s %s is larger than 1 MiB", flag, source)
	}
	return data, nil
}

// ReadPayloadFrom reads a JSON object from path ("-" for ios's stdin). A
// payload wrapped in its resource ({"playground": {...}}) is unwrapped, so
// the same file works whether or not it carries the wrapper; one with both
// the wrapper and top-level fields is refused. The CLI's own names of
// fields are accepted for the API's. Fields this CLI does not know are sent
// (a newer platform may know them), with a one-line warning on ios. Bad
// input is a usage error that names the file, the line and the column, in
// the user's words.
func ReadPayloadFrom(ios *iostreams.IOStreams, path string, schema PayloadSchema) (map[string]any, error) {
	var r io.Reader
	source := path
	if path == "-" {
		r, source = ios.In, "stdin"
	} else {
		file, err := os.Open(path)
		if err != nil {
			return nil, output.FlagErrorf("cannot read payload %s: %v", path, unwrapPathError(err))
		}
		defer file.Close()
		r = file
	}
	data, err := io.ReadAll(io.LimitReader(r, maxPayload+1))
	if err != nil {
		return nil, output.FlagErrorf("cannot read payload %s: %v", source, unwrapPathError(err))
	}
	if len(data) > maxPayload {
		return nil, output.FlagErrorf("payload %s is larger than 1 MiB", source)
	}
	expected := schema.expected()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, output.FlagErrorf("payload %s%s; expected %s", source, syntaxProblem(data, err), expected)
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return nil, output.FlagErrorf("payload %s is %s; expected %s", source, jsonKind(doc), expected)
	}
	end := int(dec.InputOffset())
	if _, err := dec.Token(); err != io.EOF {
		line, col := position(data, firstNonSpace(data, end))
		return nil, output.FlagErrorf("payload %s: line %d, column %d: more data after the JSON object; expected %s", source, line, col, expected)
	}
	if obj, err = schema.unwrap(source, obj); err != nil {
		return nil, err
	}
	if err := schema.applyAliases(source, obj); err != nil {
		return nil, err
	}
	if unknown := schema.unknown(obj); len(unknown) > 0 {
		ios.Warning("payload %s: %s not known to this version of fibe (it knows %s); sent as given.",
			source, fieldList(unknown, "field", "fields")+verb(len(unknown)), strings.Join(schema.Fields, ", "))
	}
	return obj, nil
}

// expected describes the payload for messages: "a JSON object of playground
// fields (name, playspec_id, ...)".
func (s PayloadSchema) expected() string {
	what := "a JSON object"
	if s.Wrapper != "" {
		what += " of " + s.Wrapper + " fields"
	}
	if len(s.Fields) > 0 {
		what += " (" + strings.Join(s.Fields, ", ") + ")"
	}
	return what
}

// unwrap takes the fields out of {"<wrapper>": {...}}; a wrapper next to
// top-level fields is ambiguous and refused.
func (s PayloadSchema) unwrap(source string, obj map[string]any) (map[string]any, error) {
	if s.Wrapper == "" {
		return obj, nil
	}
	raw, ok := obj[s.Wrapper]
	if !ok {
		return obj, nil
	}
	inner, isObj := raw.(map[string]any)
	if !isObj {
		return nil, output.FlagErrorf("payload %s: %q is %s; expected a JSON object of %s fields", source, s.Wrapper, jsonKind(raw), s.Wrapper)
	}
	if len(obj) > 1 {
		var rest []string
		for k := range obj {
			if k != s.Wrapper {
				rest = append(rest, k)
			}
		}
		sort.Strings(rest)
		return nil, output.FlagErrorf("payload %s has both a %q object and top-level %s: put every field inside %q, or drop the wrapper",
			source, s.Wrapper, fieldList(rest, "field", "fields"), s.Wrapper)
	}
	return inner, nil
}

// applyAliases renames the CLI's names of fields to the API's.
func (s PayloadSchema) applyAliases(source string, obj map[string]any) error {
	names := make([]string, 0, len(s.Aliases))
	for k := range s.Aliases {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, alias := range names {
		v, ok := obj[alias]
		if !ok {
			continue
		}
		field := s.Aliases[alias]
		if _, both := obj[field]; both {
			return output.FlagErrorf("payload %s has both %q and %q, which mean the same: keep one", source, alias, field)
		}
		if str, isStr := v.(string); isStr {
			v = resource.IDOrName(str)
		}
		delete(obj, alias)
		obj[field] = v
	}
	return nil
}

// unknown lists the fields of obj the schema does not name, sorted.
func (s PayloadSchema) unknown(obj map[string]any) []string {
	if len(s.Fields) == 0 {
		return nil
	}
	known := map[string]bool{}
	for _, k := range s.Fields {
		known[k] = true
	}
	var out []string
	for k := range obj {
		if !known[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func fieldList(names []string, one, many string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = strconv.Quote(n)
	}
	if len(names) == 1 {
		return one + " " + quoted[0]
	}
	return many + " " + strings.Join(quoted, ", ")
}

func verb(n int) string {
	if n == 1 {
		return " is"
	}
	return " are"
}

// syntaxProblem says where and why a payload is not JSON, without the
// decoder's vocabulary: ": line 3, column 7: unexpected 'o'", to follow
// the file's name.
func syntaxProblem(data []byte, err error) string {
	var syn *json.SyntaxError
	switch {
	case errors.As(err, &syn):
		at := int(syn.Offset) - 1
		if at < 0 {
			at = 0
		}
		if at >= len(data) {
			line, col := position(data, len(data))
			return fmt.Sprintf(": line %d, column %d: the JSON ends too early", line, col)
		}
		line, col := position(data, at)
		r, _ := utf8.DecodeRune(data[at:])
		return fmt.Sprintf(": line %d, column %d: unexpected %s, not valid JSON", line, col, strconv.QuoteRune(r))
	case errors.Is(err, io.EOF):
		return " is empty"
	case errors.Is(err, io.ErrUnexpectedEOF):
		line, col := position(data, len(data))
		return fmt.Sprintf(": line %d, column %d: the JSON ends too early", line, col)
	}
	return " is not valid JSON"
}

// position is the 1-based line and column (in characters) of byte offset at.
func position(data []byte, at int) (line, col int) {
	at = min(max(at, 0), len(data))
	before := data[:at]
	line = bytes.Count(before, []byte("\n")) + 1
	start := bytes.LastIndexByte(before, '\n') + 1
	return line, utf8.RuneCount(before[start:]) + 1
}

func firstNonSpace(data []byte, from int) int {
	for from < len(data) && strings.ContainsRune(" \t\r\n", rune(data[from])) {
		from++
	}
	return from
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number, float64:
		return "a number"
	case bool:
		return "a boolean"
	case map[string]any:
		return "an object"
	}
	return "not an object"
}

// unwrapPathError drops the "open <path>:" prefix the message already says.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Describe names a reference for messages: `"web"` or `#42`.
func Describe(ref string) string {
	if _, err := strconv.ParseInt(ref, 10, 64); err == nil {
		return "#" + ref
	}
	return fmt.Sprintf("%q", ref)
}
