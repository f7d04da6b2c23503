package console

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// Benchmarks of the console's performance targets (docs/console.md,
// "Performance targets"), in a real headless chromium against
// `fibe --api-url local console`:
//
//	go test -run '^$' -bench Console -benchtime 20x ./cmd/console
//
// BenchmarkConsoleFirstLoad: a playground page's load, cache disabled, to
// DOMContentLoaded (target ≤ 150 ms on loopback).
// BenchmarkConsoleStatusLatency: from the poller publishing a status change
// to the DOM showing it (target ≤ 150 ms).
// BenchmarkConsoleTwentyTabs: API requests per poll cycle with 20 tabs
// open on one playground (target: those of one tab, 1).
// The bundle's size budget (≤ 250 KB gzipped) is a test in
// internal/console.

func BenchmarkConsoleFirstLoad(b *testing.B) {
	fx := startConsole(b, 0)
	id := fx.runningPlayground("bench")
	ctx := newTab(b)
	fx.openPage(ctx, "/")
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true})
		return err
	})); err != nil {
		b.Fatal(err)
	}
	url := fmt.Sprintf("%s/playgrounds/%d", fx.run.BaseURL(), id)
	var samples, server []float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
			b.Fatal(err)
		}
		ms := eval[[]float64](b, ctx, `(() => { const n = performance.getEntriesByType("navigation")[0]; return [n.domContentLoadedEventEnd - n.startTime, n.responseStart - n.requestStart] })()`)
		samples = append(samples, ms[0])
		server = append(server, ms[1])
	}
	b.StopTimer()
	report(b, samples, "dcl-ms")
	report(b, server, "server-ms") // request sent to first byte: the page's API call and rendering
}

func BenchmarkConsoleStatusLatency(b *testing.B) {
	fx := startConsole(b, 100*time.Millisecond)
	id := fx.runningPlayground("latency")
	var mu sync.Mutex
	published := map[string]time.Time{} // status → first publish of it
	fx.run.OnPublish(func(topic, msg string, at time.Time) {
		if !strings.Contains(msg, `target="playground_summary"`) {
			return
		}
		for _, st := range []string{"stopped", "running"} {
			if strings.Contains(msg, `id="playground_status" class="status status-`+st+`">`) {
				mu.Lock()
				if _, ok := published[st]; !ok {
					published[st] = at
				}
				mu.Unlock()
			}
		}
	})
	ctx := newTab(b)
	fx.openPage(ctx, fmt.Sprintf("/playgrounds/%d?panes=none", id))
	waitFor(b, 10*time.Second, "the poller", func() bool { return fx.run.Pollers() == 1 })
	eval[bool](b, ctx, `(() => {
	  window.__seen = {};
	  new MutationObserver(() => {
	    const el = document.getElementById("playground_status");
	    const st = el && el.textContent;
	    if (st && !(st in window.__seen)) window.__seen[st] = performance.timeOrigin + performance.now();
	  }).observe(document.body, { subtree: true, childList: true, characterData: true });
	  return true;
	})()`)
	var samples []float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, step := range []struct{ action, status string }{{"stop", "stopped"}, {"start", "running"}} {
			mu.Lock()
			delete(published, step.status)
			mu.Unlock()
			eval[bool](b, ctx, fmt.Sprintf(`delete window.__seen[%q], true`, step.status))
			if st, body := fx.api("POST", fmt.Sprintf("/api/playgrounds/%d/operations", id), map[string]any{"action_type": step.action}); st/100 != 2 {
				b.Fatalf("%s: %d %v", step.action, st, body)
			}
			waitJS(b, ctx, 30*time.Second, fmt.Sprintf(`%q in window.__seen`, step.status))
			seen := eval[float64](b, ctx, fmt.Sprintf(`window.__seen[%q]`, step.status))
			mu.Lock()
			at, ok := published[step.status]
			mu.Unlock()
			if !ok {
				b.Fatalf("no publish of status %s", step.status)
			}
			samples = append(samples, seen-float64(at.UnixNano())/1e6)
		}
	}
	b.StopTimer()
	report(b, samples, "dom-ms")
}

func BenchmarkConsoleTwentyTabs(b *testing.B) {
	fx := startConsole(b, 200*time.Millisecond)
	id := fx.runningPlayground("tabs")
	route := "GET /api/playgrounds/{id}"
	page := fmt.Sprintf("/playgrounds/%d?panes=none", id)
	for _, tabs := range []int{1, 20} {
		ctxs := make([]context.Context, tabs)
		for i := range ctxs {
			ctxs[i] = newTab(b)
			fx.openPage(ctxs[i], page)
		}
		waitFor(b, 20*time.Second, "the poller", func() bool { return fx.run.Pollers() == 1 })
		p0, r0 := fx.run.Polls(), fx.pollsOf(route)
		waitFor(b, 60*time.Second, "poll cycles", func() bool { return fx.run.Polls() >= p0+int64(10*b.N) })
		p1, r1 := fx.run.Polls(), fx.pollsOf(route)
		b.ReportMetric(float64(r1-r0)/float64(p1-p0), fmt.Sprintf("req/cycle-%dtabs", tabs))
		b.ReportMetric(float64(fx.run.Pollers()), fmt.Sprintf("pollers-%dtabs", tabs))
		for _, ctx := range ctxs {
			_ = chromedp.Do(ctx, chromedp.Navigate("about:blank"))
		}
		waitFor(b, 20*time.Second, "the poller to stop", func() bool { return fx.run.Pollers() == 0 })
	}
}

// report adds the mean, median and worst of samples (milliseconds).
func report(b *testing.B, samples []float64, unit string) {
	if len(samples) == 0 {
		return
	}
	sort.Float64s(samples)
	sum := 0.0
	for _, s := range samples {
		sum += s
	}
	b.ReportMetric(sum/float64(len(samples)), "mean-"+unit)
	b.ReportMetric(samples[len(samples)/2], "p50-"+unit)
	b.ReportMetric(samples[len(samples)-1], "max-"+unit)
}
