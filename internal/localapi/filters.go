package localapi

import (
	"cmp"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// List queries (docs/api.md, Lists), as the platform reads them: page
// (default 1), per_page (default 25, clamped to 100), sort as
// <column>_asc or <column>_desc (default created_at_desc; an unknown value
// is 400 INVALID_SORT), name-like filters match substrings, q searches a
// resource's text columns, created_after/created_before are inclusive. A
// value that can never be read (a malformed date or boolean, an unknown
// status) is a 422 naming the parameter: a filter silently ignored would
// hand a script that filters then deletes every resource of the account.
// An empty value is no filter, as Rails reads a blank parameter.
// Parameters nobody documents are ignored, as the platform ignores them.

// playgroundStatuses are the statuses a playground can show.
var playgroundStatuses = []string{"pending", "creating", "building", "running", "stopped", "stopping", "error", "failed", "destroyed", "completed"}

// marqueeStatuses are the statuses a marquee can have.
var marqueeStatuses = []string{"active", "disabled"}

// listSpec is what one list route accepts.
type listSpec struct {
	sorts       []string // sortable columns
	defaultSort string   // "" → created_at_desc
	statuses    []string // values of the status filter; nil: status is not a filter
}

// listQuery is a parsed list query.
type listQuery struct {
	page, perPage int
	q, status     string
	after, before time.Time // zero: unbounded
	sort          sortKey
	values        url.Values
}

type sortKey struct {
	field string
	desc  bool
}

// parseListQuery reads the common parameters of a list.
func parseListQuery(q url.Values, spec listSpec) (listQuery, error) {
	lq := listQuery{q: strings.ToLower(q.Get("q")), status: q.Get("status"), values: q}
	var err error
	if lq.page, lq.perPage, err = pageParams(q); err != nil {
		return lq, err
	}
	if spec.statuses != nil && lq.status != "" && !slices.Contains(spec.statuses, lq.status) {
		return lq, invalid("status", "is not included in the list ("+strings.Join(spec.statuses, ", ")+")")
	}
	for _, p := range []struct {
		param string
		into  *time.Time
	}{{"created_after", &lq.after}, {"created_before", &lq.before}} {
		v := q.Get(p.param)
		if v == "" {
			continue
		}
		t, ok := parseISOTime(v)
		if !ok {
			return lq, invalid(p.param, "is not an ISO 8601 date or time (e.g. 2026-01-31 or 2026-01-31T12:00:00Z)")
		}
		*p.into = t
	}
	sortParam := q.Get("sort")
	if sortParam == "" {
		sortParam = spec.defaultSort
	}
	if sortParam == "" {
		sortParam = "created_at_desc"
	}
	if lq.sort, err = parseSort(sortParam, spec.sorts); err != nil {
		return lq, err
	}
	return lq, nil
}

// parseSort reads <column>_asc or <column>_desc.
func parseSort(v string, columns []string) (sortKey, error) {
	var k sortKey
	switch {
	case strings.HasSuffix(v, "_asc"):
		k.field = strings.TrimSuffix(v, "_asc")
	case strings.HasSuffix(v, "_desc"):
		k.field, k.desc = strings.TrimSuffix(v, "_desc"), true
	}
	if k.field == "" || !slices.Contains(columns, k.field) {
		valid := make([]string, 0, 2*len(columns))
		for _, c := range columns {
			valid = append(valid, c+"_asc", c+"_desc")
		}
		return k, newAPIError(http.StatusBadRequest, codeInvalidSort,
			"sort "+quoteParam(v)+" is not valid (valid: "+strings.Join(valid, ", ")+")",
			map[string]any{"field": "sort", "valid": valid})
	}
	return k, nil
}

// has reports whether value passes the substring filter param (case
// insensitive); an absent param passes everything.
func (lq *listQuery) has(param, value string) bool {
	want := lq.values.Get(param)
	return want == "" || strings.Contains(strings.ToLower(value), strings.ToLower(want))
}

// search reports whether q is absent or found in one of texts.
func (lq *listQuery) search(texts ...string) bool {
	if lq.q == "" {
		return true
	}
	for _, t := range texts {
		if strings.Contains(strings.ToLower(t), lq.q) {
			return true
		}
	}
	return false
}

// inTime reports whether created is within created_after and
// created_before, both inclusive.
func (lq *listQuery) inTime(created time.Time) bool {
	return (lq.after.IsZero() || !created.Before(lq.after)) && (lq.before.IsZero() || !created.After(lq.before))
}

// hasStatus reports whether the status filter is absent or equal.
func (lq *listQuery) hasStatus(status string) bool { return lq.status == "" || lq.status == status }

// boolParam reads an optional boolean parameter; nil when absent.
func boolParam(q url.Values, name string) (*bool, error) {
	v := q.Get(name)
	if v == "" {
		return nil, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return nil, invalid(name, "is not a boolean (true or false)")
	}
	return &b, nil
}

// listAnswer sorts items (given oldest first) by the query's sort and
// answers its page in the list envelope; descending reverses the order
// whole, so equal keys come newest first. field returns the value of a
// sortable column: a string, an int64, a bool or a time.Time.
func listAnswer[T any](items []T, lq listQuery, field func(T, string) any) *reply {
	sorted := slices.Clone(items)
	slices.SortStableFunc(sorted, func(a, b T) int {
		return compareAny(field(a, lq.sort.field), field(b, lq.sort.field))
	})
	if lq.sort.desc {
		slices.Reverse(sorted)
	}
	return paginate(sorted, lq.page, lq.perPage)
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

func compareAny(a, b any) int {
	switch x := a.(type) {
	case string:
		return cmp.Compare(x, b.(string))
	case int64:
		return cmp.Compare(x, b.(int64))
	case time.Time:
		return x.Compare(b.(time.Time))
	case bool:
		y := b.(bool)
		switch {
		case x == y:
			return 0
		case !x:
			return -1
		}
		return 1
	}
	return 0
}

// playgroundSorts are the columns sort accepts on playgrounds.
var playgroundSorts = []string{"id", "name", "status", "created_at", "updated_at", "expires_at"}

// marqueeSorts are the columns sort accepts on marquees.
var marqueeSorts = []string{"id", "name", "status", "host", "created_at", "updated_at"}
