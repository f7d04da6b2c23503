package iostreams

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"golang.org/x/term"
)

// ErrNoTerminal is returned by prompts when there is no one to ask.
var ErrNoTerminal = errors.New("cannot prompt: not a terminal")

// ErrInterrupted is matched (errors.Is) by the error of a prompt abandoned
// because its context ended (Ctrl-C); the error also wraps the context's.
var ErrInterrupted = errors.New("interrupted")

// AskSecret asks for a secret on stderr and reads it from the terminal
// without echo. Ctrl-C (ctx cancelled) abandons the prompt with
// ErrInterrupted and puts the terminal back as it was: the process catches
// SIGINT, so a blocked read would otherwise swallow the interrupt.
func (s *IOStreams) AskSecret(ctx context.Context, prompt string) (string, error) {
	if !s.CanPrompt() {
		return "", ErrNoTerminal
	}
	fmt.Fprint(s.ErrOut, prompt)
	defer fmt.Fprintln(s.ErrOut)
	f, ok := s.In.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		// A terminal flag set by a test: read a plain line.
		return s.readLine(ctx)
	}
	fd := int(f.Fd())
	saved, err := term.GetState(fd)
	if err != nil {
		return "", err
	}
	type answer struct {
		b   []byte
		err error
	}
	done := make(chan answer, 1)
	go func() {
		b, err := term.ReadPassword(fd)
		done <- answer{b, err}
	}()
	select {
	case a := <-done:
		return strings.TrimSpace(string(a.b)), a.err
	case <-ctx.Done():
		// The reader stays blocked until the process exits; restore echo now.
		_ = term.Restore(fd, saved)
		return "", cancelled(ctx)
	}
}

// AskYesNo asks a yes/no question, defaulting to no. Ctrl-C answers with
// ErrInterrupted.
func (s *IOStreams) AskYesNo(ctx context.Context, prompt string) (bool, error) {
	if !s.CanPrompt() {
		return false, ErrNoTerminal
	}
	fmt.Fprintf(s.ErrOut, "%s [y/N] ", prompt)
	line, err := s.readLine(ctx)
	if err != nil {
		if errors.Is(err, ErrInterrupted) {
			fmt.Fprintln(s.ErrOut)
		}
		return false, err
	}
	switch strings.ToLower(line) {
	case "y", "yes":
		return true, nil
	}
	return false, nil
}

// readLine reads one trimmed line from stdin, giving up when ctx ends.
func (s *IOStreams) readLine(ctx context.Context) (string, error) {
	type answer struct {
		line string
		err  error
	}
	done := make(chan answer, 1)
	go func() {
		line, err := bufio.NewReader(s.In).ReadString('\n')
		if err != nil && line != "" {
			err = nil // a last line without a newline still counts
		}
		done <- answer{strings.TrimSpace(line), err}
	}()
	select {
	case a := <-done:
		return a.line, a.err
	case <-ctx.Done():
		return "", cancelled(ctx)
	}
}

func cancelled(ctx context.Context) error { return fmt.Errorf("%w: %w", ErrInterrupted, ctx.Err()) }
