package cmdutil

import (
	"context"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// Accepted prints the 202 handle of an operation the user chose not to wait
// for (--no-wait) and reports whether there was one; noResult says the call
// returned no result (the client then hands back only the handle). With
// --json the handle is the document: {"request_id","status","status_url"}.
func (s Seams) Accepted(resp *client.Response, noResult bool) (bool, error) {
	if !noResult || resp == nil || resp.Accepted == nil {
		return false, nil
	}
	s.ReplayNotice(resp)
	h := resp.Accepted
	ios := s.IO
	if ios.JSON() {
		return true, ios.PrintJSON(h)
	}
	d := iostreams.NewDetail(ios.Out, ios.ColorScheme())
	d.Add("Request", output.Sanitize(h.RequestID))
	d.Add("Status", ios.ColorScheme().Status(output.Sanitize(h.Status)))
	d.Add("Status URL", output.Sanitize(h.StatusURL))
	if err := d.Render(); err != nil {
		return true, err
	}
	ios.Notice("Wait for it with: %s", output.Sanitize(s.CommandLine("ops", "wait", h.RequestID)))
	return true, nil
}

// ReplayNotice tells the user, on stderr, that the answer was a replay of
// an earlier request with the same idempotency key. stdout is unchanged.
func (s Seams) ReplayNotice(resp *client.Response) {
	if resp == nil || !resp.Replayed {
		return
	}
	key := resp.IdempotencyKey
	if key == "" {
		s.IO.Notice("Replayed: the server had already applied this request; nothing ran twice.")
		return
	}
	s.IO.Notice("Replayed: the server had already applied this request (idempotency key %s); nothing ran twice.", key)
}

// WaitFailed is called with the error of an async wait. On ASYNC_TIMEOUT
// with --json, stdout holds the last status seen (docs/contract.md §5), so a
// script still learns the request id; the error itself goes to stderr.
func (s Seams) WaitFailed(err error) error {
	ce, ok := client.AsError(err)
	if !ok || ce.Code != client.CodeAsyncTimeout || !s.IO.JSON() {
		return err
	}
	if ce.Resume != nil && ce.Resume.WaitRequestID == "" && ce.Resume.IdempotencyKey != "" {
		return err // a mutation still in flight: nothing was accepted, no status to print
	}
	id, status := s.IO.LastStatus()
	if ce.RequestID != "" {
		id = ce.RequestID
	}
	if s, ok := ce.Details["status"].(string); ok && s != "" {
		status = s
	}
	if status == "" {
		status = "running"
	}
	doc := map[string]any{"request_id": id, "status": status}
	if u, ok := ce.Details["status_url"].(string); ok && u != "" {
		doc["status_url"] = u
	}
	if perr := s.IO.PrintJSON(doc); perr != nil {
		return perr
	}
	return err
}

// Progress starts the spinner (where allowed) for a wait and returns the
// function that stops it. With --no-wait there is no wait to show.
func (s Seams) Progress(label string, wo client.WaitOptions) (stop func(err error)) {
	if wo.NoWait {
		return func(error) {}
	}
	ios := s.IO
	ios.StartProgress(label)
	return func(err error) {
		if err != nil {
			output.FailProgress(ios, err)
			return
		}
		ios.SucceedProgress()
	}
}

// ConfirmDestructive asks before a deletion. Without --yes it prompts on a
// terminal and refuses elsewhere (a usage error, exit 2): a script must
// say --yes.
func (s Seams) ConfirmDestructive(ctx context.Context, yes bool, question string) error {
	if yes {
		return nil
	}
	ios := s.IO
	if !ios.CanPrompt() || ios.JSON() {
		return output.FlagErrorf("--yes is required when not running interactively")
	}
	ok, err := output.Confirm(ctx, ios, question)
	if err != nil {
		return err
	}
	if !ok {
		return output.ErrAborted
	}
	return nil
}
