package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/fibegg/fibe/internal/output"
	"io"
	"net/url"
	"os"
	"strings"
)

// maxFile bounds what -F k=@file and --input read.
const maxFile = 1 << 20

// field is one -f (raw string) or -F (typed) k=v pair, in order given.
type field struct {
	raw   string
	typed bool
}

// fieldsFlag collects -f and -F in the order they were given, so a later
// value for the same key wins as it does in gh.
type fieldsFlag struct {
	list  *[]field
	typed bool
}

func (f fieldsFlag) String() string { return "" }
func (f fieldsFlag) Type() string   { return "key=value" }
func (f fieldsFlag) Set(v string) error {
	*f.list = append(*f.list, field{raw: v, typed: f.typed})
	return nil
}

// parseFields turns the fields into a JSON object; stdin serves -F k=@-.
func parseFields(fields []field, stdin io.Reader) (map[string]any, error) {
	obj := map[string]any{}
	for _, f := range fields {
		flag := "-f"
		if f.typed {
			flag = "-F"
		}
		k, v, ok := strings.Cut(f.raw, "=")
		if !ok {
			return nil, output.FlagErrorf("%s %q: a field is key=value", flag, f.raw)
		}
		if k == "" {
			return nil, output.FlagErrorf("%s %q: the key is empty", flag, f.raw)
		}
		var value any = v
		if f.typed {
			var err error
			if value, err = typedValue(v, stdin); err != nil {
				return nil, output.FlagErrorf("-F %s: %v", k, err)
			}
		}
		if err := setPath(obj, k, value); err != nil {
			return nil, output.FlagErrorf("%s %q: %v", flag, f.raw, err)
		}
	}
	return obj, nil
}

// typedValue is gh's -F: @file (or @- for stdin) reads a file's text;
// true, false, null and numbers are JSON values; anything else a string.
func typedValue(v string, stdin io.Reader) (any, error) {
	if name, ok := strings.CutPrefix(v, "@"); ok {
		data, err := readInput(name, stdin)
		if err != nil {
			return nil, err
		}
		return strings.TrimSuffix(string(data), "\n"), nil
	}
	switch v {
	case "true":
		return true, nil
	case "false":
		return false, nil
	case "null":
		return nil, nil
	}
	if v != "" && strings.Trim(v, "0123456789.-+eE") == "" && json.Valid([]byte(v)) {
		return json.Number(v), nil
	}
	return v, nil
}

// setPath sets obj[k], where k may nest: "a[b]" is {"a":{"b":v}} and
// "a[]" appends to the array a.
func setPath(obj map[string]any, k string, v any) error {
	name, rest, nested := strings.Cut(k, "[")
	if !nested {
		obj[k] = v
		return nil
	}
	if name == "" {
		return fmt.Errorf("the key starts with [")
	}
	inner, after, ok := strings.Cut(rest, "]")
	if !ok {
		return fmt.Errorf("unclosed [ in the key")
	}
	if inner == "" {
		if after != "" {
			return fmt.Errorf("nothing may follow [] in a key")
		}
		arr, _ := obj[name].([]any)
		obj[name] = append(arr, v)
		return nil
	}
	sub, ok := obj[name].(map[string]any)
	if !ok {
		sub = map[string]any{}
		obj[name] = sub
	}
	return setPath(sub, inner+after, v)
}

// readInput reads a file, or stdin for "-", up to maxFile.
func readInput(name string, stdin io.Reader) ([]byte, error) {
	var r io.Reader = stdin
	if name != "-" {
		file, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("cannot read %s: %v", name, pathError(err))
		}
		defer file.Close()
		r = file
	}
	data, err := io.ReadAll(io.LimitReader(r, maxFile+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", name, err)
	}
	if len(data) > maxFile {
		return nil, fmt.Errorf("%s is larger than 1 MiB", name)
	}
	return data, nil
}

func pathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// queryOf puts the fields in a query string (a GET's fields, or any
// request's when --input gives the body).
func queryOf(obj map[string]any) (url.Values, error) {
	q := url.Values{}
	for k, v := range obj {
		if err := addQuery(q, k, v); err != nil {
			return nil, err
		}
	}
	return q, nil
}

func addQuery(q url.Values, k string, v any) error {
	switch t := v.(type) {
	case nil:
		q.Add(k, "")
	case string:
		q.Add(k, t)
	case []any:
		for _, e := range t {
			if err := addQuery(q, k+"[]", e); err != nil {
				return err
			}
		}
	case map[string]any:
		for sk, sv := range t {
			if err := addQuery(q, k+"["+sk+"]", sv); err != nil {
				return err
			}
		}
	default:
		data, err := json.Marshal(t)
		if err != nil {
			return err
		}
		q.Add(k, string(bytes.Trim(data, `"`)))
	}
	return nil
}
