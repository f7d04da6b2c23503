//go:build !unix

package main

import "os"

func maxRSS(*os.ProcessState) int64 { return 0 }

func selfMaxRSS() int64 { return 0 }
