package mcpinstall

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
)

// object is a JSON object that keeps its keys in order, so a merged file
// reads like the one the user wrote.
type object struct {
	keys []string
	vals map[string]json.RawMessage
}

func newObject() *object { return &object{vals: map[string]json.RawMessage{}} }

func parseObject(data []byte) (*object, error) {
	o := newObject()
	if len(bytes.TrimSpace(data)) == 0 {
		return o, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, notJSON(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("not a JSON object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, notJSON(err)
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, notJSON(err)
		}
		o.set(key, raw)
	}
	if _, err := dec.Token(); err != nil {
		return nil, notJSON(err)
	}
	if _, err := dec.Token(); err == nil {
		return nil, fmt.Errorf("trailing data after the JSON object")
	}
	return o, nil
}

func notJSON(err error) error {
	return fmt.Errorf("not plain JSON (comments or trailing commas are not supported; edit it by hand, see --print): %v", err)
}

func (o *object) set(key string, v json.RawMessage) {
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
}

func (o *object) delete(key string) {
	if _, ok := o.vals[key]; !ok {
		return
	}
	delete(o.vals, key)
	for i, k := range o.keys {
		if k == key {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

func (o *object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		b.Write(o.vals[k])
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// format writes o indented, with a final newline.
func format(o *object) ([]byte, error) {
	raw, err := o.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// entryObject is our entry in a client's JSON dialect.
func entryObject(t Target, e Entry) (*object, error) {
	o := newObject()
	add := func(k string, v any) error {
		data, err := marshalNoEscape(v)
		if err != nil {
			return err
		}
		o.set(k, data)
		return nil
	}
	if t.Type != "" {
		if err := add("type", t.Type); err != nil {
			return nil, err
		}
	}
	if err := add("command", e.Command); err != nil {
		return nil, err
	}
	args := e.Args
	if args == nil {
		args = []string{}
	}
	if err := add("args", args); err != nil {
		return nil, err
	}
	if len(e.Env) > 0 {
		if err := add("env", e.Env); err != nil {
			return nil, err
		}
	}
	return o, nil
}

func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// jsonSnippet is {"<key>": {"fibe": entry}}.
func jsonSnippet(t Target, e Entry) ([]byte, error) {
	entry, err := entryObject(t, e)
	if err != nil {
		return nil, err
	}
	servers, root := newObject(), newObject()
	raw, err := entry.MarshalJSON()
	if err != nil {
		return nil, err
	}
	servers.set(Name, raw)
	if raw, err = servers.MarshalJSON(); err != nil {
		return nil, err
	}
	root.set(t.Key, raw)
	return format(root)
}

func jsonInstall(old []byte, t Target, e Entry) ([]byte, error) {
	root, err := parseObject(old)
	if err != nil {
		return nil, err
	}
	servers := newObject()
	if raw, ok := root.vals[t.Key]; ok && string(raw) != "null" {
		if servers, err = parseObject(raw); err != nil {
			return nil, fmt.Errorf("%q: %w", t.Key, err)
		}
	}
	entry, err := entryObject(t, e)
	if err != nil {
		return nil, err
	}
	want, err := entry.MarshalJSON()
	if err != nil {
		return nil, err
	}
	if have, ok := servers.vals[Name]; ok && sameJSON(have, want) {
		return old, nil // already installed
	}
	servers.set(Name, want)
	raw, err := servers.MarshalJSON()
	if err != nil {
		return nil, err
	}
	root.set(t.Key, raw)
	return format(root)
}

func jsonUninstall(old []byte, t Target) ([]byte, error) {
	root, err := parseObject(old)
	if err != nil {
		return nil, err
	}
	raw, ok := root.vals[t.Key]
	if !ok || string(raw) == "null" {
		return old, nil
	}
	servers, err := parseObject(raw)
	if err != nil {
		return nil, fmt.Errorf("%q: %w", t.Key, err)
	}
	if _, ok := servers.vals[Name]; !ok {
		return old, nil
	}
	servers.delete(Name)
	if raw, err = servers.MarshalJSON(); err != nil {
		return nil, err
	}
	root.set(t.Key, raw)
	return format(root)
}

func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
