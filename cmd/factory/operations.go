package factory

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/config"
	"github.com/fibegg/fibe/internal/reliability"
	"github.com/fibegg/fibe/internal/statefile"
)

// The operations record: for each operation a server accepted (answered
// 202) on this machine, the method and path of the request that started
// it, by API and request id. The poll answer says nothing of what the
// operation was (docs/api.md), so this is how `fibe ops get` and `fibe ops
// wait` print a result as the command that started the operation would.
// It is kept in operations.json in the state directory (mode 0600; paths
// without their query, whose values may be secrets), entries as long as
// the journal's (reliability.JournalMaxAge) and at most maxOperations of
// them. An operation started elsewhere is simply not in it.
const (
	operationsFile = "operations.json"
	maxOperations  = 256
)

// operation is one entry of the record.
type operation struct {
	API       string    `json:"api"` // the --api-url value ("local" for the emulator)
	RequestID string    `json:"request_id"`
	Method    string    `json:"method"`
	Path      string    `json:"path"`
	At        time.Time `json:"at"`
}

// rememberOperation records that api accepted the request method path as
// operation id.
func rememberOperation(stateDir, api, id, method, path string, now time.Time) error {
	if id == "" {
		return nil
	}
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return err
	}
	file := filepath.Join(stateDir, operationsFile)
	unlock, err := statefile.Lock(file + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	list := readOperations(file)
	keep := make([]operation, 0, len(list)+1)
	for _, o := range list {
		if now.Sub(o.At) < reliability.JournalMaxAge && (o.API != api || o.RequestID != id) {
			keep = append(keep, o)
		}
	}
	path, _, _ = strings.Cut(path, "?")
	keep = append(keep, operation{API: api, RequestID: id, Method: strings.ToUpper(method), Path: path, At: now.UTC()})
	if len(keep) > maxOperations {
		keep = keep[len(keep)-maxOperations:]
	}
	data, err := json.Marshal(keep)
	if err != nil {
		return err
	}
	return statefile.WriteAtomic(file, data, 0o600, false)
}

// lookupOperation finds what operation id of api was, if this machine
// started it.
func lookupOperation(stateDir, api, id string) (operation, bool) {
	for _, o := range readOperations(filepath.Join(stateDir, operationsFile)) {
		if o.API == api && o.RequestID == id {
			return o, true
		}
	}
	return operation{}, false
}

// recordAPI is the name of cfg's API in the record: the --api-url value,
// "local" for the emulator whatever base URL its client uses.
func recordAPI(apiURL string) string {
	if strings.TrimSuffix(apiURL, "/") == cmdutil.LocalBaseURL {
		return config.LocalAPI
	}
	return apiURL
}

// readOperations reads the record; a missing or unreadable one is empty
// (the record only chooses how a result is printed).
func readOperations(file string) []operation {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var list []operation
	if json.Unmarshal(data, &list) != nil {
		return nil
	}
	return list
}
