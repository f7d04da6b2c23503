package main

import (
	"context"
	"net/http"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/mcpserver"
	"github.com/fibegg/fibe/internal/reliability"
)

// The MCP server's costs, for
//
//	go test -run '^$' -bench MCP -benchmem ./bench
//
// Targets (issue "fibe mcp serve"): spawn to an answered initialize
// ≤ 30 ms median; a tool call ≤ 1 ms more than the same client call
// (in-memory transport); ≤ 2 MiB of heap per idle session.

// BenchmarkMCPSpawnToInitialize launches `fibe mcp serve` as an MCP
// client does and times until its initialize answer arrived.
func BenchmarkMCPSpawnToInitialize(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "fibe")
	if err := buildCLI(context.Background(), "..", bin); err != nil {
		b.Fatal(err)
	}
	environ := cliEnviron(filepath.Join(dir, "home"))
	var times []time.Duration
	c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	for b.Loop() {
		cmd := exec.Command(bin, "mcp", "serve")
		cmd.Env = environ
		began := time.Now()
		cs, err := c.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(began))
		_ = cs.Close()
	}
	b.ReportMetric(float64(median(times).Microseconds())/1000, "ms-median")
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// mcpSession connects the SDK's client to a server in memory; every call
// builds its client from opts, as `fibe mcp serve` does.
func mcpSession(b *testing.B, opts client.Options) (*mcp.ClientSession, func()) {
	s := mcpserver.New(mcpserver.Config{Client: func(onEvent func(client.Event), _ bool) (*client.Client, error) {
		o := opts
		o.OnEvent = onEvent
		return client.New(o)
	}})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	if err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	return cs, func() { _ = cs.Close(); _ = ss.Close() }
}

// BenchmarkMCPToolCall is GET /api/me through the client directly, then
// through fibe_whoami: the difference is what the MCP layer adds.
func BenchmarkMCPToolCall(b *testing.B) {
	srv := newOverheadServer()
	defer srv.Close()
	opts := client.Options{BaseURL: srv.URL, APIKey: overheadKey, UserAgent: "fibe-bench",
		Store: reliability.NewMemoryStore(), Transport: http.DefaultTransport.(*http.Transport).Clone()}
	b.Run("Client", func(b *testing.B) {
		c, err := client.New(opts)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := c.Me(context.Background()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("MCP", func(b *testing.B) {
		cs, closeAll := mcpSession(b, opts)
		defer closeAll()
		b.ReportAllocs()
		for b.Loop() {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "fibe_whoami"})
			if err != nil || res.IsError {
				b.Fatalf("%v %+v", err, res)
			}
		}
	})
}

// BenchmarkMCPIdleSessionHeap is the heap an initialized, idle session holds.
func BenchmarkMCPIdleSessionHeap(b *testing.B) {
	opts := client.Options{BaseURL: "http://127.0.0.1:1", APIKey: overheadKey, Store: reliability.NewMemoryStore()}
	const sessions = 50
	var perSession float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		var closers []func()
		for range sessions {
			_, closeAll := mcpSession(b, opts)
			closers = append(closers, closeAll)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		perSession = float64(after.HeapAlloc-before.HeapAlloc) / sessions
		for _, c := range closers {
			c()
		}
	}
	b.ReportMetric(perSession/1024, "KiB/session")
}
