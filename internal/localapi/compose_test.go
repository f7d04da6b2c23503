package localapi

import (
	"slices"
	"strings"
	"testing"
)

func TestReadCompose(t *testing.T) {
	for _, tc := range []struct {
		name     string
		src      string
		services []string
		errs     []string // substrings, one per error, in order
		warns    []string
	}{
		{name: "valid", src: "services:\n  web:\n    image: nginx:alpine\n    labels:\n      fibe.gg/port: \"80\"\n  db:\n    image: postgres:16\n",
			services: []string{"web", "db"}},
		{name: "order kept", src: "services:\n  zeta:\n    image: a:1\n  alpha:\n    build: .\n",
			services: []string{"zeta", "alpha"}, warns: []string{"no service has a fibe.gg/port label"}},
		{name: "untagged image", src: "services:\n  web:\n    image: nginx\n    labels: [\"fibe.gg/port=80\"]\n",
			services: []string{"web"}, warns: []string{`image "nginx" has no tag`}},
		{name: "registry port is not a tag", src: "services:\n  web:\n    image: registry.test:5000/web\n    labels: {fibe.gg/port: 80}\n",
			services: []string{"web"}, warns: []string{"has no tag"}},
		{name: "anchors and merge keys", src: "x-base: &base\n  image: nginx:1.27\n  labels:\n    fibe.gg/port: \"80\"\nservices:\n  web: *base\n  api:\n    <<: *base\n    command: serve\n",
			services: []string{"web", "api"}},
		{name: "not yaml", src: "this: is: not: valid: yaml: :::", errs: []string{"Invalid YAML: line 1, column 9: mapping values are not allowed"}},
		{name: "empty", src: "", errs: []string{"services: is required"}},
		{name: "scalar", src: "just text", errs: []string{"must be a mapping with a services key"}},
		{name: "no services", src: "version: '3'\n", errs: []string{"services: is required"}},
		{name: "services a list", src: "services: [web]\n", errs: []string{"services: must be a mapping"}},
		{name: "no service", src: "services: {}\n", errs: []string{"at least one service"}},
		{name: "no image", src: "services:\n  web:\n    ports: [\"80\"]\n", errs: []string{"services.web: needs an image or a build"}},
		{name: "unknown fibe label", src: "services:\n  web:\n    image: a:1\n    labels:\n      fibe.gg/colour: red\n      other: x\n",
			errs: []string{`unknown label "fibe.gg/colour"`}},
		{name: "bad port", src: "services:\n  web:\n    image: a:1\n    labels: [\"fibe.gg/port=70000\"]\n", errs: []string{"fibe.gg/port must be a port"}},
		{name: "bad visibility", src: "services:\n  web:\n    image: a:1\n    labels: {fibe.gg/visibility: public}\n", errs: []string{"must be internal or external"}},
		{name: "job watch", src: "services:\n  worker:\n    image: alpine:3\n    labels:\n      fibe.gg/job_watch: \"true\"\n",
			services: []string{"worker"}, warns: []string{"no public URL"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := readCompose(tc.src)
			var got []string
			for _, s := range c.Services {
				got = append(got, s.Name)
			}
			if tc.errs == nil && !slices.Equal(got, tc.services) {
				t.Fatalf("services %v, want %v (errors %v)", got, tc.services, c.Errors)
			}
			match := func(kind string, have, want []string) {
				t.Helper()
				if len(have) != len(want) {
					t.Fatalf("%s %q, want %q", kind, have, want)
				}
				for i := range want {
					if !strings.Contains(have[i], want[i]) {
						t.Fatalf("%s %q, want %q", kind, have, want)
					}
				}
			}
			match("errors", c.Errors, tc.errs)
			if tc.errs == nil {
				match("warnings", c.Warnings, tc.warns)
			}
		})
	}
	merged := readCompose("x-base: &base\n  image: nginx:1.27\n  labels:\n    fibe.gg/port: \"80\"\nservices:\n  web: *base\n  api:\n    <<: *base\n")
	if len(merged.Services) != 2 || !merged.Services[1].public() || merged.Services[1].Image != "nginx:1.27" {
		t.Fatalf("merge keys: %+v", merged.Services)
	}
	c := readCompose("services:\n  worker:\n    image: alpine:3\n    labels:\n      fibe.gg/job_watch: \"true\"\n  web:\n    image: a:1\n    labels: [\"fibe.gg/port=8080\"]\n")
	if !c.Services[0].jobWatch() || c.Services[0].public() || !c.Services[1].public() || c.Services[1].Labels[labelPort] != "8080" {
		t.Fatalf("labels: %+v", c.Services)
	}
}
