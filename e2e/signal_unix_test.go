//go:build unix

package e2e

import "syscall"

var interrupt = syscall.SIGINT
