package resource

import (
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v4"
)

// CheckYAML is a field's Check for YAML text (a playspec's compose): text
// that does not parse is refused before anything is sent, with the line
// and column of the first problem.
func CheckYAML(text string) error {
	var doc yaml.Node
	err := yaml.Unmarshal([]byte(text), &doc)
	if err == nil {
		return nil
	}
	var le *yaml.LoadError
	if errors.As(err, &le) && le.Mark.Line > 0 {
		return fmt.Errorf("is not valid YAML: line %d, column %d: %s", le.Mark.Line, le.Mark.Column, le.Message)
	}
	return fmt.Errorf("is not valid YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
}
