package cmdutil

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/fibegg/fibe/internal/output"
)

// maxPayload bounds a -f payload; the API refuses bodies over 1 MiB anyway.
const maxPayload = 1 << 20

// ReadPayload reads a JSON object from path ("-" for stdin). A payload
// wrapped in its resource ({"playground": {...}}) is unwrapped, so the
// same file works whether or not it carries the wrapper. Bad input is a
// usage error.
func ReadPayload(f *Factory, path, wrapper string) (map[string]any, error) {
	var r io.Reader
	if path == "-" {
		r = f.IOStreams.In
	} else {
		file, err := os.Open(path)
		if err != nil {
			return nil, output.FlagErrorf("cannot read payload: %v", err)
		}
		defer file.Close()
		r = file
	}
	data, err := io.ReadAll(io.LimitReader(r, maxPayload+1))
	if err != nil {
		return nil, output.FlagErrorf("cannot read payload: %v", err)
	}
	if len(data) > maxPayload {
		return nil, output.FlagErrorf("payload is larger than 1 MiB")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		return nil, output.FlagErrorf("payload is not a JSON object: %v", err)
	}
	if obj == nil { // the document was null: flags would be merged into a nil map
		return nil, output.FlagErrorf("payload is not a JSON object: null")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, output.FlagErrorf("payload has data after the JSON object")
	}
	if inner, ok := obj[wrapper].(map[string]any); ok && len(obj) == 1 {
		obj = inner
	}
	return obj, nil
}

// ParseEnv turns KEY=VALUE pairs into a map; anything else is a usage error.
func ParseEnv(pairs []string) (map[string]string, error) {
	env := map[string]string{}
	for _, p := range pairs {
		k, v, ok := strings.Cut(p, "=")
		if !ok || k == "" {
			return nil, output.FlagErrorf("invalid --env %q: expected KEY=VALUE", p)
		}
		env[k] = v
	}
	return env, nil
}

// IDOrName sends a numeric reference as a number and a name as a string.
func IDOrName(ref string) any {
	if n, err := strconv.ParseInt(ref, 10, 64); err == nil && n > 0 {
		return n
	}
	return ref
}

// MergeEnv adds env to body[key], keeping what the payload had.
func MergeEnv(body map[string]any, key string, env map[string]string) {
	if len(env) == 0 {
		return
	}
	merged := map[string]any{}
	if prev, ok := body[key].(map[string]any); ok {
		for k, v := range prev {
			merged[k] = v
		}
	}
	for k, v := range env {
		merged[k] = v
	}
	body[key] = merged
}

// Describe names a reference for messages: `"web"` or `#42`.
func Describe(ref string) string {
	if _, err := strconv.ParseInt(ref, 10, 64); err == nil {
		return "#" + ref
	}
	return fmt.Sprintf("%q", ref)
}
