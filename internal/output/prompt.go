package output

import (
	"context"
	"errors"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
)

// Confirm asks a yes/no question on the terminal, defaulting to no. Ctrl-C
// answers with CANCELLED; without a terminal the answer is
// iostreams.ErrNoTerminal.
func Confirm(ctx context.Context, ios *iostreams.IOStreams, question string) (bool, error) {
	ok, err := ios.AskYesNo(ctx, question)
	return ok, promptError(ctx, err)
}

// PromptSecret asks for a secret, read from the terminal without echo.
// Ctrl-C answers with CANCELLED; without a terminal the answer is
// iostreams.ErrNoTerminal.
func PromptSecret(ctx context.Context, ios *iostreams.IOStreams, prompt string) (string, error) {
	secret, err := ios.AskSecret(ctx, prompt)
	return secret, promptError(ctx, err)
}

// promptError makes an interrupted prompt the CANCELLED error any other
// interrupted step ends with.
func promptError(ctx context.Context, err error) error {
	if errors.Is(err, iostreams.ErrInterrupted) {
		return &client.Error{Code: client.CodeCancelled, Message: "interrupted", Err: ctx.Err()}
	}
	return err
}
