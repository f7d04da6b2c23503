package client

import (
	"context"
	"fmt"
	"strconv"
)

// ReasonReplayedResourceGone is details.reason of the CONFLICT a replayed
// create ends with when what it created no longer exists: the server
// replayed the first answer, but the world moved since (it was deleted).
const ReasonReplayedResourceGone = "replayed_resource_gone"

// Key sources of that error's details.key_source: the caller's own key
// (--idempotency-key, an MCP idempotency_key, WithIdempotencyKey) or one
// reused from the outcome journal.
const (
	KeySourceExplicit = "explicit"
	KeySourceJournal  = "journal"
)

// afterReplayedCreate looks once at what a replayed create made: the answer
// is the first request's, so the resource may have changed or gone since.
// It returns the resource as it is now (and sets meta.Refreshed), or the
// CONFLICT of ReasonReplayedResourceGone when the GET finds nothing. Any
// other failure of the GET keeps the replayed answer as it was.
func afterReplayedCreate[T any](ctx context.Context, meta *Response, mo MutationOptions, kind, name string, id int64,
	get func(context.Context, string) (*T, *Response, error)) (*T, error) {
	if meta == nil || !meta.Replayed {
		return nil, nil
	}
	ref := name
	if id != 0 {
		ref = strconv.FormatInt(id, 10)
	}
	if ref == "" {
		return nil, nil
	}
	now, _, err := get(ctx, ref)
	switch {
	case err == nil:
		meta.Refreshed = true
		return now, nil
	case !IsNotFound(err):
		return nil, nil
	}
	source := KeySourceJournal
	if mo.IdempotencyKey != "" {
		source = KeySourceExplicit
	}
	label := name
	if label == "" {
		label = ref
	}
	details := map[string]any{"reason": ReasonReplayedResourceGone, kind: label, "key_source": source}
	if id != 0 {
		details["id"] = id
	}
	return nil, &Error{Code: CodeConflict, RequestID: meta.RequestID, Replayed: true,
		IdempotencyKey: meta.IdempotencyKey, Details: details,
		Message: fmt.Sprintf("the create was replayed from its idempotency key, but the %s it made, %s, no longer exists", kind, label)}
}
