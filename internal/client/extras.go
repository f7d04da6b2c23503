package client

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// The playground and marquee extras (docs/api.md, "Playground extras" and
// "Marquee extras"): a playground's rendered compose file, its environment
// as its services see it, its diagnostics, and a marquee autoconnect token.

// PlaygroundCompose is a playground's compose file as the platform
// rendered it; ComposeYAML is empty until it has been rendered.
type PlaygroundCompose struct {
	ComposeYAML    string `json:"compose_yaml"`
	ComposeProject string `json:"compose_project"`
}

// EnvMetadata is a playground's environment: Merged is every variable its
// services get, SystemKeys the ones the platform sets (an override cannot
// change them), Metadata what the platform says about each.
type EnvMetadata struct {
	Merged     map[string]string `json:"merged"`
	Metadata   map[string]any    `json:"metadata"`
	SystemKeys []string          `json:"system_keys"`
}

// DebugOptions are the query of a playground's diagnostics.
type DebugOptions struct {
	Mode     string // "summary" (the server's default) or "full"
	Service  string // one service's diagnostics
	LogsTail int    // log lines per service; 0 → the server's default
	// Refresh asks the marquee for live diagnostics: the server answers
	// 202 and the result is waited on like any operation.
	Refresh bool
}

// DebugModes are the values of DebugOptions.Mode.
var DebugModes = []string{"summary", "full"}

// query is the debug query string, validated: nothing is sent for a bad
// mode or a negative tail.
func (o DebugOptions) query() (string, error) {
	q := url.Values{}
	switch o.Mode {
	case "":
	case DebugModes[0], DebugModes[1]:
		q.Set("mode", o.Mode)
	default:
		return "", InvalidArgument("mode", "must be summary or full, not %q", o.Mode)
	}
	if o.Service != "" {
		q.Set("service", o.Service)
	}
	if o.LogsTail < 0 {
		return "", InvalidArgument("logs_tail", "must not be negative")
	}
	if o.LogsTail > 0 {
		q.Set("logs_tail", strconv.Itoa(o.LogsTail))
	}
	if o.Refresh {
		q.Set("refresh", "true")
	}
	if len(q) == 0 {
		return "", nil
	}
	return "?" + q.Encode(), nil
}

// AutoconnectRequest is the body of an autoconnect token request; every
// field is optional. DNSCredentials are secrets: they are sent, never
// printed.
type AutoconnectRequest struct {
	Email          string            `json:"email,omitempty"`
	Domain         string            `json:"domain,omitempty"`
	IP             string            `json:"ip,omitempty"`
	SSLMode        string            `json:"ssl_mode,omitempty"`
	DNSProvider    string            `json:"dns_provider,omitempty"`
	DNSCredentials map[string]string `json:"dns_credentials,omitempty"`
}

// SSLModes are the values of AutoconnectRequest.SSLMode.
var SSLModes = []string{"none", "letsencrypt", "custom"}

// Check refuses, before anything is sent, what the server would refuse:
// INVALID_ARGUMENT naming the field. A credential's value is never in the
// message.
func (r AutoconnectRequest) Check() error {
	switch {
	case r.Email != "" && (!strings.Contains(r.Email, "@") || strings.ContainsAny(r.Email, " \t")):
		return InvalidArgument("email", "email %q is not an email address", r.Email)
	case r.Domain != "" && (strings.ContainsAny(r.Domain, " /@:") || !strings.Contains(r.Domain, ".")):
		return InvalidArgument("domain", "domain %q is not a domain name", r.Domain)
	case r.IP != "" && net.ParseIP(r.IP) == nil:
		return InvalidArgument("ip", "ip %q is not an IP address", r.IP)
	case r.SSLMode != "" && !slices.Contains(SSLModes, r.SSLMode):
		return InvalidArgument("ssl_mode", "ssl_mode must be one of %s, not %q", strings.Join(SSLModes, ", "), r.SSLMode)
	case len(r.DNSCredentials) > 0 && r.DNSProvider == "":
		return InvalidArgument("dns_provider", "dns_credentials need a dns_provider")
	}
	return nil
}

// AutoconnectToken is a one-time token a new server uses to connect itself
// as a marquee. It is a secret: shown once, never journaled.
type AutoconnectToken struct {
	Token string `json:"token"`
}

// Compose reads a playground's rendered compose file.
func (s *PlaygroundsService) Compose(ctx context.Context, ref string) (*PlaygroundCompose, *Response, error) {
	var out PlaygroundCompose
	meta, err := s.c.call(ctx, &request{method: http.MethodGet, ref: refPath(playgroundsPath, ref) + "/compose",
		resource: s.c.cachedPlaygroundResource(ref)}, &out)
	if err != nil {
		return nil, meta, err
	}
	return &out, meta, nil
}

// EnvMetadata reads a playground's environment. The maps and the list
// are never nil, whatever the server sent.
func (s *PlaygroundsService) EnvMetadata(ctx context.Context, ref string) (*EnvMetadata, *Response, error) {
	var out EnvMetadata
	meta, err := s.c.call(ctx, &request{method: http.MethodGet, ref: refPath(playgroundsPath, ref) + "/env_metadata",
		resource: s.c.cachedPlaygroundResource(ref)}, &out)
	if err != nil {
		return nil, meta, err
	}
	if out.Merged == nil {
		out.Merged = map[string]string{}
	}
	if out.Metadata == nil {
		out.Metadata = map[string]any{}
	}
	if out.SystemKeys == nil {
		out.SystemKeys = []string{}
	}
	return &out, meta, nil
}

// Debug reads a playground's diagnostics, a free-form object (the CLI
// reads its "playground" and "startup"). It is a GET that may answer 202
// (with Refresh): the operation is then waited on as wo says, and with
// wo.NoWait the report is nil and Response.Accepted is set.
func (s *PlaygroundsService) Debug(ctx context.Context, ref string, o DebugOptions, wo WaitOptions) (map[string]any, *Response, error) {
	q, err := o.query()
	if err != nil {
		return nil, nil, err
	}
	r := &request{method: http.MethodGet, ref: refPath(playgroundsPath, ref) + "/debug" + q,
		resource: s.c.cachedPlaygroundResource(ref)}
	resp, err := s.c.do(ctx, r)
	if err != nil {
		return nil, nil, err
	}
	var out map[string]any
	if resp.status != http.StatusAccepted {
		if err := decode(resp, &out); err != nil {
			return nil, resp.meta, err
		}
		return out, resp.meta, nil
	}
	h, err := accepted(resp)
	if err != nil {
		return nil, resp.meta, err
	}
	c := s.c
	c.trace.printf("accepted: request %s (%s)", oneLine(h.RequestID), oneLine(h.Status))
	c.emit(Event{Kind: EventAccepted, Method: http.MethodGet, URL: r.ref, RequestID: h.RequestID, Status: h.Status, Resource: r.resource})
	if wo.NoWait {
		return nil, resp.meta, nil
	}
	result, _, err := c.waitAsync(ctx, h, "", r.resource, wo, nil)
	if err != nil {
		return nil, resp.meta, err
	}
	if err := json.Unmarshal(result, &out); err != nil || out == nil {
		if err == nil {
			err = errors.New("the result is not a JSON object")
		}
		return nil, resp.meta, &Error{Code: CodeInvalidResponse, Message: "async result is not the expected JSON: " + oneLine(err.Error()),
			Async: true, Err: err, AsyncRequestID: h.RequestID, RequestID: h.RequestID,
			Details: map[string]any{"async_request_id": h.RequestID}}
	}
	return out, resp.meta, nil
}

// AutoconnectToken mints a marquee autoconnect token. Each call mints a
// new one; a retry carries the same Idempotency-Key and gets the same
// token back.
func (s *MarqueesService) AutoconnectToken(ctx context.Context, body AutoconnectRequest, mo MutationOptions) (*AutoconnectToken, *Response, error) {
	if err := body.Check(); err != nil {
		return nil, nil, err
	}
	var out AutoconnectToken
	meta, err := s.c.mutate(ctx, mutation{method: http.MethodPost, path: "/api/autoconnect_tokens",
		body: body, resource: s.c.HostResource(), mo: mo}, &out)
	if err != nil {
		return nil, meta, err
	}
	if out.Token == "" {
		return nil, meta, &Error{Code: CodeInvalidResponse, Message: "the answer carries no token"}
	}
	return &out, meta, nil
}
