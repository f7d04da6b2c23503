//go:build !unix

package main

import "os"

// Sending os.Interrupt to another process is not supported on Windows; the
// interrupt tests skip there, but the package must still compile.
var interrupt = os.Interrupt
