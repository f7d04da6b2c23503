package mcpserver

import (
	"context"

	"github.com/fibegg/fibe/internal/client"
)

// ---- webhooks beyond the generic verbs: test deliveries, the delivery
// history and the event types.

type webhookTestIn struct {
	Webhook string `json:"webhook" jsonschema:"The endpoint's id"`
	mutationArgs
	waitArgs
}

func (in webhookTestIn) validate() error { return nonBlank("webhook", in.Webhook) }

func webhookTest() *Tool {
	return define(spec{name: "fibe_webhooks_test", title: "Send a test delivery to a webhook endpoint", ungated: true,
		desc: "Queue a webhook.test delivery to an endpoint (even one not subscribed to webhook.test, even a disabled one) " +
			"and return it, pending: it is posted after the answer; follow it with fibe_webhooks_deliveries. " +
			"Same as `fibe webhooks test --json`.",
		output: orHandle(schemaOf[client.WebhookDelivery]())},
		func(ctx context.Context, c *call, in *webhookTestIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			d, resp, err := cl.Webhooks.Test(ctx, in.Webhook, in.mutationArgs.options(), in.waitArgs.options(c))
			c.resp = resp
			if err != nil {
				return nil, err
			}
			if d == nil {
				return resp.Accepted, nil
			}
			return d, nil
		})
}

type webhookDeliveriesIn struct {
	Webhook string `json:"webhook" jsonschema:"The endpoint's id"`
	Status  string `json:"status,omitempty" jsonschema:"Only deliveries with this status: pending, delivered or failed"`
	Page    int    `json:"page,omitempty" jsonschema:"Page (default 1)"`
	PerPage int    `json:"per_page,omitempty" jsonschema:"Deliveries per page (default 25, at most 100)"`
}

func (in webhookDeliveriesIn) validate() error {
	if err := nonBlank("webhook", in.Webhook); err != nil {
		return err
	}
	switch in.Status {
	case "", "pending", "delivered", "failed":
		return nil
	}
	return invalidArgument("status", "status must be pending, delivered or failed, not %q", in.Status)
}

func webhookDeliveries() *Tool {
	return define(spec{name: "fibe_webhooks_deliveries", title: "List a webhook endpoint's deliveries", readOnly: true,
		desc: "An endpoint's deliveries, newest first: {\"items\": [{id, event_type, status (pending, delivered, failed), " +
			"response_code, attempt, delivered_at, created_at}], page, per_page, total}. A failing receiver is tried 4 times " +
			"(after 1 s, 4 s, 16 s) before the delivery is failed. Same as `fibe webhooks deliveries --json`.",
		output: listSchema[client.WebhookDelivery]()},
		func(ctx context.Context, c *call, in *webhookDeliveriesIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			ds, meta, err := cl.Webhooks.Deliveries(ctx, in.Webhook, client.ListOptions{Status: in.Status, Page: in.Page, PerPage: in.PerPage})
			if err != nil {
				return nil, err
			}
			return listPage[client.WebhookDelivery]{Items: ds, Page: &meta.Page, PerPage: &meta.PerPage, Total: &meta.Total}, nil
		})
}

func webhookEventTypes() *Tool {
	return define(spec{name: "fibe_webhooks_event_types", title: "List the webhook event types", readOnly: true,
		desc:   "The events a webhook endpoint may subscribe to: {\"items\": [\"playground.created\", ...]}. Same as `fibe webhooks event-types --json`.",
		output: listSchema[string]()},
		func(ctx context.Context, c *call, _ *noArgs) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			types, _, err := cl.Webhooks.EventTypes(ctx)
			if err != nil {
				return nil, err
			}
			return listPage[string]{Items: types, Total: ptr(len(types))}, nil
		})
}
