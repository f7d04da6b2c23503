package console

import (
	"strings"
	"testing"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/output"
)

// The page's flash is the CLI's error line, from the shared presenter, and
// says when an action may have been applied.
func TestErrorFlashIsTheCLIsLine(t *testing.T) {
	funded := &client.Error{Code: client.CodeNotFunded, Message: "marquee unpaid has not paid for today", RequestID: "req_7f2c", Status: 402}
	v := errorOf(funded)
	if v.Line() != output.ErrorLine(funded) || v.Code != "MARQUEE_NOT_FUNDED" || v.RequestID != "req_7f2c" {
		t.Fatalf("flash %+v line %q, want the CLI's %q", v, v.Line(), output.ErrorLine(funded))
	}
	if !strings.Contains(v.Line(), "(request req_7f2c)") {
		t.Fatalf("flash %q lacks the request id", v.Line())
	}
	lost := &client.Error{Code: client.CodeInternal, Message: "bad gateway", Status: 502, RequestID: "req_1",
		IdempotencyKey: "k1", OutcomeUnknown: true, Resume: &client.Resume{IdempotencyKey: "k1"}}
	if l := errorOf(lost).Line(); !strings.HasPrefix(l, output.ErrorLine(lost)) || !strings.Contains(l, "outcome unknown") {
		t.Fatalf("unknown outcome flash %q", l)
	}
	if l := errorOf(funded).Line(); strings.Contains(l, "outcome unknown") {
		t.Fatalf("a refused action's flash %q speaks of an unknown outcome", l)
	}
}
