package client

import (
	"net/http"
	"testing"
)

// An async result that is not the expected JSON is INVALID_RESPONSE
// carrying the X-Request-Id of the poll answer that brought it; the
// operation's id is kept apart.
func TestInvalidAsyncResultKeepsThePollsRequestID(t *testing.T) {
	_, url := asyncServer(t, "", []func(http.ResponseWriter){func(w http.ResponseWriter) {
		w.Header().Set("X-Request-Id", "req_poll_ok")
		body(`{"status":"success","result":{"id":"not a number"}}`)(w)
	}})
	c, _ := newTestClient(t, url)
	_, _, err := c.Playgrounds.Action(ctxT(t), "pg", "rollout", false, MutationOptions{}, WaitOptions{})
	e := mustError(t, err, CodeInvalidResponse)
	if e.RequestID != "req_poll_ok" || e.AsyncRequestID != "req_5c1d" || e.IdempotencyKey == "" || len(e.Details) != 1 {
		t.Fatalf("%+v", e)
	}
}
