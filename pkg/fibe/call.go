package fibe

import (
	"context"
	"time"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/reliability"
)

// CallOption adjusts one call. A call ignores the options it has no use for.
type CallOption func(*callOptions)

type callOptions struct {
	noWait       bool
	waitTimeout  time.Duration
	pollInterval time.Duration
	force        bool
	bad          *Error
}

// NoWait returns a 202 at once: the result is nil and Response.Operation
// is the handle (Operations.Wait finishes it).
func NoWait() CallOption { return func(o *callOptions) { o.noWait = true } }

// WaitTimeout replaces Policy.PollTimeout for this call.
func WaitTimeout(d time.Duration) CallOption {
	return func(o *callOptions) {
		if d < 0 && o.bad == nil {
			o.bad = invalidArgument("wait_timeout", "is negative")
		}
		o.waitTimeout = d
	}
}

// PollInterval replaces Policy.PollInterval for this call.
func PollInterval(d time.Duration) CallOption {
	return func(o *callOptions) {
		if d < 0 && o.bad == nil {
			o.bad = invalidArgument("poll_interval", "is negative")
		}
		o.pollInterval = d
	}
}

// Force sends "force": true with a playground action.
func Force() CallOption { return func(o *callOptions) { o.force = true } }

func callOpts(opts []CallOption) (*callOptions, error) {
	o := &callOptions{}
	for _, opt := range opts {
		if opt != nil {
			opt(o)
		}
	}
	if o.bad != nil {
		return nil, o.bad
	}
	return o, nil
}

func (o *callOptions) wait() client.WaitOptions {
	return client.WaitOptions{NoWait: o.noWait, Timeout: o.waitTimeout, PollInterval: o.pollInterval}
}

// NewIdempotencyKey returns a new idempotency key: 16 bytes from
// crypto/rand as 32 lowercase hex characters.
func NewIdempotencyKey() string { return reliability.NewIdempotencyKey() }

type keyContext struct{}

// WithIdempotencyKey binds key to every mutation made with the returned
// context: it is sent as the Idempotency-Key, wins over the journal, and a
// mutation sent again with it is answered by the server's replay. A key is
// 1 to 255 printable ASCII characters without spaces; another is refused
// by the call (INVALID_ARGUMENT, Details["field"] "idempotency_key") before
// anything is sent.
func WithIdempotencyKey(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, keyContext{}, key)
}

// mutation is the begin of a mutation: the call's options and the key
// bound to ctx, checked.
func (c *Client) mutation(ctx context.Context, opts []CallOption) (*callOptions, client.MutationOptions, error) {
	if err := c.begin(ctx); err != nil {
		return nil, client.MutationOptions{}, err
	}
	o, err := callOpts(opts)
	if err != nil {
		return nil, client.MutationOptions{}, err
	}
	var mo client.MutationOptions
	if key, ok := ctx.Value(keyContext{}).(string); ok {
		if err := reliability.ValidateIdempotencyKey(key); err != nil {
			return nil, mo, invalidArgument("idempotency_key", err.Error())
		}
		mo.IdempotencyKey = key
	}
	return o, mo, nil
}

// read is the begin of a read.
func (c *Client) read(ctx context.Context, ref string) error {
	if err := c.begin(ctx); err != nil {
		return err
	}
	return checkRef("ref", ref)
}

func checkRef(field, ref string) error {
	if ref == "" {
		return invalidArgument(field, "is empty")
	}
	return nil
}

// onRef is the begin of a mutation of the item ref: the call's options and
// the key bound to ctx, checked, and ref not empty.
func (c *Client) onRef(ctx context.Context, ref string, opts []CallOption) (*callOptions, client.MutationOptions, error) {
	o, mo, err := c.mutation(ctx, opts)
	if err == nil {
		err = checkRef("ref", ref)
	}
	return o, mo, err
}

// paramsBody is the request body of a create's or an update's params,
// built by the resource's description; nil params are refused.
func paramsBody[P any, PP interface {
	*P
	body() (map[string]any, error)
}](p PP) (map[string]any, error) {
	if p == nil {
		return nil, invalidArgument("params", "is nil")
	}
	body, err := p.body()
	if err != nil {
		return nil, inputError(err)
	}
	return body, nil
}

// The plain calls of a service, said once: each checks the context and its
// input the way every call does (read, mutation, onRef, paramsBody), makes
// one call of the engine's service and converts what came back. A service
// whose call does more writes it out.

// getOne is a read of the item ref.
func getOne[T, S any](ctx context.Context, c *Client, ref string,
	get func(context.Context, string) (*S, *client.Response, error)) (*T, *Response, error) {
	if err := c.read(ctx, ref); err != nil {
		return nil, nil, err
	}
	item, meta, err := get(ctx, ref)
	return result[T](item, meta, err)
}

// fetchOne is a read of something that has no ref (the account's status,
// the key's user).
func fetchOne[T, S any](ctx context.Context, c *Client,
	get func(context.Context) (*S, *client.Response, error)) (*T, *Response, error) {
	if err := c.begin(ctx); err != nil {
		return nil, nil, err
	}
	item, meta, err := get(ctx)
	return result[T](item, meta, err)
}

// createOne creates an item of params p; a 202 is waited on unless NoWait.
func createOne[T, S, P any, PP interface {
	*P
	body() (map[string]any, error)
}](ctx context.Context, c *Client, p PP, opts []CallOption,
	create func(context.Context, map[string]any, client.MutationOptions, client.WaitOptions) (*S, *client.Response, error)) (*T, *Response, error) {
	o, mo, err := c.mutation(ctx, opts)
	if err != nil {
		return nil, nil, err
	}
	body, err := paramsBody(p)
	if err != nil {
		return nil, nil, err
	}
	item, meta, err := create(ctx, body, mo, o.wait())
	return result[T](item, meta, err)
}

// updateOne changes the item ref by params p; a 202 is waited on unless
// NoWait.
func updateOne[T, S, P any, PP interface {
	*P
	body() (map[string]any, error)
}](ctx context.Context, c *Client, ref string, p PP, opts []CallOption,
	update func(context.Context, string, map[string]any, client.MutationOptions, client.WaitOptions) (*S, *client.Response, error)) (*T, *Response, error) {
	o, mo, err := c.onRef(ctx, ref, opts)
	if err != nil {
		return nil, nil, err
	}
	body, err := paramsBody(p)
	if err != nil {
		return nil, nil, err
	}
	item, meta, err := update(ctx, ref, body, mo, o.wait())
	return result[T](item, meta, err)
}

// deleteOne deletes the item ref; a 202 is waited on unless NoWait.
func deleteOne(ctx context.Context, c *Client, ref string, opts []CallOption,
	del func(context.Context, string, client.MutationOptions, client.WaitOptions) (*client.Response, error)) (*Response, error) {
	o, mo, err := c.onRef(ctx, ref, opts)
	if err != nil {
		return nil, err
	}
	meta, err := del(ctx, ref, mo, o.wait())
	if err != nil {
		return responseOf(meta), fromClient(err)
	}
	return newResponse(meta), nil
}

// actOn is a mutation of the item ref that takes no body and answers with
// a T; a 202 is waited on unless NoWait.
func actOn[T, S any](ctx context.Context, c *Client, ref string, opts []CallOption,
	act func(context.Context, string, client.MutationOptions, client.WaitOptions) (*S, *client.Response, error)) (*T, *Response, error) {
	o, mo, err := c.onRef(ctx, ref, opts)
	if err != nil {
		return nil, nil, err
	}
	item, meta, err := act(ctx, ref, mo, o.wait())
	return result[T](item, meta, err)
}

// actNow is actOn for a route the platform answers at once (never 202).
func actNow[T, S any](ctx context.Context, c *Client, ref string, opts []CallOption,
	act func(context.Context, string, client.MutationOptions) (*S, *client.Response, error)) (*T, *Response, error) {
	return actOn[T](ctx, c, ref, opts, func(ctx context.Context, ref string, mo client.MutationOptions, _ client.WaitOptions) (*S, *client.Response, error) {
		return act(ctx, ref, mo)
	})
}
