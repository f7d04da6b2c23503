package main

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"

	"github.com/google/pprof/profile"
)

// memoryNow is, after a collection, the heap in use (whole spans) and the
// live heap (the bytes of live objects), and the process's peak RSS so far
// (0 where the system does not say).
func memoryNow() (heapInuse, heapAlloc uint64, peakRSS int64) {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse, m.HeapAlloc, selfMaxRSS()
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

// heapOwners is the live heap (in-use bytes of the heap profile, after a
// collection) split by who allocated it. The soak runs the emulator in the
// same process as the commands, so the process's heap holds both; only
// fibe's share says whether fibe keeps what it should let go.
type heapOwners struct {
	// Emulator: the allocation stack goes through internal/localapi, or
	// through net/http's server (which in the soak serves only the
	// emulator) with no frame of the benchmark's nearer the allocation.
	Emulator int64
	// Harness: allocated by the benchmark itself (package main: the ledger,
	// the plans, the server-side request recorder, the reports) with no
	// fibe or emulator frame nearer the allocation.
	Harness int64
	// Fibe: the rest: allocations whose nearest owned frame is a fibe
	// package (cmd, client, reliability, statestore, ...), and those with no
	// owned frame at all (the client transports' goroutines, package
	// initialisation of libraries, the runtime).
	Fibe int64
}

func (h heapOwners) Total() int64 { return h.Emulator + h.Harness + h.Fibe }

// Frame prefixes that decide an owner.
const (
	fibePkg     = "github.com/fibegg/fibe/"
	emulatorPkg = "github.com/fibegg/fibe/internal/localapi"
)

// heapByOwner collects the garbage, takes the heap profile and sums its
// in-use bytes by owner.
func heapByOwner() (heapOwners, error) {
	var buf bytes.Buffer
	runtime.GC()
	if err := pprof.Lookup("heap").WriteTo(&buf, 0); err != nil {
		return heapOwners{}, err
	}
	p, err := profile.Parse(&buf)
	if err != nil {
		return heapOwners{}, err
	}
	return attributeHeap(p)
}

// attributeHeap sums a heap profile's inuse_space by owner (see heapOwners).
func attributeHeap(p *profile.Profile) (heapOwners, error) {
	idx := -1
	for i, st := range p.SampleType {
		if st.Type == "inuse_space" {
			idx = i
		}
	}
	if idx < 0 {
		return heapOwners{}, fmt.Errorf("heap profile without inuse_space")
	}
	var h heapOwners
	for _, s := range p.Sample {
		v := s.Value[idx]
		switch heapOwner(s) {
		case "emulator":
			h.Emulator += v
		case "harness":
			h.Harness += v
		default:
			h.Fibe += v
		}
	}
	return h, nil
}

// heapOwner names who allocated one sample: "emulator" when any frame is
// the emulator's; else the nearest frame (from the allocation up) that is
// fibe's ("fibe") or the benchmark's ("harness"); else "emulator" when the
// HTTP server is on the stack (reading a request the emulator keeps),
// else "fibe".
func heapOwner(s *profile.Sample) string {
	nearest, server := "", false
	for _, loc := range s.Location { // leaf first
		for _, ln := range loc.Line { // inlined callees first
			if ln.Function == nil {
				continue
			}
			name := ln.Function.Name
			switch {
			case strings.HasPrefix(name, emulatorPkg):
				return "emulator"
			case strings.HasPrefix(name, "net/http.(*conn)."), strings.HasPrefix(name, "net/http.(*Server)."):
				server = true
			case nearest == "" && strings.HasPrefix(name, fibePkg):
				nearest = "fibe"
			case nearest == "" && strings.HasPrefix(name, "main."):
				nearest = "harness"
			}
		}
	}
	switch {
	case nearest != "":
		return nearest
	case server:
		return "emulator"
	}
	return "fibe"
}

// fmtBytes renders a size in MiB ("-" when unknown).
func fmtBytes(n int64) string {
	if n <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
