package client

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// FlexID is an id the platform sends as a string or as a number (a
// playspec's registry credential); it is kept as text, and sent as a
// string.
type FlexID string

// UnmarshalJSON accepts "12", 12 and null.
func (id *FlexID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*id = ""
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*id = FlexID(s)
	default:
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return fmt.Errorf("id is neither a string nor a number: %s", b)
		}
		*id = FlexID(n.String())
	}
	return nil
}
