package cable

import (
	"fmt"
	"time"
)

// LogMessage is the payload of one log line on the wire.
type LogMessage struct {
	Type      string `json:"type"` // "log"
	Seq       int64  `json:"seq"`
	Line      string `json:"line"`
	Service   string `json:"service"`
	Stream    string `json:"stream"`
	Timestamp string `json:"timestamp"`
}

// playgroundLog is one playground's deterministic log: line n exists from
// epoch + n×interval on, and its content depends only on (id, n).
type playgroundLog struct {
	id       int64
	services []string
	epoch    time.Time
	interval time.Duration
}

// logFor returns the log of playground id, fixing its epoch on first use
// so that Backlog lines already exist.
func (s *Server) logFor(id int64, services []string) playgroundLog {
	s.mu.Lock()
	defer s.mu.Unlock()
	epoch, ok := s.epochs[id]
	if !ok {
		epoch = s.cfg.Now().Add(-time.Duration(s.cfg.Backlog) * s.cfg.LineInterval)
		s.epochs[id] = epoch
	}
	return playgroundLog{id: id, services: services, epoch: epoch, interval: s.cfg.LineInterval}
}

// produced is the highest sequence number that exists at now.
func (l playgroundLog) produced(now time.Time) int64 {
	if now.Before(l.epoch) {
		return 0
	}
	return int64(now.Sub(l.epoch) / l.interval)
}

// oldest is the lowest sequence number still retained at now.
func (l playgroundLog) oldest(now time.Time) int64 {
	return max(1, l.produced(now)-Retention+1)
}

// dueAt is when line n comes into existence.
func (l playgroundLog) dueAt(n int64) time.Time {
	return l.epoch.Add(time.Duration(n) * l.interval)
}

// hash is the seed of everything about line n.
func (l playgroundLog) hash(n int64) uint64 {
	return mix(uint64(l.id)*0x100000001b3 ^ uint64(n))
}

// service is the service that printed line n.
func (l playgroundLog) service(n int64) string {
	if len(l.services) == 0 {
		return "app"
	}
	return l.services[l.hash(n)%uint64(len(l.services))]
}

// line builds line n.
func (l playgroundLog) line(n int64) LogMessage {
	h := l.hash(n)
	msg := LogMessage{Type: "log", Seq: n, Service: l.service(n), Stream: "stdout",
		Timestamp: l.dueAt(n).UTC().Format(time.RFC3339Nano)}
	paths := [...]string{"/", "/health", "/api/items", "/login", "/assets/app.js"}
	switch (h >> 8) % 10 {
	case 0:
		msg.Stream = "stderr"
		msg.Line = fmt.Sprintf("WARN slow request path=%s duration_ms=%d", paths[(h>>16)%5], 500+(h>>24)%1500)
	case 1:
		msg.Line = fmt.Sprintf("INFO heartbeat uptime_lines=%d", n)
	default:
		msg.Line = fmt.Sprintf("INFO GET %s status=200 duration_ms=%d", paths[(h>>16)%5], 1+(h>>24)%40)
	}
	return msg
}

// matches reports whether line n belongs to a stream filtered to service
// ("" → every service).
func (l playgroundLog) matches(n int64, service string) bool {
	return service == "" || l.service(n) == service
}

// mix is splitmix64's finalizer: a cheap, well-spread hash.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
