package main

import (
	"bufio"
	"errors"
	"net"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"
)

// hit is one API request as the server saw it: when it arrived (relative to
// the recorder's start) and what status it was answered with.
type hit struct {
	At     time.Duration
	Method string
	Path   string
	Status int
}

// recorder wraps the emulator's handler and keeps a timeline of every /api
// request. This is server-side measurement: it sees exactly what reached the
// server, whatever the client believes it sent.
type recorder struct {
	next http.Handler

	mu    sync.Mutex
	start time.Time
	hits  []hit
}

func newRecorder(next http.Handler) *recorder {
	return &recorder{next: next, start: time.Now()}
}

// reset restarts the clock and forgets what was recorded, so a scenario can
// seed data first and measure from the moment its run begins.
func (r *recorder) reset() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.start = time.Now()
	r.hits = nil
	return r.start
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if !strings.HasPrefix(req.URL.Path, "/api/") {
		r.next.ServeHTTP(w, req)
		return
	}
	r.mu.Lock()
	at := time.Since(r.start)
	r.mu.Unlock()
	sw := &statusWriter{ResponseWriter: w}
	r.next.ServeHTTP(sw, req)
	status := sw.status
	if status == 0 {
		status = http.StatusOK
	}
	r.mu.Lock()
	r.hits = append(r.hits, hit{At: at, Method: req.Method, Path: req.URL.Path, Status: status})
	r.mu.Unlock()
}

// timeline returns the hits sorted by arrival.
func (r *recorder) timeline() timeline {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := append(timeline(nil), r.hits...)
	sort.Slice(out, func(i, j int) bool { return out[i].At < out[j].At })
	return out
}

// statusWriter remembers the status a handler wrote. It forwards Flush and
// Hijack and unwraps for http.ResponseController, so streaming and
// websocket upgrades behind it keep working.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if h, ok := w.ResponseWriter.(http.Hijacker); ok {
		return h.Hijack()
	}
	return nil, nil, errors.New("hijack not supported")
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// timeline is a sorted list of hits with the queries the reports need.
type timeline []hit

// filter keeps the hits for which keep is true.
func (tl timeline) filter(keep func(hit) bool) timeline {
	var out timeline
	for _, h := range tl {
		if keep(h) {
			out = append(out, h)
		}
	}
	return out
}

// between counts hits that arrived in [from, to).
func (tl timeline) between(from, to time.Duration) int {
	lo := sort.Search(len(tl), func(i int) bool { return tl[i].At >= from })
	hi := sort.Search(len(tl), func(i int) bool { return tl[i].At >= to })
	return hi - lo
}

// rate is the mean arrival rate per second in [from, to).
func (tl timeline) rate(from, to time.Duration) float64 {
	if to <= from {
		return 0
	}
	return float64(tl.between(from, to)) / (to - from).Seconds()
}

// peak is the largest number of hits in any window of length w that lies
// inside [from, to). Checking windows that start at from or at a hit is
// enough: sliding a window right until its left edge meets a hit never loses
// one.
func (tl timeline) peak(from, to, w time.Duration) int {
	if to-from < w {
		w = to - from
	}
	best := 0
	consider := func(s time.Duration) {
		if s < from || s+w > to {
			return
		}
		if n := tl.between(s, s+w); n > best {
			best = n
		}
	}
	consider(from)
	lo := sort.Search(len(tl), func(i int) bool { return tl[i].At >= from })
	for i := lo; i < len(tl) && tl[i].At+w <= to; i++ {
		consider(tl[i].At)
	}
	return best
}
