package localapi

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"go.yaml.in/yaml/v4"
)

// TestComposeSchema fetches /schema.json without a key, as the SDKs do,
// compiles it as draft 2020-12 and checks composes against it.
func TestComposeSchema(t *testing.T) {
	e := newEnv(t, Config{})
	req, err := http.NewRequest("GET", e.hs.URL+"/schema.json", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/schema+json, application/json")
	res, err := e.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/schema+json" {
		t.Fatalf("GET /schema.json: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	var s jsonschema.Schema
	if err := json.NewDecoder(res.Body).Decode(&s); err != nil {
		t.Fatal(err)
	}
	if s.Schema != "https://json-schema.org/draft/2020-12/schema" {
		t.Fatalf("$schema %q", s.Schema)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("resolve: %v", err)
	}
	for _, tc := range []struct {
		name, src string
		valid     bool
	}{
		{"services", "services:\n  web:\n    image: nginx:alpine\n    ports: [\"80\"]\n    environment:\n      NGINX_PORT: \"80\"\n  db:\n    image: postgres:16-alpine\n", true},
		{"job watch label", "services:\n  worker:\n    image: alpine:3\n    labels:\n      fibe.gg/job_watch: \"true\"\n    command: [\"sh\", \"-c\", \"echo done\"]\n", true},
		{"port and visibility", "services:\n  web:\n    build: .\n    labels:\n      fibe.gg/port: \"8080\"\n      fibe.gg/visibility: internal\n      com.example: x\n", true},
		{"label list", "services:\n  web:\n    image: a:1\n    labels: [\"fibe.gg/port=80\", \"other=1\"]\n", true},
		{"no services", "version: '3'\n", false},
		{"no image or build", "services:\n  web:\n    ports: [\"80\"]\n", false},
		{"unknown fibe label", "services:\n  web:\n    image: a:1\n    labels:\n      fibe.gg/colour: red\n", false},
		{"unknown fibe label in a list", "services:\n  web:\n    image: a:1\n    labels: [\"fibe.gg/colour=red\"]\n", false},
		{"bad visibility", "services:\n  web:\n    image: a:1\n    labels: {fibe.gg/visibility: public}\n", false},
	} {
		var v any
		if err := yaml.Unmarshal([]byte(tc.src), &v); err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var inst any
		if err := json.Unmarshal(b, &inst); err != nil {
			t.Fatal(err)
		}
		if err := rs.Validate(inst); (err == nil) != tc.valid {
			t.Errorf("%s: valid %v, error %v", tc.name, tc.valid, err)
		}
	}
	// Not a method it serves.
	post := e.do("POST", "/schema.json", map[string]any{})
	expectStatus(t, post, http.StatusMethodNotAllowed)
}
