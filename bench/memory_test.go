package main

import (
	"testing"

	"github.com/google/pprof/profile"
)

// TestAttributeHeap splits a heap profile by owner: any emulator frame
// makes a sample the emulator's; otherwise the frame nearest the
// allocation that is fibe's or the benchmark's decides; a stack with
// neither is the emulator's under net/http's server, else fibe's.
func TestAttributeHeap(t *testing.T) {
	fn := map[string]*profile.Function{}
	loc := func(names ...string) *profile.Location { // inlined callee first
		l := &profile.Location{}
		for _, n := range names {
			if fn[n] == nil {
				fn[n] = &profile.Function{Name: n}
			}
			l.Line = append(l.Line, profile.Line{Function: fn[n]})
		}
		return l
	}
	sample := func(bytes int64, stack ...*profile.Location) *profile.Sample {
		return &profile.Sample{Value: []int64{1, bytes}, Location: stack}
	}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "inuse_objects", Unit: "count"}, {Type: "inuse_space", Unit: "bytes"}},
		Sample: []*profile.Sample{
			// The emulator, called from the benchmark.
			sample(1000, loc("runtime.mallocgc"), loc("github.com/fibegg/fibe/internal/localapi.(*API).create"), loc("main.startEmulator")),
			// The emulator's HTTP server reading a request.
			sample(200, loc("bufio.NewReaderSize"), loc("net/http.(*conn).serve")),
			// fibe, run by the benchmark's runner: fibe's frame is nearer.
			sample(30, loc("encoding/json.Unmarshal"), loc("github.com/fibegg/fibe/internal/client.(*Client).do", "github.com/fibegg/fibe/internal/client.decode"), loc("main.inProcess")),
			// The benchmark's ledger.
			sample(4, loc("main.planWave"), loc("main.runSoak")),
			// The benchmark's request recorder, in front of the emulator.
			sample(7, loc("main.(*recorder).ServeHTTP"), loc("net/http.serverHandler.ServeHTTP"), loc("net/http.(*conn).serve")),
			// A client connection's goroutine: no owned frame.
			sample(5, loc("bufio.NewReaderSize"), loc("net/http.(*persistConn).readLoop")),
		},
	}
	got, err := attributeHeap(p)
	if err != nil {
		t.Fatal(err)
	}
	want := heapOwners{Emulator: 1200, Fibe: 35, Harness: 11}
	if got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	if got.Total() != 1246 {
		t.Fatalf("total %d", got.Total())
	}
	if _, err := attributeHeap(&profile.Profile{SampleType: []*profile.ValueType{{Type: "alloc_space"}}}); err == nil {
		t.Fatal("a profile without inuse_space was summed")
	}
}

// TestHeapByOwner takes this process's own heap profile: with the
// benchmark's ledger alive, the split is not empty and sums to the total.
func TestHeapByOwner(t *testing.T) {
	h, err := heapByOwner()
	if err != nil {
		t.Fatal(err)
	}
	if h.Total() <= 0 || h.Fibe+h.Emulator+h.Harness != h.Total() {
		t.Fatalf("heap split %+v", h)
	}
}
