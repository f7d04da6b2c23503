package localapi

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"
)

// The compose a playspec holds (base_compose_yaml) is read here: its
// services in the order written, their images and labels, and the Fibe
// labels that matter to the platform (docs/emulator.md, Playspecs).
const (
	labelPort       = "fibe.gg/port"       // the service's public port: it gets a URL
	labelVisibility = "fibe.gg/visibility" // internal or external
	labelJobWatch   = "fibe.gg/job_watch"  // a job-mode playground ends with this service
)

// fibeLabels are the labels of the fibe.gg/ namespace a compose may use.
var fibeLabels = []string{labelJobWatch, labelPort, labelVisibility}

// composeService is one service of a compose file.
type composeService struct {
	Name   string
	Image  string
	Build  bool
	Labels map[string]string
}

func (cs composeService) public() bool { return cs.Labels[labelPort] != "" }

func (cs composeService) jobWatch() bool { return cs.Labels[labelJobWatch] == "true" }

// composeCheck is what reading a compose found: its services, the errors
// that make it unusable and the warnings that do not.
type composeCheck struct {
	Services []composeService
	Errors   []string
	Warnings []string
}

func (c *composeCheck) fail(format string, args ...any) {
	c.Errors = append(c.Errors, fmt.Sprintf(format, args...))
}

func (c *composeCheck) warn(format string, args ...any) {
	c.Warnings = append(c.Warnings, fmt.Sprintf(format, args...))
}

// readCompose parses src and checks it as the platform would before
// accepting it: YAML, a services mapping of at least one service, each
// with an image or a build, and only known fibe.gg/ labels with valid
// values.
func readCompose(src string) composeCheck {
	var c composeCheck
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		c.fail("Invalid YAML: %s", yamlProblem(err))
		return c
	}
	if len(doc.Content) == 0 {
		c.fail("services: is required")
		return c
	}
	root := deref(doc.Content[0])
	if root.Kind != yaml.MappingNode {
		c.fail("the compose must be a mapping with a services key")
		return c
	}
	services := mappingValue(root, "services")
	switch {
	case services == nil:
		c.fail("services: is required")
		return c
	case services.Kind != yaml.MappingNode:
		c.fail("services: must be a mapping of service names to services")
		return c
	case len(services.Content) == 0:
		c.fail("services: must define at least one service")
		return c
	}
	for i := 0; i+1 < len(services.Content); i += 2 {
		name, body := services.Content[i].Value, deref(services.Content[i+1])
		if body.Kind != yaml.MappingNode {
			c.fail("services.%s: must be a mapping", name)
			continue
		}
		svc := composeService{Name: name, Labels: map[string]string{}}
		if img := mappingValue(body, "image"); img != nil {
			svc.Image = img.Value
		}
		svc.Build = mappingValue(body, "build") != nil
		if svc.Image == "" && !svc.Build {
			c.fail("services.%s: needs an image or a build", name)
		}
		if svc.Image != "" && !imageTagged(svc.Image) {
			c.warn("services.%s: image %q has no tag; latest is pulled", name, svc.Image)
		}
		c.readLabels(&svc, mappingValue(body, "labels"))
		c.Services = append(c.Services, svc)
	}
	if len(c.Errors) == 0 && !slices.ContainsFunc(c.Services, composeService.public) {
		c.warn("no service has a %s label: the playground gets no public URL", labelPort)
	}
	return c
}

// readLabels reads a service's labels, a mapping or a list of key=value,
// and checks the fibe.gg/ ones.
func (c *composeCheck) readLabels(svc *composeService, labels *yaml.Node) {
	if labels == nil {
		return
	}
	where := "services." + svc.Name + ".labels"
	switch labels.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(labels.Content); i += 2 {
			if v := labels.Content[i+1]; v.Kind != yaml.ScalarNode {
				c.fail("%s: %s must be a string", where, labels.Content[i].Value)
			} else {
				svc.Labels[labels.Content[i].Value] = v.Value
			}
		}
	case yaml.SequenceNode:
		for _, item := range labels.Content {
			k, v, _ := strings.Cut(item.Value, "=")
			svc.Labels[k] = v
		}
	default:
		c.fail("%s: must be a mapping or a list", where)
		return
	}
	keys := make([]string, 0, len(svc.Labels))
	for k := range svc.Labels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := svc.Labels[k]
		switch {
		case !strings.HasPrefix(k, "fibe.gg/"):
		case !slices.Contains(fibeLabels, k):
			c.fail("%s: unknown label %q (known: %s)", where, k, strings.Join(fibeLabels, ", "))
		case k == labelPort:
			if n, err := strconv.Atoi(v); err != nil || n < 1 || n > 65535 {
				c.fail("%s: %s must be a port between 1 and 65535, not %q", where, k, v)
			}
		case k == labelVisibility:
			if v != "internal" && v != "external" {
				c.fail("%s: %s must be internal or external, not %q", where, k, v)
			}
		case k == labelJobWatch:
			if v != "true" && v != "false" {
				c.fail("%s: %s must be \"true\" or \"false\", not %q", where, k, v)
			}
		}
	}
}

// mappingValue is the value of key in the mapping m (aliases followed,
// merge keys "<<" looked into), or nil.
func mappingValue(m *yaml.Node, key string) *yaml.Node {
	m = deref(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return deref(m.Content[i+1])
		}
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value != "<<" {
			continue
		}
		merged := deref(m.Content[i+1])
		sources := []*yaml.Node{merged}
		if merged != nil && merged.Kind == yaml.SequenceNode {
			sources = merged.Content
		}
		for _, src := range sources {
			if v := mappingValue(src, key); v != nil {
				return v
			}
		}
	}
	return nil
}

// deref follows an alias (*anchor) to the node it names.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 16; i++ {
		n = n.Alias
	}
	return n
}

// imageTagged reports whether an image reference names a tag or a digest.
func imageTagged(image string) bool {
	if strings.Contains(image, "@") {
		return true
	}
	last := image[strings.LastIndex(image, "/")+1:]
	return strings.Contains(last, ":")
}

// yamlProblem is a parse error as "line L, column C: problem".
func yamlProblem(err error) string {
	var le *yaml.LoadError
	if errors.As(err, &le) && le.Mark.Line > 0 {
		return fmt.Sprintf("line %d, column %d: %s", le.Mark.Line, le.Mark.Column, le.Message)
	}
	return strings.TrimPrefix(err.Error(), "yaml: ")
}
