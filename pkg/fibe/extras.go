package fibe

import (
	"context"
	"slices"
	"strings"

	"github.com/fibegg/fibe/internal/client"
)

// PlaygroundCompose is a playground's compose file as the platform
// rendered it; ComposeYAML is empty until it has been rendered.
type PlaygroundCompose struct {
	ComposeYAML    string `json:"compose_yaml"`
	ComposeProject string `json:"compose_project"`
}

// EnvMetadata is a playground's environment: Merged is every variable its
// services get, SystemKeys those the platform sets itself (an override
// cannot change them), Metadata what the platform says about each. None
// of them is nil.
type EnvMetadata struct {
	Merged     map[string]string `json:"merged"`
	Metadata   map[string]any    `json:"metadata"`
	SystemKeys []string          `json:"system_keys"`
}

// DebugOptions select a playground's diagnostics. The zero value is the
// server's summary.
type DebugOptions struct {
	Mode     string // "summary" or "full"; "" → summary
	Service  string // one service only
	LogsTail int    // log lines; 0 → the server's default
	// Refresh asks the marquee for live diagnostics: an operation,
	// waited on unless NoWait.
	Refresh bool
}

// AutoconnectTokenParams describe the server an autoconnect token is for;
// every field is optional. DNSCredentials are secrets, sent and never
// shown.
type AutoconnectTokenParams struct {
	Email          string            `json:"email,omitempty"`
	Domain         string            `json:"domain,omitempty"`
	IP             string            `json:"ip,omitempty"`
	SSLMode        string            `json:"ssl_mode,omitempty"` // none, letsencrypt or custom
	DNSProvider    string            `json:"dns_provider,omitempty"`
	DNSCredentials map[string]string `json:"dns_credentials,omitempty"`
}

// AutoconnectToken is a one-time token a new server uses to connect
// itself as a marquee. It is a secret: keep it out of logs.
type AutoconnectToken struct {
	Token string `json:"token"`
}

// Compose returns the compose file the platform rendered for a
// playground (empty ComposeYAML until it has).
func (s *PlaygroundsService) Compose(ctx context.Context, ref string) (*PlaygroundCompose, *Response, error) {
	return getOne[PlaygroundCompose](ctx, s.c, ref, s.c.c.Playgrounds.Compose)
}

// EnvMetadata returns the environment a playground's services get.
func (s *PlaygroundsService) EnvMetadata(ctx context.Context, ref string) (*EnvMetadata, *Response, error) {
	return getOne[EnvMetadata](ctx, s.c, ref, s.c.c.Playgrounds.EnvMetadata)
}

// Debug returns a playground's diagnostics, a free-form report (its
// "playground" and "startup" keys are the ones people read). With
// o.Refresh the server answers 202 and the operation is waited on unless
// NoWait; the report is then nil and Response.Operation() is its handle.
func (s *PlaygroundsService) Debug(ctx context.Context, ref string, o *DebugOptions, opts ...CallOption) (map[string]any, *Response, error) {
	if err := s.c.read(ctx, ref); err != nil {
		return nil, nil, err
	}
	co, err := callOpts(opts)
	if err != nil {
		return nil, nil, err
	}
	var do DebugOptions
	if o != nil {
		do = *o
	}
	if do.Mode != "" && !slices.Contains(client.DebugModes, do.Mode) {
		return nil, nil, invalidArgument("mode", "must be "+strings.Join(client.DebugModes, " or "))
	}
	if do.LogsTail < 0 {
		return nil, nil, invalidArgument("logs_tail", "is negative")
	}
	report, meta, err := s.c.c.Playgrounds.Debug(ctx, ref,
		client.DebugOptions{Mode: do.Mode, Service: do.Service, LogsTail: do.LogsTail, Refresh: do.Refresh}, co.wait())
	if err != nil {
		return nil, responseOf(meta), fromClient(err)
	}
	return report, newResponse(meta), nil
}

// AutoconnectToken mints a token a new server uses to connect itself as a
// marquee. A retry of the call carries the same Idempotency-Key and gets
// the same token; a new call mints a new one.
func (s *MarqueesService) AutoconnectToken(ctx context.Context, p *AutoconnectTokenParams, opts ...CallOption) (*AutoconnectToken, *Response, error) {
	_, mo, err := s.c.mutation(ctx, opts)
	if err != nil {
		return nil, nil, err
	}
	var req client.AutoconnectRequest
	if p != nil {
		req = client.AutoconnectRequest{Email: p.Email, Domain: p.Domain, IP: p.IP, SSLMode: p.SSLMode,
			DNSProvider: p.DNSProvider, DNSCredentials: p.DNSCredentials}
	}
	tok, meta, err := s.c.c.Marquees.AutoconnectToken(ctx, req, mo)
	return result[AutoconnectToken](tok, meta, err)
}
