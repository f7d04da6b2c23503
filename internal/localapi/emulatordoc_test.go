package localapi

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// docs/emulator.md names every profile with the code's exact spec, and
// every chaos key the parser takes.
func TestEmulatorDocMatchesTheCode(t *testing.T) {
	data, err := os.ReadFile("../../docs/emulator.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	_, table, ok := strings.Cut(doc, "<!-- profiles:begin -->")
	table, _, ok2 := strings.Cut(table, "<!-- profiles:end -->")
	if !ok || !ok2 {
		t.Fatal("docs/emulator.md: no profiles table between its markers")
	}
	row := regexp.MustCompile("(?m)^\\| `([a-z]+)` \\| `([^`]*)` \\|$")
	documented := map[string]string{}
	for _, m := range row.FindAllStringSubmatch(table, -1) {
		documented[m[1]] = m[2]
	}
	for name, spec := range profiles {
		if spec == "" {
			continue // off, none: named in the text
		}
		got, ok := documented[name]
		switch {
		case !ok:
			t.Errorf("profile %s is not in docs/emulator.md", name)
		case got != spec:
			t.Errorf("profile %s: docs/emulator.md says\n  %s\nthe code says\n  %s", name, got, spec)
		}
		if _, err := parseChaos(got); ok && err != nil {
			t.Errorf("profile %s as documented does not parse: %v", name, err)
		}
	}
	for name := range documented {
		if _, ok := profiles[name]; !ok {
			t.Errorf("docs/emulator.md lists profile %s, which the code does not have", name)
		}
	}
	for _, key := range append(append([]string{}, preFaultKinds...), commitFaultKinds...) {
		if !strings.Contains(doc, "`"+key+"=") {
			t.Errorf("fault %s is not in docs/emulator.md", key)
		}
	}
	for _, key := range []string{"latency", "outage", "cable-expire", "cable-expire-burst", "cable-drop", "cable-reject", "cable-noping", "device-slow-down"} {
		if err := (&chaosPlan{rates: map[string]float64{}}).set(key, "bogus"); err != nil && strings.Contains(err.Error(), "unknown key") {
			t.Errorf("%s is not a chaos key any more: update the doc and this list", key)
		}
		if !strings.Contains(doc, "`"+key+"=") {
			t.Errorf("chaos key %s is not in docs/emulator.md", key)
		}
	}
}
