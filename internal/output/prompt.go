package output

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strings"

	"golang.org/x/term"
)

// ErrNoTerminal is returned by prompts when there is no one to ask.
var ErrNoTerminal = errors.New("cannot prompt: not a terminal")

// PromptSecret asks for a secret on stderr and reads it from the terminal
// without echo.
func (s *IOStreams) PromptSecret(prompt string) (string, error) {
	if !s.CanPrompt() {
		return "", ErrNoTerminal
	}
	fmt.Fprint(s.ErrOut, prompt)
	defer fmt.Fprintln(s.ErrOut)
	if f, ok := s.In.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		b, err := term.ReadPassword(int(f.Fd()))
		return strings.TrimSpace(string(b)), err
	}
	// A terminal flag set by a test: read a plain line.
	line, err := bufio.NewReader(s.In).ReadString('\n')
	if err != nil && line == "" {
		return "", err
	}
	return strings.TrimSpace(line), nil
}

// Confirm asks a yes/no question, defaulting to no.
func (s *IOStreams) Confirm(prompt string) (bool, error) {
	if !s.CanPrompt() {
		return false, ErrNoTerminal
	}
	fmt.Fprintf(s.ErrOut, "%s [y/N] ", prompt)
	line, err := bufio.NewReader(s.In).ReadString('\n')
	if err != nil && line == "" {
		return false, err
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true, nil
	}
	return false, nil
}
