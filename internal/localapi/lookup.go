package localapi

import "strconv"

// resource is what paths address: a playground or a marquee, by numeric id
// or by name.
type resource interface {
	identity() (id int64, name string)
}

func (m *marquee) identity() (int64, string)     { return m.ID, m.Name }
func (pg *playground) identity() (int64, string) { return pg.ID, pg.Name }
func (m *marquee) owner() int64                  { return m.Owner }
func (pg *playground) owner() int64              { return pg.Owner }

// findByRef returns the item whose name is ref, or whose id is ref when ref
// is numeric; the zero value (nil) when there is none.
func findByRef[T resource](items []T, ref string) T {
	numeric := isNumeric(ref)
	for _, it := range items {
		id, name := it.identity()
		if name == ref || (numeric && strconv.FormatInt(id, 10) == ref) {
			return it
		}
	}
	var none T
	return none
}

// findByID returns the item with that id, or nil.
func findByID[T resource](items []T, id int64) T {
	for _, it := range items {
		if got, _ := it.identity(); got == id {
			return it
		}
	}
	var none T
	return none
}

// newNamed reads the body of a create: the wrapper object (kind), and a
// valid name that taken does not already know.
func (rc *reqCtx) newNamed(kind string, taken func(name string) bool) (map[string]any, string, error) {
	obj, err := rc.object(kind)
	if err != nil {
		return nil, "", err
	}
	name, _, err := str(obj, "name")
	if err != nil {
		return nil, "", err
	}
	if err := validateName(name); err != nil {
		return nil, "", err
	}
	if taken(name) {
		return nil, "", invalid("name", "has already been taken")
	}
	return obj, name, nil
}
