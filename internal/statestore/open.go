package statestore

import (
	"fmt"
	"io"
	"time"

	"github.com/fibegg/fibe/internal/reliability"
)

// Options configure Open.
type Options struct {
	URL      string // the state_store setting; "" or "file" → the file store
	StateDir string // the file store's directory (and the fallback's)
	// Warnings receives the one warning line of a fallback (stderr).
	Warnings io.Writer
	// Debug, when set, receives a trace of every store call (--debug).
	Debug io.Writer
	// Timeout bounds each store call; 0 → DefaultTimeout (200 ms).
	Timeout time.Duration
}

// Open returns the store of an invocation: the file store under StateDir,
// or the Redis store named by URL with the file store as its fallback.
func Open(o Options) (reliability.Store, error) {
	local := reliability.NewFileStore(o.StateDir)
	if !isRedisURL(o.URL) {
		return local, nil
	}
	r, err := OpenRedis(o.URL, o.Timeout)
	if err != nil {
		return nil, err
	}
	if o.Debug != nil {
		w := o.Debug
		r.Trace = func(format string, args ...any) { fmt.Fprintf(w, "[debug] "+format+"\n", args...) }
	}
	return &Failover{Primary: r, Local: local, Warn: func(err error) {
		if o.Warnings != nil {
			fmt.Fprintf(o.Warnings, "warning: state store %s failed (%s); using the file store for this command\n",
				r.Describe(), oneLine(redactErr(err, o.URL)))
		}
	}}, nil
}

func oneLine(s string) string {
	out := []rune{}
	for _, r := range s {
		if r == '\n' || r == '\r' {
			r = ' '
		}
		out = append(out, r)
	}
	if len(out) > 200 {
		out = append(out[:200], '…')
	}
	return string(out)
}
