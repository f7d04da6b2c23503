package main

import (
	"context"
	"net/http"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/mcpserver"
	"github.com/fibegg/fibe/internal/reliability"
)

// The MCP server's costs, for
//
//	go test -run '^$' -bench MCP -benchmem ./bench
//
// Targets (issue "fibe mcp serve"): spawn to an answered initialize
// ≤ 30 ms median; a tool call ≤ 1 ms more than the same client call
// (in-memory transport); ≤ 2 MiB of heap per idle session. The issue
// "Agents" asks the per-call overhead against the emulator ≤ 1 ms
// median: BenchmarkMCPCallOverhead.

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
	b.ReportMetric(msOf(median(times)), "ms-median")
	b.ReportMetric(msOf(quantile(times, 0.9)), "ms-p90")
}

func median(ds []time.Duration) time.Duration { return quantile(ds, 0.5) }

func msOf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

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

// BenchmarkMCPCallOverhead is what the MCP server adds to a call against
// the emulator (internal/localapi on 127.0.0.1, as `--api-url local` has
// it over a socket): each iteration makes the same request once through
// the client directly and once as a tool call through the SDK's client
// over the in-memory transport, back to back, so both meet the same load.
// Reported: the median of each, and the median of the paired differences
// (the overhead; target ≤ 1 ms).
func BenchmarkMCPCallOverhead(b *testing.B) {
	emu, err := startEmulator(localapi.Config{Seed: 1, RateLimit: unlimited})
	if err != nil {
		b.Fatal(err)
	}
	defer emu.Close()
	ctx := context.Background()
	if err := emu.createPlayground(ctx, "mcp-bench", "local"); err != nil {
		b.Fatal(err)
	}
	opts := client.Options{BaseURL: emu.URL, APIKey: emu.Key, UserAgent: "fibe-bench",
		Store: reliability.NewMemoryStore(), Transport: http.DefaultTransport.(*http.Transport).Clone()}
	cases := []struct {
		name   string
		tool   string
		args   map[string]any
		direct func(c *client.Client) error
	}{
		{"whoami", "fibe_whoami", nil, func(c *client.Client) error { _, _, err := c.Me(ctx); return err }},
		{"playgrounds_get", "fibe_playgrounds_get", map[string]any{"playground": "mcp-bench"},
			func(c *client.Client) error { _, _, err := c.Playgrounds.Get(ctx, "mcp-bench"); return err }},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			c, err := client.New(opts)
			if err != nil {
				b.Fatal(err)
			}
			cs, closeAll := mcpSession(b, opts)
			defer closeAll()
			var direct, viaMCP, extra []time.Duration
			for b.Loop() {
				began := time.Now()
				if err := tc.direct(c); err != nil {
					b.Fatal(err)
				}
				d := time.Since(began)
				began = time.Now()
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
				m := time.Since(began)
				if err != nil || res.IsError {
					b.Fatalf("%v %+v", err, res)
				}
				direct, viaMCP, extra = append(direct, d), append(viaMCP, m), append(extra, m-d)
			}
			b.ReportMetric(msOf(median(direct)), "client-ms-median")
			b.ReportMetric(msOf(median(viaMCP)), "mcp-ms-median")
			b.ReportMetric(msOf(median(extra)), "overhead-ms-median")
			b.ReportMetric(msOf(quantile(extra, 0.9)), "overhead-ms-p90")
		})
	}
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
