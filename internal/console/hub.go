package console

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// poller finds what changed on one watched page since its last poll.
type poller interface {
	// poll asks the API once and returns the Turbo Streams to send.
	poll(ctx context.Context) []string
	// snapshot is what a new watcher needs to catch up: the last state seen.
	snapshot() []string
}

// hub runs one poller per watched page (topic), shared by every tab
// watching it, and fans its Turbo Streams out. A topic's poller starts with
// its first watcher and stops with its last.
type hub struct {
	ctx      context.Context
	interval time.Duration
	logf     func(string, ...any)

	polls atomic.Int64 // poll cycles run, all topics

	mu     sync.Mutex
	topics map[string]*topic
	// onPublish, when set, sees each published message (benchmarks).
	onPublish func(key, msg string, at time.Time)
	wg        sync.WaitGroup
}

type topic struct {
	key    string
	p      poller
	subs   map[*watcher]struct{}
	cancel context.CancelFunc
}

// watcher is one tab's SSE connection.
type watcher struct {
	ch     chan string
	closed bool
}

const watcherBuffer = 256

func newHub(ctx context.Context, interval time.Duration, logf func(string, ...any)) *hub {
	return &hub{ctx: ctx, interval: interval, logf: logf, topics: map[string]*topic{}}
}

// watch subscribes to key, starting its poller (made by mk) when it is the
// first watcher. unwatch must be called once.
func (h *hub) watch(key string, mk func() poller) (w *watcher, unwatch func()) {
	w = &watcher{ch: make(chan string, watcherBuffer)}
	h.mu.Lock()
	t := h.topics[key]
	if t == nil {
		ctx, cancel := context.WithCancel(h.ctx)
		t = &topic{key: key, p: mk(), subs: map[*watcher]struct{}{}, cancel: cancel}
		h.topics[key] = t
		h.wg.Add(1)
		go h.run(ctx, t)
	} else {
		for _, m := range t.p.snapshot() {
			w.ch <- m
		}
	}
	t.subs[w] = struct{}{}
	h.mu.Unlock()
	return w, func() { h.unwatch(t, w) }
}

func (h *hub) unwatch(t *topic, w *watcher) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(t.subs, w)
	if !w.closed {
		w.closed = true
		close(w.ch)
	}
	if len(t.subs) == 0 && h.topics[t.key] == t {
		delete(h.topics, t.key)
		t.cancel()
	}
}

// run is one topic's poller: poll, publish, wait, until no tab watches.
func (h *hub) run(ctx context.Context, t *topic) {
	defer h.wg.Done()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		msgs := t.p.poll(ctx)
		h.polls.Add(1)
		for _, m := range msgs {
			h.publish(t.key, m)
		}
		timer.Reset(h.interval)
	}
}

// publish sends msg to every watcher of key. A watcher too slow to keep
// up is disconnected (its EventSource reconnects and catches up).
func (h *hub) publish(key, msg string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.onPublish != nil {
		h.onPublish(key, msg, time.Now())
	}
	t := h.topics[key]
	if t == nil {
		return
	}
	for w := range t.subs {
		if w.closed {
			continue
		}
		select {
		case w.ch <- msg:
		default:
			w.closed = true
			close(w.ch)
		}
	}
}

// running is how many pollers run.
func (h *hub) running() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.topics)
}

// watchers is how many connections watch key now.
func (h *hub) watchers(key string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	if t := h.topics[key]; t != nil {
		return len(t.subs)
	}
	return 0
}

// wait waits for the pollers after the hub's context ended.
func (h *hub) wait() { h.wg.Wait() }
