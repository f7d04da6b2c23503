package client

import (
	"net/http"
	"strings"
)

// readOnlyPostSuffixes are the POSTs under /api/{playgrounds,marquees}/{ref}
// that only read or test (docs/contract.md §10): a status refresh, a logs
// snapshot, a connection test. They change nothing a user would confirm.
var readOnlyPostSuffixes = map[string]string{
	"status":           "playgrounds",
	"logs":             "playgrounds",
	"connection_tests": "marquees",
}

// ReadOnlyPost reports whether method and path (under /api, as APIPath
// gives it, with or without a query) are one of the POSTs that only read
// or test.
func ReadOnlyPost(method, path string) bool {
	if !strings.EqualFold(method, http.MethodPost) {
		return false
	}
	p, _, _ := strings.Cut(path, "?")
	segs := strings.Split(strings.Trim(strings.TrimPrefix(p, "/api/"), "/"), "/")
	return len(segs) == 3 && segs[1] != "" && readOnlyPostSuffixes[segs[2]] == segs[0]
}

// Mutates reports whether a request of method to path (under /api) may
// change something: any method but GET, HEAD and OPTIONS, except the POSTs
// that only read or test.
func Mutates(method, path string) bool {
	return isMutationMethod(strings.ToUpper(method)) && !ReadOnlyPost(method, path)
}
