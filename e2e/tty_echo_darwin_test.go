package e2e

import "golang.org/x/sys/unix"

const ioctlGetTermios = unix.TIOCGETA
