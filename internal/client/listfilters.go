package client

import (
	"net/url"
	"strings"
)

// filteredQuery is listQuery (page, per_page, status, name) plus the other
// filters of o. A filter the caller set is always sent: a server that does
// not know one answers 422 rather than a list it did not filter.
func filteredQuery(path string, o ListOptions) string {
	ref := listQuery(path, o)
	q := url.Values{}
	for _, f := range []struct{ key, value string }{
		{"q", o.Q}, {"playspec_id", o.PlayspecID}, {"marquee_id", o.MarqueeID},
		{"created_after", o.CreatedAfter}, {"created_before", o.CreatedBefore}, {"sort", o.Sort},
	} {
		if f.value != "" {
			q.Set(f.key, f.value)
		}
	}
	for k, v := range o.Filters {
		if v != "" {
			q.Set(k, v)
		}
	}
	if len(q) == 0 {
		return ref
	}
	sep := "?"
	if strings.Contains(ref, "?") {
		sep = "&"
	}
	return ref + sep + q.Encode()
}
