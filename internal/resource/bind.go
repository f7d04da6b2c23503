package resource

import (
	"context"

	"github.com/fibegg/fibe/internal/client"
)

// reader is a client service that lists and reads items of type T.
type reader[T any] interface {
	List(ctx context.Context, o client.ListOptions) ([]T, *client.ListMeta, error)
	ListAll(ctx context.Context, o client.ListOptions) ([]T, error)
	Get(ctx context.Context, ref string) (*T, *client.Response, error)
}

// writer is a client service that also creates, changes and deletes them.
type writer[T any] interface {
	reader[T]
	Create(ctx context.Context, body map[string]any, mo client.MutationOptions, wo client.WaitOptions) (*T, *client.Response, error)
	UpdateWait(ctx context.Context, ref string, body map[string]any, mo client.MutationOptions, wo client.WaitOptions) (*T, *client.Response, error)
	Delete(ctx context.Context, ref string, mo client.MutationOptions, wo client.WaitOptions) (*client.Response, error)
}

// readOps binds list and get to the service svc picks from a client.
func readOps[T any, S reader[T]](svc func(*client.Client) S) ops {
	return ops{
		list: func(ctx context.Context, c *client.Client, lo client.ListOptions) (any, *client.ListMeta, error) {
			return svc(c).List(ctx, lo)
		},
		listAll: func(ctx context.Context, c *client.Client, lo client.ListOptions) (any, error) {
			return svc(c).ListAll(ctx, lo)
		},
		get: func(ctx context.Context, c *client.Client, ref string) (any, *client.Response, error) {
			item, resp, err := svc(c).Get(ctx, ref)
			return nilIfNone(item), resp, err
		},
	}
}

// writeOps binds every generic verb to the service svc picks; a resource
// adds its actions and waits to what it returns.
func writeOps[T any, S writer[T]](svc func(*client.Client) S) ops {
	o := readOps[T](svc)
	o.create = func(ctx context.Context, c *client.Client, body map[string]any, mo client.MutationOptions, wo client.WaitOptions) (any, *client.Response, error) {
		item, resp, err := svc(c).Create(ctx, body, mo, wo)
		return nilIfNone(item), resp, err
	}
	o.update = func(ctx context.Context, c *client.Client, ref string, body map[string]any, mo client.MutationOptions, wo client.WaitOptions) (any, *client.Response, error) {
		item, resp, err := svc(c).UpdateWait(ctx, ref, body, mo, wo)
		return nilIfNone(item), resp, err
	}
	o.delete = func(ctx context.Context, c *client.Client, ref string, mo client.MutationOptions, wo client.WaitOptions) (*client.Response, error) {
		return svc(c).Delete(ctx, ref, mo, wo)
	}
	return o
}
