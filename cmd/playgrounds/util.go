package playgrounds

import (
	"encoding/json"
	"fmt"
	"sort"
)

func compact(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case nil:
		return ""
	}
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}

func sortStrings(s []string) { sort.Strings(s) }
