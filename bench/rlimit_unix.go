//go:build unix

package main

import "syscall"

// raiseFileLimit lifts the soft open-file limit to the hard one: the herd
// keeps a few hundred client and server sockets open per client kind.
func raiseFileLimit() {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return
	}
	if lim.Cur < lim.Max {
		lim.Cur = lim.Max
		_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
	}
}
