package localapi

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Webhooks (docs/api.md, "Webhooks"): a player's endpoints, the event
// types they may subscribe to, and their deliveries. Every event a
// mutation emits (events.go) is queued as a pending delivery for each
// enabled endpoint of the player subscribed to it; the sender
// (webhooks_send.go) posts it, signed, outside the state lock, and records
// each attempt here.

// webhookState is the players' webhook endpoints and their deliveries.
type webhookState struct {
	WebhookEndpoints  []*webhookEndpoint `json:"webhook_endpoints"`
	WebhookDeliveries []*webhookDelivery `json:"webhook_deliveries"`
	// pendingEvents are noted by settle and flushed by the same request
	// (auditlogs.go); never saved.
	pendingEvents []worldEvent
}

// webhookEndpoint is one receiver. Secret is kept (the emulator signs
// with it) and shown only in the answer that set it.
type webhookEndpoint struct {
	ID              int64               `json:"id"`
	Owner           int64               `json:"owner"`
	URL             string              `json:"url"`
	Events          []string            `json:"events"`
	EventFilters    map[string]any      `json:"event_filters,omitempty"`
	ToolFilters     map[string][]string `json:"tool_filters,omitempty"`
	Description     string              `json:"description,omitempty"`
	Enabled         bool                `json:"enabled"`
	Secret          string              `json:"secret"`
	FailureCount    int                 `json:"failure_count"`
	LastTriggeredAt *time.Time          `json:"last_triggered_at,omitempty"`
	CreatedAt       time.Time           `json:"created_at"`
	UpdatedAt       time.Time           `json:"updated_at"`
}

func (e *webhookEndpoint) identity() (int64, string) { return e.ID, "" }
func (e *webhookEndpoint) owner() int64              { return e.Owner }

// The statuses of a delivery.
const (
	deliveryPending   = "pending"
	deliveryDelivered = "delivered"
	deliveryFailed    = "failed"
)

var deliveryStatuses = []string{deliveryPending, deliveryDelivered, deliveryFailed}

// webhookDelivery is one event on its way to one endpoint. Body is the
// exact payload every attempt sends; Key its X-Idempotency-Key, the same
// on every attempt.
type webhookDelivery struct {
	ID           int64             `json:"id"`
	Owner        int64             `json:"owner"`
	Endpoint     int64             `json:"endpoint_id"`
	EventType    string            `json:"event_type"`
	Status       string            `json:"status"`
	ResponseCode *int              `json:"response_code"`
	Attempt      int               `json:"attempt"`
	Error        string            `json:"error,omitempty"`
	Body         string            `json:"body"`
	Key          string            `json:"key"`
	NextAt       time.Time         `json:"next_at"`
	LeaseUntil   time.Time         `json:"lease_until"` // a sender is posting it until then
	Attempts     []deliveryAttempt `json:"attempts"`
	DeliveredAt  *time.Time        `json:"delivered_at,omitempty"`
	CreatedAt    time.Time         `json:"created_at"`
}

// deliveryAttempt is one request of a delivery.
type deliveryAttempt struct {
	At           time.Time `json:"at"`
	ResponseCode *int      `json:"response_code"`
	Error        string    `json:"error,omitempty"`
}

// webhookEventTypes are the events an endpoint may subscribe to.
var webhookEventTypes = []string{
	"playground.created", "playground.updated", "playground.destroyed",
	"playground.player.created", "playground.player.deleted", "playground.player.recreated",
	"playground.player.extended", "playground.player.retried", "playground.player.committed",
	"playground.status.changed", "playground.error",
	"playground.creation.started", "playground.creation.completed", "playground.creation.failed",
	"playground.recreated", "playground.recovered", "playground.completed",
	"playground.drift.detected", "playground.drift.recreated", "playground.drift.skipped_dirty",
	"playground.playguard.recovered", "playground.playguard.deleted", "playground.expired",
	"playground.expiration.extended", "playground.expiration.skipped_dirty",
	"playground.build_drift.detected",
	"marquee.created", "marquee.updated", "marquee.destroyed",
	"prop.created", "prop.updated", "prop.destroyed",
	"playspec.created", "playspec.updated", "playspec.destroyed",
	"agent.created", "agent.updated", "agent.destroyed", "agent.authenticated", "agent.revoked",
	"template.created", "template.updated", "template.destroyed",
	"artefact.created", "artefact.destroyed",
	"feedback.created", "feedback.updated", "feedback.destroyed",
	"mutter.created", "mutter.updated",
	"api_key.created", "api_key.destroyed",
	"secret.created", "secret.updated", "secret.destroyed",
	"webhook_endpoint.created", "webhook_endpoint.updated", "webhook_endpoint.destroyed",
	"webhook.test",
}

// minSecretLen is the shortest secret an endpoint accepts.
const minSecretLen = 16

// maxDeliveriesPerEndpoint bounds the history kept: the oldest finished
// deliveries of an endpoint are dropped beyond it.
const maxDeliveriesPerEndpoint = 200

func (s *Server) webhookRoutes(rt *router) {
	rt.add("GET", "/api/webhook_endpoints", "webhooks:read", s.listWebhookEndpoints)
	rt.add("POST", "/api/webhook_endpoints", "webhooks:write", s.createWebhookEndpoint)
	rt.add("GET", "/api/webhook_endpoints/{id}", "webhooks:read", s.getWebhookEndpoint)
	rt.add("PATCH", "/api/webhook_endpoints/{id}", "webhooks:write", s.updateWebhookEndpoint)
	rt.add("PUT", "/api/webhook_endpoints/{id}", "webhooks:write", s.updateWebhookEndpoint)
	rt.add("DELETE", "/api/webhook_endpoints/{id}", "webhooks:delete", s.deleteWebhookEndpoint)
	rt.add("POST", "/api/webhook_endpoints/{id}/test_deliveries", "webhooks:write", s.testWebhookEndpoint)
	rt.add("GET", "/api/webhook_endpoints/{id}/deliveries", "webhooks:read", s.listWebhookDeliveries)
	rt.add("GET", "/api/webhook_event_types", "webhooks:read", s.listWebhookEventTypes)
}

// webhookEndpointView is an endpoint as the API shows it; Secret only in
// the answer that set it.
type webhookEndpointView struct {
	ID              int64               `json:"id"`
	URL             string              `json:"url"`
	Events          []string            `json:"events"`
	EventFilters    map[string]any      `json:"event_filters"`
	ToolFilters     map[string][]string `json:"tool_filters"`
	Description     *string             `json:"description"`
	Enabled         bool                `json:"enabled"`
	FailureCount    int                 `json:"failure_count"`
	LastTriggeredAt *time.Time          `json:"last_triggered_at"`
	CreatedAt       time.Time           `json:"created_at"`
	UpdatedAt       time.Time           `json:"updated_at"`
	Secret          string              `json:"secret,omitempty"`
}

func (e *webhookEndpoint) view() webhookEndpointView {
	v := webhookEndpointView{
		ID: e.ID, URL: e.URL, Events: slices.Clone(e.Events), EventFilters: e.EventFilters, ToolFilters: e.ToolFilters,
		Enabled: e.Enabled, FailureCount: e.FailureCount, LastTriggeredAt: e.LastTriggeredAt,
		CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt,
	}
	if v.Events == nil {
		v.Events = []string{}
	}
	if v.EventFilters == nil {
		v.EventFilters = map[string]any{}
	}
	if v.ToolFilters == nil {
		v.ToolFilters = map[string][]string{}
	}
	if e.Description != "" {
		d := e.Description
		v.Description = &d
	}
	return v
}

// webhookDeliveryView is a delivery as the API shows it.
type webhookDeliveryView struct {
	ID           int64             `json:"id"`
	EndpointID   int64             `json:"webhook_endpoint_id"`
	EventType    string            `json:"event_type"`
	Status       string            `json:"status"`
	ResponseCode *int              `json:"response_code"`
	Attempt      int               `json:"attempt"`
	Error        *string           `json:"error"`
	NextRetryAt  *time.Time        `json:"next_retry_at"`
	DeliveredAt  *time.Time        `json:"delivered_at"`
	CreatedAt    time.Time         `json:"created_at"`
	Attempts     []deliveryAttempt `json:"attempts"`
}

func (d *webhookDelivery) view() webhookDeliveryView {
	v := webhookDeliveryView{
		ID: d.ID, EndpointID: d.Endpoint, EventType: d.EventType, Status: d.Status, ResponseCode: d.ResponseCode,
		Attempt: d.Attempt, DeliveredAt: d.DeliveredAt, CreatedAt: d.CreatedAt, Attempts: slices.Clone(d.Attempts),
	}
	if v.Attempts == nil {
		v.Attempts = []deliveryAttempt{}
	}
	if d.Error != "" {
		e := d.Error
		v.Error = &e
	}
	if d.Status == deliveryPending && d.Attempt > 0 {
		at := d.NextAt
		v.NextRetryAt = &at
	}
	return v
}

func (rc *reqCtx) pathWebhookEndpoint() (*webhookEndpoint, error) {
	e := findOwned(rc.st.WebhookEndpoints, rc.player, rc.param(0))
	if e == nil {
		return nil, notFound("webhook endpoint " + strconv.Quote(rc.param(0)))
	}
	return e, nil
}

func (s *Server) listWebhookEndpoints(rc *reqCtx) (*reply, error) {
	lq, err := parseListQuery(rc.c.query, listSpec{sorts: []string{"created_at", "updated_at", "url", "id"}})
	if err != nil {
		return nil, err
	}
	enabled, err := boolParam(rc.c.query, "enabled")
	if err != nil {
		return nil, err
	}
	var kept []*webhookEndpoint
	for _, e := range ownedBy(rc.st.WebhookEndpoints, rc.player) {
		if lq.has("url", e.URL) && lq.search(e.URL, e.Description) && lq.inTime(e.CreatedAt) &&
			(enabled == nil || *enabled == e.Enabled) {
			kept = append(kept, e)
		}
	}
	views := make([]webhookEndpointView, 0, len(kept))
	for _, e := range kept {
		views = append(views, e.view())
	}
	return listAnswer(views, lq, func(v webhookEndpointView, col string) any {
		switch col {
		case "updated_at":
			return v.UpdatedAt
		case "url":
			return v.URL
		case "id":
			return v.ID
		}
		return v.CreatedAt
	}), nil
}

func (s *Server) getWebhookEndpoint(rc *reqCtx) (*reply, error) {
	e, err := rc.pathWebhookEndpoint()
	if err != nil {
		return nil, err
	}
	return jsonReply(http.StatusOK, e.view()), nil
}

func (s *Server) createWebhookEndpoint(rc *reqCtx) (*reply, error) {
	obj, err := rc.object("webhook_endpoint")
	if err != nil {
		return nil, err
	}
	e := &webhookEndpoint{Owner: rc.player, Enabled: true, CreatedAt: rc.now, UpdatedAt: rc.now}
	if err := webhookEndpointFields(obj, e); err != nil {
		return nil, err
	}
	switch {
	case e.URL == "":
		return nil, invalid("url", "can't be blank")
	case len(e.Events) == 0:
		return nil, invalid("events", "can't be empty: subscribe to at least one event (GET /api/webhook_event_types)")
	}
	if e.Secret == "" {
		e.Secret = newWebhookSecret()
	}
	e.ID = rc.st.nextID("webhook_endpoint")
	rc.st.WebhookEndpoints = append(rc.st.WebhookEndpoints, e)
	rc.emit("webhook_endpoint.created", "WebhookEndpoint", e.ID, e.view())
	v := e.view()
	v.Secret = e.Secret
	out := jsonReply(http.StatusCreated, v)
	out.header.Set("Location", "/api/webhook_endpoints/"+strconv.FormatInt(e.ID, 10))
	return out, nil
}

func (s *Server) updateWebhookEndpoint(rc *reqCtx) (*reply, error) {
	e, err := rc.pathWebhookEndpoint()
	if err != nil {
		return nil, err
	}
	obj, err := rc.object("webhook_endpoint")
	if err != nil {
		return nil, err
	}
	next := *e
	next.Events = slices.Clone(e.Events)
	if err := webhookEndpointFields(obj, &next); err != nil {
		return nil, err
	}
	if _, sent := obj["events"]; sent && len(next.Events) == 0 {
		return nil, invalid("events", "can't be empty: subscribe to at least one event (GET /api/webhook_event_types)")
	}
	if _, sent := obj["url"]; sent && next.URL == "" {
		return nil, invalid("url", "can't be blank")
	}
	next.UpdatedAt = rc.now
	*e = next
	rc.emit("webhook_endpoint.updated", "WebhookEndpoint", e.ID, e.view())
	v := e.view()
	if _, rotated := obj["secret"]; rotated {
		v.Secret = e.Secret
	}
	return jsonReply(http.StatusOK, v), nil
}

func (s *Server) deleteWebhookEndpoint(rc *reqCtx) (*reply, error) {
	e, err := rc.pathWebhookEndpoint()
	if err != nil {
		return nil, err
	}
	rc.st.WebhookEndpoints = slices.DeleteFunc(rc.st.WebhookEndpoints, func(x *webhookEndpoint) bool { return x == e })
	rc.st.WebhookDeliveries = slices.DeleteFunc(rc.st.WebhookDeliveries, func(d *webhookDelivery) bool { return d.Endpoint == e.ID })
	rc.emit("webhook_endpoint.destroyed", "WebhookEndpoint", e.ID, e.view())
	return newReply(http.StatusNoContent), nil
}

// testWebhookEndpoint queues a webhook.test delivery to the endpoint,
// whether it subscribes to webhook.test or not, and whether it is enabled
// or not: a test is asked for by name, and trying a receiver before
// enabling it is what it is for. The answer is the pending delivery.
func (s *Server) testWebhookEndpoint(rc *reqCtx) (*reply, error) {
	e, err := rc.pathWebhookEndpoint()
	if err != nil {
		return nil, err
	}
	data := map[string]any{
		"message":             "This is a test delivery from the Fibe API emulator.",
		"webhook_endpoint_id": e.ID,
	}
	d, err := rc.st.queueDelivery(e, "webhook.test", data, rc.now)
	if err != nil {
		return nil, err
	}
	s.kickWebhooks()
	return jsonReply(http.StatusCreated, d.view()), nil
}

func (s *Server) listWebhookDeliveries(rc *reqCtx) (*reply, error) {
	e, err := rc.pathWebhookEndpoint()
	if err != nil {
		return nil, err
	}
	lq, err := parseListQuery(rc.c.query, listSpec{sorts: []string{"created_at", "id"}, statuses: deliveryStatuses})
	if err != nil {
		return nil, err
	}
	var views []webhookDeliveryView
	for _, d := range rc.st.WebhookDeliveries {
		if d.Endpoint == e.ID && d.Owner == rc.player && lq.hasStatus(d.Status) && lq.has("event_type", d.EventType) && lq.inTime(d.CreatedAt) {
			views = append(views, d.view())
		}
	}
	return listAnswer(views, lq, func(v webhookDeliveryView, col string) any {
		if col == "id" {
			return v.ID
		}
		return v.CreatedAt
	}), nil
}

func (s *Server) listWebhookEventTypes(rc *reqCtx) (*reply, error) {
	return jsonReply(http.StatusOK, map[string]any{"event_types": webhookEventTypes}), nil
}

// webhookEndpointFields reads the writable fields into e (create and
// update); events replace the list.
func webhookEndpointFields(obj map[string]any, e *webhookEndpoint) error {
	if u, ok, err := str(obj, "url"); err != nil {
		return err
	} else if ok {
		u = strings.TrimSpace(u)
		if u != "" {
			if err := checkWebhookURL(u); err != nil {
				return err
			}
		}
		e.URL = u
	}
	if v, present := obj["events"]; present {
		events, err := eventList(v)
		if err != nil {
			return err
		}
		e.Events = events
	}
	if d, ok, err := str(obj, "description"); err != nil {
		return err
	} else if ok {
		e.Description = strings.TrimSpace(d)
	}
	if _, present := obj["enabled"]; present {
		b, err := boolean(obj, "enabled")
		if err != nil {
			return err
		}
		e.Enabled = b
	}
	if sec, ok, err := str(obj, "secret"); err != nil {
		return err
	} else if ok && sec != "" {
		if len(sec) < minSecretLen {
			return invalid("secret", "is too short (minimum is "+strconv.Itoa(minSecretLen)+" characters)")
		}
		e.Secret = sec
	}
	if v, present := obj["event_filters"]; present {
		switch m := v.(type) {
		case nil:
			e.EventFilters = nil
		case map[string]any:
			e.EventFilters = m
		default:
			return invalid("event_filters", "must be an object keyed by event")
		}
	}
	if v, present := obj["tool_filters"]; present {
		tf, err := toolFilters(v)
		if err != nil {
			return err
		}
		e.ToolFilters = tf
	}
	return nil
}

// checkWebhookURL accepts an absolute http or https URL with a host; the
// receiver is not tried (the platform does not either).
func checkWebhookURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" {
		return invalid("url", "is not an http or https URL")
	}
	if u.User != nil {
		return invalid("url", "must not hold credentials")
	}
	return nil
}

func eventList(v any) ([]string, error) {
	arr, ok := v.([]any)
	if !ok && v != nil {
		return nil, invalid("events", "must be an array of event names")
	}
	var out []string
	for _, x := range arr {
		name, ok := x.(string)
		if !ok {
			return nil, invalid("events", "must be an array of event names")
		}
		if !slices.Contains(webhookEventTypes, name) {
			return nil, invalid("events", "has an unknown event "+strconv.Quote(name)+" (see GET /api/webhook_event_types)")
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out, nil
}

func toolFilters(v any) (map[string][]string, error) {
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, invalid("tool_filters", "must be an object of event to tool names")
	}
	out := make(map[string][]string, len(m))
	for k, x := range m {
		arr, ok := x.([]any)
		if !ok {
			return nil, invalid("tool_filters", "must be an object of event to tool names")
		}
		names := make([]string, 0, len(arr))
		for _, n := range arr {
			s, ok := n.(string)
			if !ok {
				return nil, invalid("tool_filters", "must be an object of event to tool names")
			}
			names = append(names, s)
		}
		out[k] = names
	}
	return out, nil
}

func newWebhookSecret() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return "whsec_" + hex.EncodeToString(b)
}

func newDeliveryKey() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return "whk_" + hex.EncodeToString(b)
}

// queueWebhooks hands an event to the endpoints of rc's player that
// subscribe to it: a pending delivery each, posted by the sender once the
// state is saved.
func (s *Server) queueWebhooks(rc *reqCtx, event string, data any) {
	if rc.st.queueFor(rc.player, event, data, rc.now) {
		s.kickWebhooks()
	}
}

// queueFor queues event for every enabled endpoint of player that
// subscribes to it, and reports whether there was one.
func (st *state) queueFor(player int64, event string, data any, now time.Time) bool {
	queued := false
	for _, e := range st.WebhookEndpoints {
		if e.Owner != player || !e.Enabled || !slices.Contains(e.Events, event) {
			continue
		}
		if _, err := st.queueDelivery(e, event, data, now); err == nil {
			queued = true
		}
	}
	return queued
}

// webhookPayload is the body of a delivery, its fields in this order.
type webhookPayload struct {
	Event     string `json:"event"`
	Timestamp string `json:"timestamp"`
	Data      any    `json:"data"`
}

// queueDelivery adds a pending delivery of event to e.
func (st *state) queueDelivery(e *webhookEndpoint, event string, data any, now time.Time) (*webhookDelivery, error) {
	body, err := json.Marshal(webhookPayload{Event: event, Timestamp: now.Format(time.RFC3339), Data: data})
	if err != nil {
		return nil, err
	}
	d := &webhookDelivery{
		ID: st.nextID("webhook_delivery"), Owner: e.Owner, Endpoint: e.ID, EventType: event,
		Status: deliveryPending, Body: string(body), Key: newDeliveryKey(), NextAt: now, CreatedAt: now,
	}
	st.WebhookDeliveries = append(st.WebhookDeliveries, d)
	e.LastTriggeredAt = &now
	st.pruneDeliveries(e.ID)
	return d, nil
}

// deliveriesDue reports whether a pending delivery is due and unclaimed.
func (st *state) deliveriesDue(now time.Time) bool {
	for _, d := range st.WebhookDeliveries {
		if d.Status == deliveryPending && !d.NextAt.After(now) && !d.LeaseUntil.After(now) {
			return true
		}
	}
	return false
}

// pruneDeliveries drops the oldest finished deliveries of an endpoint
// beyond maxDeliveriesPerEndpoint.
func (st *state) pruneDeliveries(endpoint int64) {
	n := 0
	for _, d := range st.WebhookDeliveries {
		if d.Endpoint == endpoint {
			n++
		}
	}
	if n <= maxDeliveriesPerEndpoint {
		return
	}
	drop := n - maxDeliveriesPerEndpoint
	st.WebhookDeliveries = slices.DeleteFunc(st.WebhookDeliveries, func(d *webhookDelivery) bool {
		if drop > 0 && d.Endpoint == endpoint && d.Status != deliveryPending {
			drop--
			return true
		}
		return false
	})
}

func (d *webhookDelivery) identity() (int64, string) { return d.ID, "" }
