package localapi

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"strconv"
	"strings"
)

// parseBody checks size, content type and JSON syntax of a request body and
// keeps the object for the handler.
func (rc *reqCtx) parseBody() error {
	c := rc.c
	if c.tooLarge {
		return newAPIError(http.StatusRequestEntityTooLarge, codeBadRequest, "request body is larger than 1 MiB", nil)
	}
	if len(bytes.TrimSpace(c.body)) == 0 {
		return nil
	}
	if isMultipart(c.header.Get("Content-Type")) {
		return nil // an upload: the route's handler reads it (multipartForm)
	}
	if !isJSONType(c.header.Get("Content-Type")) {
		return newAPIError(http.StatusUnsupportedMediaType, codeBadRequest, "request body must be application/json", nil)
	}
	dec := json.NewDecoder(bytes.NewReader(c.body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return badRequest("malformed JSON body")
	}
	if dec.More() {
		return badRequest("malformed JSON body: trailing data")
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return badRequest("request body must be a JSON object")
	}
	rc.body = obj
	return nil
}

func isMultipart(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "multipart/form-data"
}

func isJSONType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	return mt == "application/json" || (strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))
}

// object returns the wrapped resource object ({"playground": {...}}); a
// missing wrapper is a 400, as Rails answers a missing required param.
func (rc *reqCtx) object(wrapper string) (map[string]any, error) {
	v, ok := rc.body[wrapper]
	if !ok {
		return nil, badRequest("param is missing or the value is empty: " + wrapper)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, invalid(wrapper, "must be an object")
	}
	return obj, nil
}

// str reads an optional string field; present-but-not-a-string is a 422.
func str(obj map[string]any, field string) (string, bool, error) {
	v, ok := obj[field]
	if !ok || v == nil {
		return "", false, nil
	}
	s, ok := v.(string)
	if !ok {
		return "", false, invalid(field, "must be a string")
	}
	return s, true, nil
}

// integer reads an optional integer field (a JSON number or numeric string).
func integer(obj map[string]any, field string) (int64, bool, error) {
	v, ok := obj[field]
	if !ok || v == nil {
		return 0, false, nil
	}
	switch n := v.(type) {
	case json.Number:
		if i, err := n.Int64(); err == nil {
			return i, true, nil
		}
	case string:
		if i, err := strconv.ParseInt(n, 10, 64); err == nil {
			return i, true, nil
		}
	}
	return 0, false, invalid(field, "must be an integer")
}

// ref reads a reference to another resource: a numeric id or a name.
func ref(obj map[string]any, field string) (string, bool, error) {
	v, ok := obj[field]
	if !ok || v == nil {
		return "", false, nil
	}
	switch x := v.(type) {
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return x.String(), true, nil
		}
	case string:
		if x != "" {
			return x, true, nil
		}
	}
	return "", false, invalid(field, "must be an id or a name")
}

func boolean(obj map[string]any, field string) (bool, error) {
	v, ok := obj[field]
	if !ok || v == nil {
		return false, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, invalid(field, "must be true or false")
	}
	return b, nil
}

// stringMap reads an optional object of strings (env_overrides).
func stringMap(obj map[string]any, field string) (map[string]string, bool, error) {
	v, ok := obj[field]
	if !ok || v == nil {
		return nil, false, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false, invalid(field, "must be an object of strings")
	}
	out := make(map[string]string, len(m))
	for k, x := range m {
		s, ok := x.(string)
		if !ok {
			return nil, false, invalid(field, "must be an object of strings")
		}
		out[k] = s
	}
	return out, true, nil
}
