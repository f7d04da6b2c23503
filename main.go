// Command fibe is the command line of the Fibe platform.
package main

//go:generate go run . completion --generate-dir completions
//go:generate go run ./cmd/man/mangen -dir man
//go:generate go run . man --reference docs/commands.md

import (
	"os"

	"github.com/fibegg/fibe/cmd"
)

func main() {
	os.Exit(cmd.Main())
}
