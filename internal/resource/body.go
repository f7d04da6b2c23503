package resource

import (
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// InputError is bad input to a verb, found before anything is sent. Arg is
// the field's name as every door gives it; each door words it its own way
// (--port on the command line, "port" for an agent), and it is
// INVALID_ARGUMENT (exit 2) everywhere.
type InputError struct {
	Arg     string
	Problem string // "must be between 1 and 65535"
	// Missing: a required field was not given.
	Missing bool
}

func (e *InputError) Error() string { return e.Arg + " " + e.Problem }

// Values are what a door was given for a verb, by Arg: a string (String,
// Ref, File: the file's path, or []byte: the content the door read itself,
// from stdin), an int (Int), a bool (Bool), a []string (Strings), and for
// Env either KEY=VALUE pairs ([]string) or an object (map[string]string).
// A door puts in only what the user gave.
type Values map[string]any

// Body builds the request body verb v sends: base (a payload the user gave
// whole, with the API's names) and then values, which win. A create
// without a required field, a value out of its bounds or not among its
// allowed values, an unreadable file, a malformed override: each is an
// *InputError and nothing is sent.
func (r *Resource) Body(v Verb, base map[string]any, values Values) (map[string]any, error) {
	body := map[string]any{}
	maps.Copy(body, base)
	for _, f := range r.FieldsOf(v) {
		val, ok := values[f.Arg]
		if !ok {
			continue
		}
		if err := f.put(body, val); err != nil {
			return nil, err
		}
	}
	for _, f := range r.FieldsOf(v) {
		if s, ok := body[f.Wire].(string); ok && f.Check != nil {
			if err := f.Check(s); err != nil {
				return nil, &InputError{Arg: f.Arg, Problem: err.Error()}
			}
		}
	}
	if v == VerbCreate {
		for _, f := range r.FieldsOf(v) {
			if _, ok := body[f.Wire]; f.Required && !ok {
				return nil, &InputError{Arg: f.Arg, Problem: "is required", Missing: true}
			}
		}
	}
	return body, nil
}

// put checks one value and writes it into body under the wire name.
func (f Field) put(body map[string]any, val any) error {
	switch f.Kind {
	case Int:
		n, ok := val.(int)
		if !ok {
			return &InputError{Arg: f.Arg, Problem: "must be an integer"}
		}
		if (f.Min != 0 || f.Max != 0) && (n < f.Min || n > f.Max) {
			return &InputError{Arg: f.Arg, Problem: fmt.Sprintf("must be between %d and %d", f.Min, f.Max)}
		}
		body[f.Wire] = n
	case Bool:
		b, _ := val.(bool)
		body[f.Wire] = b
	case Env:
		env, err := envValue(f.Arg, val)
		if err != nil {
			return err
		}
		MergeEnv(body, f.Wire, env)
	case File:
		if content, ok := val.([]byte); ok {
			body[f.Wire] = string(content)
			return nil
		}
		path, _ := val.(string)
		if path == "" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return &InputError{Arg: f.Arg, Problem: "cannot be read: " + pathProblem(err)}
		}
		body[f.Wire] = string(data)
	case Strings:
		list, ok := val.([]string)
		if !ok {
			return &InputError{Arg: f.Arg, Problem: "must be a list of strings"}
		}
		for _, s := range list {
			if len(f.Enum) > 0 && !slices.Contains(f.Enum, s) {
				return &InputError{Arg: f.Arg, Problem: fmt.Sprintf("must be among %s, not %q", strings.Join(f.Enum, ", "), s)}
			}
			if f.Pattern != "" && !regexp.MustCompile(`^(?:`+f.Pattern+`)$`).MatchString(s) {
				return &InputError{Arg: f.Arg, Problem: fmt.Sprintf("must each be %s, not %q", f.PatternHelp, s)}
			}
		}
		if len(list) > 0 {
			body[f.Wire] = slices.Clone(list)
		}
	case Ref:
		if s, _ := val.(string); s != "" {
			body[f.Wire] = IDOrName(s)
		}
	default:
		s, _ := val.(string)
		if s == "" {
			return nil
		}
		if len(f.Enum) > 0 && !slices.Contains(f.Enum, s) {
			return &InputError{Arg: f.Arg, Problem: fmt.Sprintf("must be one of %s, not %q", strings.Join(f.Enum, ", "), s)}
		}
		if n := utf8.RuneCountInString(s); f.MaxLen > 0 && n > f.MaxLen {
			// The value is not quoted: it may be a secret.
			return &InputError{Arg: f.Arg, Problem: fmt.Sprintf("is too long (%d characters; at most %d)", n, f.MaxLen)}
		}
		if f.Pattern != "" && !regexp.MustCompile(`^(?:`+f.Pattern+`)$`).MatchString(s) {
			problem := "must be " + f.PatternHelp
			if !f.WriteOnly {
				problem += fmt.Sprintf(", not %q", s)
			}
			return &InputError{Arg: f.Arg, Problem: problem}
		}
		body[f.Wire] = s
	}
	return nil
}

func envValue(arg string, val any) (map[string]string, error) {
	switch v := val.(type) {
	case map[string]string:
		return v, nil
	case []string:
		return ParseEnv(arg, v)
	}
	return nil, &InputError{Arg: arg, Problem: "must be KEY=VALUE pairs"}
}

// pathProblem is the reason of a file error without the path the message
// already names.
func pathProblem(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

// ParseEnv turns KEY=VALUE pairs into overrides; anything else is an
// *InputError naming arg. It is the one parser of overrides, for the
// command line's --env, the console's settings form and the SDK.
func ParseEnv(arg string, pairs []string) (map[string]string, error) {
	env := make(map[string]string, len(pairs))
	for _, p := range pairs {
		k, v, ok := strings.Cut(p, "=")
		if !ok || k == "" {
			return nil, &InputError{Arg: arg, Problem: fmt.Sprintf("takes KEY=VALUE, not %q", p)}
		}
		env[k] = v
	}
	return env, nil
}

// MergeEnv adds env to body[key], keeping what was there.
func MergeEnv(body map[string]any, key string, env map[string]string) {
	if len(env) == 0 {
		return
	}
	merged := map[string]any{}
	if prev, ok := body[key].(map[string]any); ok {
		maps.Copy(merged, prev)
	}
	for k, v := range env {
		merged[k] = v
	}
	body[key] = merged
}

// IDOrName is how a reference to a resource goes on the wire: a positive
// number is an id, sent as a number; anything else is a name.
func IDOrName(ref string) any {
	if n, err := strconv.ParseInt(ref, 10, 64); err == nil && n > 0 {
		return n
	}
	return ref
}
