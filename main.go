// Command fibe is the command line of the Fibe platform.
package main

import (
	"os"

	"github.com/fibegg/fibe/cmd"
)

func main() {
	os.Exit(cmd.Main())
}
