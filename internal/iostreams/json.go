package iostreams

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/itchyny/gojq"
	"go.yaml.in/yaml/v3"
)

// JQ is a compiled --jq expression.
type JQ struct {
	src  string
	code *gojq.Code
}

// CompileJQ parses and compiles expr, so a bad expression is found before
// anything is sent; the caller reports it as a usage error.
func CompileJQ(expr string) (*JQ, error) {
	q, err := gojq.Parse(expr)
	if err != nil {
		return nil, fmt.Errorf("invalid --jq expression: %v", err)
	}
	code, err := gojq.Compile(q)
	if err != nil {
		return nil, fmt.Errorf("invalid --jq expression: %v", err)
	}
	return &JQ{src: expr, code: code}, nil
}

// SetJQ records a compiled --jq filter; it implies --json.
func (s *IOStreams) SetJQ(q *JQ) {
	s.jq = q
	if q != nil {
		s.json = true
	}
}

// SetYAML records --output yaml (FIBE_OUTPUT=yaml): every command takes
// its --json path, and the documents it prints are written as YAML. It
// implies JSON(); a --jq filter is not combined with it (the caller
// refuses that).
func (s *IOStreams) SetYAML(v bool) {
	s.yaml = v
	if v {
		s.json = true
	}
}

// YAML reports whether documents are printed as YAML.
func (s *IOStreams) YAML() bool { return s.yaml }

// PrintJSON writes v to stdout as one indented JSON document, or, with --jq,
// the filter's results: strings raw (as gh does), anything else as JSON, one
// per line; with --output yaml, the same document as YAML. Nothing is
// written when encoding fails.
func (s *IOStreams) PrintJSON(v any) error {
	data, err := marshal(v)
	if err != nil {
		return err
	}
	if s.jq != nil {
		return s.jq.apply(data, s.Out)
	}
	if s.yaml {
		out, err := JSONToYAML(data)
		if err != nil {
			return err
		}
		_, err = s.Out.Write(out)
		return err
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, data, "", "  "); err != nil {
		return err
	}
	buf.WriteByte('\n')
	_, err = s.Out.Write(buf.Bytes())
	return err
}

// PrintJSONLine writes v as one compact line (NDJSON, for followed streams).
// A --jq filter applies to each line. Streams stay NDJSON under --output
// yaml: a YAML stream cannot be read line by line.
func (s *IOStreams) PrintJSONLine(v any) error {
	data, err := marshal(v)
	if err != nil {
		return err
	}
	if s.jq != nil {
		return s.jq.apply(data, s.Out)
	}
	_, err = s.Out.Write(append(data, '\n'))
	return err
}

func marshal(v any) ([]byte, error) {
	if raw, ok := v.(json.RawMessage); ok {
		if !json.Valid(raw) {
			return nil, fmt.Errorf("invalid JSON document")
		}
		return raw, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

func (q *JQ) apply(data []byte, w io.Writer) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // ids stay exact integers
	var input any
	if err := dec.Decode(&input); err != nil {
		return err
	}
	var buf bytes.Buffer
	iter := q.code.RunWithContext(context.Background(), input)
	for {
		v, ok := iter.Next()
		if !ok {
			break
		}
		if err, isErr := v.(error); isErr {
			var halt *gojq.HaltError
			if errors.As(err, &halt) && halt.Value() == nil {
				break
			}
			return fmt.Errorf("--jq: %w", err)
		}
		if str, isStr := v.(string); isStr {
			buf.WriteString(str)
		} else {
			out, err := gojq.Marshal(v)
			if err != nil {
				return err
			}
			buf.Write(out)
		}
		buf.WriteByte('\n')
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// JSONToYAML rewrites one JSON document as YAML (block style, the keys in
// their JSON order). The document means the same: parsed back, it equals
// the JSON one. A JSON document is valid YAML 1.2, so the YAML library
// reads it into its node tree; only the styles are reset, so strings that
// need quotes (like "true" or "0123") keep them.
func JSONToYAML(data []byte) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("JSON to YAML: %w", err)
	}
	plain(&doc)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, fmt.Errorf("JSON to YAML: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// plain drops the flow and quoting styles the JSON text gave the nodes.
func plain(n *yaml.Node) {
	n.Style = 0
	for _, c := range n.Content {
		plain(c)
	}
}
