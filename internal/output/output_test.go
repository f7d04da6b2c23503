package output

import (
	"errors"
	"testing"

	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/present"
)

// The forwards are the moved things themselves, so code written against
// this package behaves as before: the same types, values and usage errors.
func TestForwardsAreTheMovedThings(t *testing.T) {
	var ios *IOStreams
	ios, _, _, _ = iostreams.Test()
	_ = ios
	if !errors.Is(ErrAborted, present.ErrAborted) || !errors.Is(ErrNoTerminal, iostreams.ErrNoTerminal) {
		t.Error("sentinel errors must be the same values")
	}
	if _, err := CompileJQ(".["); ExitCode(err) != ExitUsage {
		t.Errorf("a bad --jq expression must stay a usage error: %v", err)
	}
	var flagErr *present.FlagError
	if !errors.As(FlagErrorf("bad %s", "flag"), &flagErr) {
		t.Error("FlagErrorf must build a present.FlagError")
	}
	if b := ErrorBodyOf(FlagErrorf("x")); b.Code != present.CodeUsage {
		t.Errorf("ErrorBodyOf: %+v", b)
	}
}
