package resource

import (
	"context"
	"time"

	"github.com/fibegg/fibe/internal/client"
)

// ops binds a resource's verbs to the client's typed services. A verb the
// resource does not serve is nil. Items are pointers to the client's types
// (*client.Playground); lists are slices of them by value.
type ops struct {
	list    func(ctx context.Context, c *client.Client, lo client.ListOptions) (any, *client.ListMeta, error)
	listAll func(ctx context.Context, c *client.Client, lo client.ListOptions) (any, error)
	get     func(ctx context.Context, c *client.Client, ref string) (any, *client.Response, error)
	create  func(ctx context.Context, c *client.Client, body map[string]any, mo client.MutationOptions, wo client.WaitOptions) (any, *client.Response, error)
	update  func(ctx context.Context, c *client.Client, ref string, body map[string]any, mo client.MutationOptions, wo client.WaitOptions) (any, *client.Response, error)
	delete  func(ctx context.Context, c *client.Client, ref string, mo client.MutationOptions, wo client.WaitOptions) (*client.Response, error)
	action  func(ctx context.Context, c *client.Client, ref string, a Action, force bool, mo client.MutationOptions, wo client.WaitOptions) (any, *client.Response, error)
	// waitFor waits until the item named name has status (CreateWaitsFor).
	waitFor func(ctx context.Context, c *client.Client, name, status string, wo client.WaitOptions) (any, error)
	// nameOf is the name of an item, to wait on it after a create.
	nameOf func(item any) (name, status string)
}

// nilIfNone turns a typed nil pointer into a nil interface, so that a door
// can tell "no item" (a 202 handle not waited on) with item == nil.
func nilIfNone[T any](p *T) any {
	if p == nil {
		return nil
	}
	return p
}

// List returns one page of items (a slice of the client's type).
func (r *Resource) List(ctx context.Context, c *client.Client, lo client.ListOptions) (any, *client.ListMeta, error) {
	return r.ops.list(ctx, c, lo)
}

// ListAll returns every item, page after page.
func (r *Resource) ListAll(ctx context.Context, c *client.Client, lo client.ListOptions) (any, error) {
	return r.ops.listAll(ctx, c, lo)
}

// Get returns one item by id or name.
func (r *Resource) Get(ctx context.Context, c *client.Client, ref string) (any, *client.Response, error) {
	return r.ops.get(ctx, c, ref)
}

// Create creates an item from body (the verb's Body). When the resource
// says a create waits (CreateWaitsFor) and wo does not say NoWait, it then
// waits until the item has that status, within one wo.Timeout for both:
// a create means the same on every door. The item is nil when the answer
// was a 202 not waited on (resp.Accepted is the handle).
//
// While it waits, the create stays in the outcome journal: a run cut off
// during the wait and started again replays the create (it is not sent
// twice) and waits on.
func (r *Resource) Create(ctx context.Context, c *client.Client, body map[string]any, mo client.MutationOptions, wo client.WaitOptions) (any, *client.Response, error) {
	waits := r.CreateWaitsFor != "" && !wo.NoWait && r.ops.waitFor != nil
	began := time.Now()
	mo.KeepJournaled = waits
	item, resp, err := r.ops.create(ctx, c, body, mo, wo)
	if !waits {
		return item, resp, err
	}
	// Once the wait has ended, the entry (a minted key's, or a given key's,
	// which is journaled too) has nothing left to resume.
	forget := func() {
		if resp != nil {
			c.ForgetJournaled(resp.IdempotencyKey)
		}
	}
	if err != nil || item == nil {
		return item, resp, err
	}
	name, status := r.ops.nameOf(item)
	if status == r.CreateWaitsFor {
		forget()
		return item, resp, nil
	}
	if wo.Timeout > 0 {
		wo.Timeout = max(wo.Timeout-time.Since(began), time.Millisecond)
	}
	now, err := r.ops.waitFor(ctx, c, name, r.CreateWaitsFor, wo)
	if err != nil {
		if !client.IsAsyncTimeout(err) && !client.IsCancelled(err) {
			forget() // the wait ended: nothing is left to resume
		}
		return nil, resp, err
	}
	forget()
	return now, resp, nil
}

// Update changes an item; a 202 is waited on as wo says.
func (r *Resource) Update(ctx context.Context, c *client.Client, ref string, body map[string]any, mo client.MutationOptions, wo client.WaitOptions) (any, *client.Response, error) {
	return r.ops.update(ctx, c, ref, body, mo, wo)
}

// Delete deletes an item; a 202 is waited on as wo says.
func (r *Resource) Delete(ctx context.Context, c *client.Client, ref string, mo client.MutationOptions, wo client.WaitOptions) (*client.Response, error) {
	return r.ops.delete(ctx, c, ref, mo, wo)
}

// Run runs action a on the item ref and returns its result (nil when a
// 202 was not waited on).
func (r *Resource) Run(ctx context.Context, c *client.Client, ref string, a Action, force bool, mo client.MutationOptions, wo client.WaitOptions) (any, *client.Response, error) {
	return r.ops.action(ctx, c, ref, a, force, mo, wo)
}
