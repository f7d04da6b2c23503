package localapi

import (
	"fmt"
	"time"
)

// logLines is the log snapshot of a playground: the last tail lines before
// at, across its services or of one service. It is deterministic so tests
// and scripts can compare it.
func logLines(pg *playground, service string, tail int, at time.Time) []string {
	ps := playspecByID(pg.PlayspecID)
	services := []string{"app"}
	if ps != nil {
		services = ps.serviceNames()
	}
	if service != "" {
		services = []string{service}
	}
	lines := make([]string, 0, tail)
	for i := tail; i >= 1; i-- {
		svc := services[i%len(services)]
		ts := at.Add(-time.Duration(i) * 250 * time.Millisecond).UTC().Format(time.RFC3339Nano)
		lines = append(lines, fmt.Sprintf("%s %s | %s", ts, svc, logMessage(svc, i)))
	}
	return lines
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
