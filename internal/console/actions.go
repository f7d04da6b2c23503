package console

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/reliability"
	"github.com/fibegg/fibe/internal/resource"
)

// operation is one logical action: one idempotency key, however many times
// its form was submitted.
type operation struct {
	Key, Ref, Action string
	State            string // submitted, running, succeeded, failed
	Status           string // last async or playground status
	Polls, Retries   int
	Submits          int
	Replayed         bool
	RequestID        string
	Err              *errorView
	// Seq orders the operation's renders: every change takes the next
	// number of all operations, and the page never shows a lower one after
	// a higher (order_guard.js).
	Seq int64
}

// opView is a copy of an operation for rendering.
type opView = operation

type operations struct {
	mu    sync.Mutex
	byKey map[string]*operation
	byRef map[string]*operation // latest per playground
	seq   int64                 // the last Seq given
	wg    sync.WaitGroup
}

// changed marks a change of op; under o.mu.
func (o *operations) changed(op *operation) {
	o.seq++
	op.Seq = o.seq
}

func newOperations() *operations {
	return &operations{byKey: map[string]*operation{}, byRef: map[string]*operation{}}
}

// submit records one submission of key; fresh reports whether it starts a
// new operation (the key was never seen or its operation has ended, so the
// API is asked again and replays it).
func (o *operations) submit(key, ref, action string) (op *operation, fresh bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if op = o.byKey[key]; op != nil {
		op.Submits++
		o.changed(op)
		if op.State == "running" || op.State == "submitted" {
			return op, false
		}
		op.State, op.Err = "submitted", nil
		return op, true
	}
	op = &operation{Key: key, Ref: ref, Action: action, State: "submitted", Submits: 1}
	o.changed(op)
	o.byKey[key] = op
	o.byRef[ref] = op
	return op, true
}

func (o *operations) view(op *operation) *opView {
	o.mu.Lock()
	defer o.mu.Unlock()
	v := *op
	return &v
}

func (o *operations) latest(ref string) *opView {
	o.mu.Lock()
	defer o.mu.Unlock()
	if op := o.byRef[ref]; op != nil {
		v := *op
		return &v
	}
	return nil
}

// event applies one event of op's own API call (the callback the client
// was given for it, MutationOptions.OnEvent); it reports whether the
// operation changed.
func (o *operations) event(op *operation, e client.Event) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	switch e.Kind {
	case client.EventAccepted:
		op.RequestID, op.Status, op.State = e.RequestID, e.Status, "running"
	case client.EventPoll:
		op.Status, op.Polls, op.State = e.Status, e.Polls, "running"
	case client.EventRetry:
		op.Retries++
	case client.EventReplay:
		op.Replayed = true
	default:
		return false
	}
	o.changed(op)
	return true
}

func (o *operations) wait() { o.wg.Wait() }

func (s *Server) publishOperation(ref string) {
	s.Publish(ref, turboStream("replace", "operation", fragment("operation", s.ops.latest(ref))))
}

func validAction(a string) bool {
	for _, n := range actionNames() {
		if n.Action == a {
			return true
		}
	}
	return false
}

// postAction starts an action from its form. A double submit of the same
// form (same key) is the same operation.
func (s *Server) postAction(w http.ResponseWriter, r *http.Request) {
	ref, action := r.PathValue("ref"), r.PathValue("action")
	if !validAction(action) {
		http.Error(w, "404 not found: unknown action "+strconv.Quote(action), http.StatusNotFound)
		return
	}
	key := r.PostFormValue("idempotency_key")
	if err := reliability.ValidateIdempotencyKey(key); err != nil {
		http.Error(w, "422 unprocessable: INVALID_ARGUMENT: idempotency_key: "+err.Error(), http.StatusUnprocessableEntity)
		return
	}
	op, fresh := s.ops.submit(key, ref, action)
	if fresh {
		s.ops.wg.Add(1)
		go s.runOperation(op)
	}
	s.publishOperation(ref)
	if wantsStream(r) {
		w.Header().Set("Content-Type", "text/vnd.turbo-stream.html; charset=utf-8")
		_, _ = w.Write([]byte(turboStream("replace", "operation", fragment("operation", s.ops.view(op)))))
		return
	}
	http.Redirect(w, r, "/playgrounds/"+url.PathEscape(ref), http.StatusSeeOther)
}

func wantsStream(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/vnd.turbo-stream.html")
}

// runOperation runs the action to its end under the client's contract
// (retries with the same key, 202 polling), then shows the outcome and
// renders the action forms again with fresh keys: a deliberate second
// rollout is a new operation. An action whose outcome is unknown keeps its
// key, so submitting it again finishes it instead of running it twice.
func (s *Server) runOperation(op *operation) {
	defer s.ops.wg.Done()
	ctx, cancel := context.WithTimeout(s.ctx, 30*time.Minute)
	defer cancel()
	// The operation hears its own call's progress (its retries, replay,
	// 202 and polls) and shows it in the #operation pane of its page.
	mo := client.MutationOptions{IdempotencyKey: op.Key, OnEvent: func(e client.Event) {
		if s.ops.event(op, e) {
			s.publishOperation(op.Ref)
		}
	}}
	var (
		final string
		err   error
	)
	pg := resource.Playgrounds()
	if op.Action == "delete" {
		_, err = pg.Delete(ctx, s.api, op.Ref, mo, client.WaitOptions{})
		final = "deleted"
	} else {
		action, _ := pg.Action(op.Action) // postAction let only the description's actions in
		var res any
		var meta *client.Response
		res, meta, err = pg.Run(ctx, s.api, op.Ref, action, false, mo, client.WaitOptions{})
		if st, ok := res.(*client.PlaygroundStatus); ok {
			final = st.Status
		}
		if meta != nil && meta.Replayed {
			s.ops.mu.Lock()
			op.Replayed = true
			s.ops.changed(op)
			s.ops.mu.Unlock()
		}
	}
	s.ops.mu.Lock()
	s.ops.changed(op)
	if err != nil {
		op.State, op.Err = "failed", errorOf(err)
	} else {
		op.State = "succeeded"
		if final != "" {
			op.Status = final
		}
	}
	s.ops.mu.Unlock()
	if s.ctx.Err() != nil {
		return
	}
	s.publishOperation(op.Ref)
	forms := actionForms(op.Ref, "")
	if client.IsOutcomeUnknown(err) {
		// It may have been applied: submitting it again must be the same
		// operation, so its form keeps its key (the server replays it).
		for i := range forms {
			if forms[i].Action == op.Action {
				forms[i].Key = op.Key
			}
		}
	}
	s.Publish(op.Ref, turboStream("update", "actions", fragment("actions", forms)))
}

// saveSettings saves the settings form: environment overrides with a
// PATCH, and an expiry extension when hours are given. One submitted form
// is one logical operation: each of its requests sends a key derived from
// the form's key, so submitting the same form again replays both instead
// of extending the expiry twice.
func (s *Server) saveSettings(w http.ResponseWriter, r *http.Request) {
	ref := r.PathValue("ref")
	if r.Method == http.MethodPost && !strings.EqualFold(r.PostFormValue("_method"), "patch") {
		http.Error(w, "405 method not allowed: settings are saved with PATCH", http.StatusMethodNotAllowed)
		return
	}
	key := r.PostFormValue("idempotency_key")
	if key != "" {
		if err := reliability.ValidateIdempotencyKey(key); err != nil {
			http.Error(w, "422 unprocessable: INVALID_ARGUMENT: idempotency_key: "+err.Error(), http.StatusUnprocessableEntity)
			return
		}
	}
	// stepKey is the key of one request of the form ("" without a form key:
	// the client mints and journals one, as for the command line).
	stepKey := func(step string) client.MutationOptions {
		if key == "" {
			return client.MutationOptions{}
		}
		return client.MutationOptions{IdempotencyKey: reliability.DeriveIdempotencyKey(key, step)}
	}
	env, perr := parseEnv(r.PostFormValue("env_overrides"))
	hours := 0
	if h := strings.TrimSpace(r.PostFormValue("extend_hours")); h != "" && perr == nil {
		n, err := strconv.Atoi(h)
		if err != nil || n <= 0 || n > 24*365 {
			perr = invalidArgument("extend_hours", "extend hours must be a whole number of hours, 1 or more")
		}
		hours = n
	}
	ctx, cancel := context.WithTimeout(r.Context(), 60*time.Second)
	defer cancel()
	err := perr
	if err == nil && env != nil {
		_, _, err = s.api.Playgrounds.Update(ctx, ref, map[string]any{"env_overrides": env}, stepKey("settings/env_overrides"))
	}
	if err == nil && hours > 0 {
		_, _, err = s.api.Playgrounds.Extend(ctx, ref, hours, stepKey("settings/extend"))
	}
	if err != nil {
		pg, _, gerr := s.api.Playgrounds.Get(ctx, ref)
		if gerr != nil {
			pg = nil
		}
		v := s.playgroundView(r, ref, pg, err)
		v.Env = r.PostFormValue("env_overrides")
		s.render(w, r, http.StatusUnprocessableEntity, "playground.html", ref, v)
		return
	}
	http.Redirect(w, r, "/playgrounds/"+url.PathEscape(ref), http.StatusSeeOther)
}

// parseEnv reads "KEY=value KEY2=value2" (or comma- or line-separated)
// with the one parser of overrides; nil when the field is empty.
func parseEnv(s string) (map[string]string, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\n' || r == '\t' || r == '\r' })
	if len(fields) == 0 {
		return nil, nil
	}
	env, err := resource.ParseEnv("env_overrides", fields)
	if ie, ok := err.(*resource.InputError); ok {
		return nil, invalidArgument(ie.Arg, "environment overrides: "+ie.Problem)
	}
	return env, err
}

// invalidArgument is bad input in a form: refused before any request, with
// the contract's code and the field it names.
func invalidArgument(field, msg string) *client.Error {
	return client.InvalidArgument(field, "%s", msg)
}
