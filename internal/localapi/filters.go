package localapi

import (
	"cmp"
	"net/url"
	"slices"
	"strings"
	"time"
)

// List filters (docs/api.md, Lists). Every filter the platform documents is
// applied, and a value that cannot match anything (a malformed date, an
// unknown status, sort key or referenced resource) is a 422 naming the
// parameter: a filter silently ignored would hand a script that filters
// then deletes every resource of the account. An empty value is no filter,
// as Rails reads a blank parameter. Parameters nobody documents are ignored,
// as the platform ignores them.

// playgroundStatuses are the statuses a playground can show.
var playgroundStatuses = []string{"pending", "creating", "building", "running", "stopped", "stopping", "error", "failed", "destroyed"}

// marqueeStatuses are the statuses a marquee can have.
var marqueeStatuses = []string{"active", "disabled"}

// listFilter is the parsed common part of a list query.
type listFilter struct {
	q, name, status string
	after, before   time.Time // zero: unbounded
	sort            []sortKey
}

type sortKey struct {
	field string
	desc  bool
}

// parseListFilter reads q, name, status (one of statuses), created_after,
// created_before and sort (comma-separated keys of sortable, "-" for
// descending).
func parseListFilter(q url.Values, statuses []string, sortable []string) (listFilter, error) {
	f := listFilter{q: strings.ToLower(q.Get("q")), name: q.Get("name"), status: q.Get("status")}
	if f.status != "" && !slices.Contains(statuses, f.status) {
		return f, invalid("status", "is not included in the list ("+strings.Join(statuses, ", ")+")")
	}
	for _, p := range []struct {
		param string
		into  *time.Time
	}{{"created_after", &f.after}, {"created_before", &f.before}} {
		v := q.Get(p.param)
		if v == "" {
			continue
		}
		t, ok := parseISOTime(v)
		if !ok {
			return f, invalid(p.param, "is not an ISO 8601 date or time (e.g. 2026-01-31 or 2026-01-31T12:00:00Z)")
		}
		*p.into = t
	}
	if v := q.Get("sort"); v != "" {
		for _, k := range strings.Split(v, ",") {
			k = strings.TrimSpace(k)
			key := sortKey{field: strings.TrimPrefix(k, "-"), desc: strings.HasPrefix(k, "-")}
			if !slices.Contains(sortable, key.field) {
				return f, invalid("sort", "has an unknown key "+quoteParam(k)+" (known: "+strings.Join(sortable, ", ")+", each optionally prefixed with -)")
			}
			f.sort = append(f.sort, key)
		}
	}
	return f, nil
}

func quoteParam(s string) string {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return `"` + s + `"`
}

// parseISOTime accepts the ISO 8601 forms a script sends: a date (midnight
// UTC), a date and time with a zone, or without one (UTC).
func parseISOTime(v string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// keeps reports whether an item with that name, status and creation time
// passes the filter. name is exact (case-insensitive), q is "name contains".
func (f *listFilter) keeps(name, status string, created time.Time) bool {
	switch {
	case f.status != "" && status != f.status:
		return false
	case f.name != "" && !strings.EqualFold(name, f.name):
		return false
	case f.q != "" && !strings.Contains(strings.ToLower(name), f.q):
		return false
	case !f.after.IsZero() && !created.After(f.after):
		return false
	case !f.before.IsZero() && !created.Before(f.before):
		return false
	}
	return true
}

// sortBy orders items by the filter's keys (stable, so ties keep the
// default order: by id, oldest first). field returns the value compared for
// a key: a string, an int64 or a time.Time.
func sortBy[T any](items []T, keys []sortKey, field func(T, string) any) {
	if len(keys) == 0 {
		return
	}
	slices.SortStableFunc(items, func(a, b T) int {
		for _, k := range keys {
			c := compareAny(field(a, k.field), field(b, k.field))
			if k.desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return 0
	})
}

func compareAny(a, b any) int {
	switch x := a.(type) {
	case string:
		return cmp.Compare(x, b.(string))
	case int64:
		return cmp.Compare(x, b.(int64))
	case time.Time:
		return x.Compare(b.(time.Time))
	}
	return 0
}

// playgroundSortKeys are the keys sort accepts on playgrounds.
var playgroundSortKeys = []string{"id", "name", "status", "created_at", "updated_at", "expires_at"}

// marqueeSortKeys are the keys sort accepts on marquees.
var marqueeSortKeys = []string{"id", "name", "status", "host", "created_at", "updated_at"}
