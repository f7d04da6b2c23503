package localapi

import (
	"fmt"
	"time"
)

// logEntry is one line of a snapshot, split into its parts.
type logEntry struct {
	Service   string `json:"service"`
	Line      string `json:"line"`
	Source    string `json:"source"` // stdout or stderr
	Timestamp string `json:"timestamp"`
}

// logSnapshotBody is the result of POST /api/playgrounds/{id}/logs:
// service ("all" across services), source (where the lines come from),
// lines as text and the same lines as entries.
type logSnapshotBody struct {
	Service string     `json:"service"`
	Source  string     `json:"source"`
	Lines   []string   `json:"lines"`
	Entries []logEntry `json:"entries"`
}

// logSnapshot is the log snapshot of a playground: the last tail lines
// before at, across its services or of one service. It is deterministic so
// tests and scripts can compare it.
func logSnapshot(pg *playground, ps *playspec, service string, tail int, at time.Time) logSnapshotBody {
	services := []string{"app"}
	if ps != nil {
		services = ps.serviceNames()
	}
	out := logSnapshotBody{Service: "all", Source: "containers", Lines: make([]string, 0, tail), Entries: make([]logEntry, 0, tail)}
	if service != "" {
		services = []string{service}
		out.Service = service
	}
	for i := tail; i >= 1; i-- {
		svc := services[i%len(services)]
		ts := at.Add(-time.Duration(i) * 250 * time.Millisecond).UTC().Format(time.RFC3339Nano)
		msg := logMessage(svc, i)
		out.Lines = append(out.Lines, fmt.Sprintf("%s %s | %s", ts, svc, msg))
		out.Entries = append(out.Entries, logEntry{Service: svc, Line: msg, Source: "stdout", Timestamp: ts})
	}
	return out
}

func logMessage(service string, n int) string {
	switch service {
	case "web":
		paths := []string{"/", "/health", "/api/items", "/login"}
		return fmt.Sprintf("GET %s 200 %dms", paths[n%len(paths)], 2+n%17)
	case "db":
		return fmt.Sprintf("checkpoint complete: wrote %d buffers", 10+n%90)
	case "worker":
		return fmt.Sprintf("job %d done in %dms", 1000+n, 5+n%40)
	}
	return fmt.Sprintf("tick %d", n)
}
