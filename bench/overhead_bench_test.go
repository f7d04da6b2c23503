package main

import "testing"

// BenchmarkOverhead is one 200 OK through each client, for
// `go test -run '^$' -bench Overhead -benchmem ./bench`. The overhead
// scenario of the bench command runs the same cases with testing.Benchmark.
func BenchmarkOverhead(b *testing.B) {
	srv := newOverheadServer()
	defer srv.Close()
	dir := b.TempDir()
	for _, c := range append(overheadCases(dir), journalCases(dir+"/journal")...) {
		b.Run(c.ID, func(b *testing.B) { c.Run(b, srv.URL) })
	}
}
