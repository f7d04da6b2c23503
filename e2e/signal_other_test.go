//go:build !unix

package e2e

import "os"

// Sending os.Interrupt to another process is not supported on Windows; the
// interrupt tests skip there, but the package must still compile.
var interrupt = os.Interrupt
