package fibe_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/localapi/cable"
	"github.com/fibegg/fibe/internal/reliability"
	"github.com/fibegg/fibe/pkg/fibe"
	"github.com/fibegg/fibe/pkg/fibetest"
)

// notPublic are the engine's fields the SDK leaves out on purpose, each
// with its reason, and the ones it renames (engine name → public name).
var notPublic = map[string]string{
	"Error.Err":                   "the cause is Unwrap's, and never an internal type",
	"Error.Resume":                "OperationID and IdempotencyKey say the same, as data",
	"Policy.MarqueeCacheTTL":      "how long a learnt playground→marquee mapping is trusted: plumbing",
	"Event.WaitLeft":              "breaker-wait events are not public yet",
	"Event.Label":                 "the journal's label is the CLI's words",
	"Event.Started":               "the journal entry's start is the CLI's words",
	"Stats.Cable":                 "public as Streams (StreamStats)",
	"cable.Stats.Open":            "a gauge, not a count of what happened",
	"cable.Stats.Unauthorized":    "the terminal's and handshakes' counters are not public",
	"cable.Stats.Pings":           "timing, not API",
	"cable.Stats.Terminals":       "the terminal channel is not public",
	"cable.Stats.Inputs":          "the terminal channel is not public",
	"cable.Stats.Outputs":         "the terminal channel is not public",
	"cable.Stats.Exits":           "the terminal channel is not public",
	"PlaygroundStatus.Playground": "embedded: its fields are checked with Playground",
}

// renamed are engine fields public under another name.
var renamed = map[string]string{
	"Error.AsyncRequestID": "OperationID",
}

func names(f reflect.StructField) []string {
	out := []string{f.Name}
	if tag, ok := f.Tag.Lookup("json"); ok {
		if n, _, _ := strings.Cut(tag, ","); n != "" && n != "-" {
			out = append(out, n)
		}
	}
	return out
}

// Each exported field of the engine's types is a field of the same name
// (Go or JSON) of the public type, or is on the notPublic list: a field
// added to the engine cannot be missed by the SDK unnoticed.
func TestNoDriftFromTheEngine(t *testing.T) {
	pairs := []struct {
		label          string
		engine, public any
	}{
		{"Error", client.Error{}, fibe.Error{}},
		{"Policy", reliability.Policy{}, fibe.Policy{}},
		{"Event", client.Event{}, fibe.Event{}},
		{"Playground", client.Playground{}, fibe.Playground{}},
		{"PlaygroundStatus", client.PlaygroundStatus{}, fibe.PlaygroundStatus{}},
		{"Service", client.Service{}, fibe.Service{}},
		{"ServiceURL", client.ServiceURL{}, fibe.ServiceURL{}},
		{"BuildStatus", client.BuildStatus{}, fibe.BuildStatus{}},
		{"JobResult", client.JobResult{}, fibe.JobResult{}},
		{"Agent", client.Agent{}, fibe.Agent{}},
		{"AgentMountedFile", client.AgentMountedFile{}, fibe.AgentMountedFile{}},
		{"AgentRuntimeStatus", client.AgentRuntimeStatus{}, fibe.AgentRuntimeStatus{}},
		{"JobResultSummary", client.JobResultSummary{}, fibe.JobResultSummary{}},
		{"JobServiceRow", client.JobServiceRow{}, fibe.JobServiceRow{}},
		{"Extension", client.Extension{}, fibe.Extension{}},
		{"Marquee", client.Marquee{}, fibe.Marquee{}},
		{"ConnectionTest", client.ConnectionTest{}, fibe.ConnectionTest{}},
		{"SSHKey", client.SSHKey{}, fibe.SSHKey{}},
		{"PlaygroundCompose", client.PlaygroundCompose{}, fibe.PlaygroundCompose{}},
		{"EnvMetadata", client.EnvMetadata{}, fibe.EnvMetadata{}},
		{"AutoconnectToken", client.AutoconnectToken{}, fibe.AutoconnectToken{}},
		{"Playspec", client.Playspec{}, fibe.Playspec{}},
		{"ServiceSpec", client.PlayspecService{}, fibe.ServiceSpec{}},
		{"User", client.User{}, fibe.User{}},
		{"Secret", client.Secret{}, fibe.Secret{}},
		{"APIKey", client.APIKey{}, fibe.APIKey{}},
		{"AccountStatus", client.AccountStatus{}, fibe.AccountStatus{}},
		{"Quota", client.Quota{}, fibe.Quota{}},
		{"RateLimitBucket", client.RateLimitBucket{}, fibe.RateLimitBucket{}},
		{"WebhookEndpoint", client.WebhookEndpoint{}, fibe.WebhookEndpoint{}},
		{"WebhookDelivery", client.WebhookDelivery{}, fibe.WebhookDelivery{}},
		{"AuditLog", client.AuditLog{}, fibe.AuditLog{}},
		{"ListMeta", client.ListMeta{}, fibe.ListMeta{}},
		{"BreakerStatus", client.BreakerStatus{}, fibe.BreakerStatus{}},
		{"RateLimit", reliability.RateLimit{}, fibe.RateLimit{}},
		{"Template", client.Template{}, fibe.Template{}},
		{"TemplateVersion", client.TemplateVersion{}, fibe.TemplateVersion{}},
		{"TemplateSource", client.TemplateSource{}, fibe.TemplateSource{}},
		{"TemplateVersionSource", client.TemplateVersionSource{}, fibe.TemplateVersionSource{}},
		{"TemplateCategory", client.TemplateCategory{}, fibe.TemplateCategory{}},
		{"TemplateUpgrade", client.TemplateUpgrade{}, fibe.TemplateUpgrade{}},
		{"TemplateSourceRefresh", client.TemplateSourceRefresh{}, fibe.TemplateSourceRefresh{}},
		{"LaunchResult", client.LaunchResult{}, fibe.LaunchResult{}},
		{"Stats", localapi.Stats{}, fibetest.Stats{}},
		{"cable.Stats", cable.Stats{}, fibetest.StreamStats{}},
	}
	for _, p := range pairs {
		et, pt := reflect.TypeOf(p.engine), reflect.TypeOf(p.public)
		public := map[string]reflect.StructField{}
		for f := range fields(pt) {
			for _, n := range names(f) {
				public[n] = f
			}
		}
		for f := range fields(et) {
			key := p.label + "." + f.Name
			if _, skip := notPublic[key]; skip {
				continue
			}
			if to, ok := renamed[key]; ok {
				if _, found := public[to]; !found {
					t.Errorf("%s: renamed %s is missing", key, to)
				}
				continue
			}
			found := false
			for _, n := range names(f) {
				if pf, ok := public[n]; ok {
					found = true
					// Wire types keep the JSON names of the engine.
					if tag, ok := f.Tag.Lookup("json"); ok && pf.Tag.Get("json") != tag && p.label != "Error" {
						t.Errorf("%s: JSON tag %q, the engine's is %q", key, pf.Tag.Get("json"), tag)
					}
				}
			}
			if !found {
				t.Errorf("%s has no public field of its name and is not on the notPublic list", key)
			}
		}
	}
}

func fields(t reflect.Type) func(func(reflect.StructField) bool) {
	return func(yield func(reflect.StructField) bool) {
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() {
				if !yield(f) {
					return
				}
			}
		}
	}
}
