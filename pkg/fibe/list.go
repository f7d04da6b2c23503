package fibe

import (
	"context"
	"iter"
	"time"

	"github.com/fibegg/fibe/internal/client"
)

// maxPages bounds All against a server whose pages never end.
const maxPages = 1000

func (o ListOptions) engine() client.ListOptions {
	lo := client.ListOptions{Page: o.Page, PerPage: o.PerPage, Status: o.Status, Name: o.Name, Q: o.Search, Sort: o.Sort}
	if !o.CreatedAfter.IsZero() {
		lo.CreatedAfter = o.CreatedAfter.Format(time.RFC3339)
	}
	if !o.CreatedBefore.IsZero() {
		lo.CreatedBefore = o.CreatedBefore.Format(time.RFC3339)
	}
	return lo
}

func checkPage(o ListOptions) error {
	if o.Page < 0 {
		return invalidArgument("page", "is negative")
	}
	if o.PerPage < 0 {
		return invalidArgument("per_page", "is negative")
	}
	return nil
}

// listPage runs one page of a list and converts it.
func listPage[T, S any](ctx context.Context, c *Client, o ListOptions,
	page func(context.Context, client.ListOptions) ([]S, *client.ListMeta, error), lo client.ListOptions) ([]*T, *Response, error) {
	if err := c.begin(ctx); err != nil {
		return nil, nil, err
	}
	if err := checkPage(o); err != nil {
		return nil, nil, err
	}
	items, meta, err := page(ctx, lo)
	if err != nil {
		return nil, nil, fromClient(err)
	}
	out, err := convertAll[T](items)
	if err != nil {
		return nil, nil, err
	}
	resp := newResponse(nil)
	if meta != nil {
		resp.page = ListMeta(*meta)
	}
	return out, resp, nil
}

// all iterates over every item from o.Page (1) on, PerPage (100) at a
// time, fetching a page only when the previous one is used up.
func all[T any](ctx context.Context, o ListOptions, page func(context.Context, ListOptions) ([]*T, *Response, error)) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		if o.Page <= 0 {
			o.Page = 1
		}
		if o.PerPage <= 0 {
			o.PerPage = 100
		}
		seen := 0
		for range maxPages {
			items, resp, err := page(ctx, o)
			if err != nil {
				yield(nil, err)
				return
			}
			for _, it := range items {
				if !yield(it, nil) {
					return
				}
			}
			seen += len(items)
			total := resp.Page().Total
			if len(items) == 0 || len(items) < o.PerPage || (total > 0 && seen >= total) {
				return
			}
			o.Page++
		}
	}
}

// listOptions is the common part of a service's list options; every
// options type embeds ListOptions, so it has this method.
func (o *ListOptions) listOptions() *ListOptions { return o }

// listing is a pointer to a service's list options.
type listing[O any] interface {
	*O
	listOptions() *ListOptions
}

// allOf is a service's All: o (nil: the zero options) is copied, never
// changed, and each page is a List of the copy with the page's
// ListOptions.
func allOf[T, O any, PO listing[O]](ctx context.Context, o PO, list func(context.Context, PO) ([]*T, *Response, error)) iter.Seq2[*T, error] {
	var opts O
	if o != nil {
		opts = *o
	}
	return all(ctx, *PO(&opts).listOptions(), func(ctx context.Context, lo ListOptions) ([]*T, *Response, error) {
		page := opts
		*PO(&page).listOptions() = lo
		return list(ctx, &page)
	})
}
