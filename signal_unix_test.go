//go:build unix

package main

import "syscall"

var interrupt = syscall.SIGINT
