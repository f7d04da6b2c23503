package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// memoryNow is the heap in use after a collection, and the process's peak
// RSS so far (0 where the system does not say).
func memoryNow() (heapInuse uint64, peakRSS int64) {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse, selfMaxRSS()
}

// writeHeapProfile writes the heap profile (after a collection) to path,
// for `go tool pprof`.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	runtime.GC()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// fmtBytes renders a size in MiB ("-" when unknown).
func fmtBytes(n int64) string {
	if n <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
