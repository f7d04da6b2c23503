package console

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// sse opens one tab's event stream and returns a channel of its events.
func (fx *fixture) sse(ctx context.Context, path string) <-chan string {
	fx.t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", fx.run.BaseURL()+path, nil)
	req.Header.Set("Accept", "text/event-stream")
	c := &http.Client{Jar: fx.http.Jar} // no timeout: a stream
	resp, err := c.Do(req)
	if err != nil {
		fx.t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		fx.t.Fatalf("GET %s: %d", path, resp.StatusCode)
	}
	out := make(chan string, 64)
	go func() {
		defer resp.Body.Close()
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var ev strings.Builder
		for sc.Scan() {
			line := sc.Text()
			if d, ok := strings.CutPrefix(line, "data: "); ok {
				ev.WriteString(d + "\n")
			} else if line == "" && ev.Len() > 0 {
				select {
				case out <- ev.String():
				default:
				}
				ev.Reset()
			}
		}
	}()
	return out
}

// pollsOf counts the emulator's answers to one route.
func (fx *fixture) pollsOf(route string) int {
	n := 0
	for _, c := range fx.stats().Requests[route] {
		n += c
	}
	return n
}

// TestTwentyTabsOnePoller: 20 tabs on one playground page share one poller
// and cause the API load of one tab; the poller stops when no tab watches.
func TestTwentyTabsOnePoller(t *testing.T) {
	fx := startConsole(t, 50*time.Millisecond)
	id := fx.runningPlayground("shared")
	fx.login()
	route := "GET /api/playgrounds/{id}"
	page := fmt.Sprintf("/events/playgrounds/%d", id)

	// Each poll cycle asks the API once, however many tabs watch: the API
	// requests during 10 cycles with 20 tabs are those of one tab.
	for _, tabs := range []int{1, 20} {
		ctx, cancel := context.WithCancel(context.Background())
		for i := 0; i < tabs; i++ {
			fx.sse(ctx, page)
		}
		waitFor(t, bound, "the poller", func() bool { return fx.run.Pollers() == 1 })
		waitFor(t, bound, "a first poll", func() bool { return fx.run.Polls() > 0 })
		p0, r0 := fx.run.Polls(), fx.pollsOf(route)
		waitFor(t, bound, "10 poll cycles", func() bool { return fx.run.Polls() >= p0+10 })
		p1, r1 := fx.run.Polls(), fx.pollsOf(route)
		if fx.run.Pollers() != 1 {
			t.Errorf("%d tabs: %d pollers, want 1", tabs, fx.run.Pollers())
		}
		if cycles, reqs := p1-p0, int64(r1-r0); reqs > cycles+1 || reqs < cycles-1 {
			t.Errorf("%d tabs: %d API requests in %d poll cycles, want one per cycle", tabs, reqs, cycles)
		}
		cancel()
		waitFor(t, bound, "the poller to stop with its last tab", func() bool { return fx.run.Pollers() == 0 })
	}
}

// TestListRowsLive: the list page's rows change over SSE when a
// playground's status changes, one poll of the list for all rows.
func TestListRowsLive(t *testing.T) {
	fx := startConsole(t, 50*time.Millisecond)
	a := fx.runningPlayground("row-a")
	fx.runningPlayground("row-b")
	fx.login()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	single := fx.pollsOf("GET /api/playgrounds/{id}")
	events := fx.sse(ctx, "/events/playgrounds")
	waitFor(t, bound, "the list poller", func() bool { return fx.run.Pollers() == 1 })
	// Its first poll is the state changes are seen against: a stop made
	// before it would be no change.
	waitFor(t, bound, "the list poller's first poll", func() bool { return fx.run.Polls() >= 1 })
	if st, body := fx.api("POST", fmt.Sprintf("/api/playgrounds/%d/operations", a), map[string]any{"action_type": "stop"}); st/100 != 2 {
		t.Fatalf("stop: %d %v", st, body)
	}
	target := fmt.Sprintf(`target="playground_%d"`, a)
	deadline := time.After(bound)
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatal("the event stream ended")
			}
			if strings.Contains(ev, `action="replace"`) && strings.Contains(ev, target) && strings.Contains(ev, ">stopped<") {
				if n := fx.pollsOf("GET /api/playgrounds/{id}") - single; n != 0 {
					t.Errorf("the list page polled single playgrounds %d times; want list polls only", n)
				}
				return
			}
		case <-deadline:
			t.Fatalf("no replace of the row with status stopped within %s", bound)
		}
	}
}
