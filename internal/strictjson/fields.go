package strictjson

// The names of objects: those a struct declares (its json tags) and
// those one object has given so far.

import (
	"cmp"
	"iter"
	"reflect"
	"strings"
	"sync"
)

// names is the set of member names of one object: a slice while small
// (most objects), a map past that.
type names struct {
	few  []string
	many map[string]struct{}
}

func (n *names) add(name string) bool {
	if n.many != nil {
		if _, dup := n.many[name]; dup {
			return false
		}
		n.many[name] = struct{}{}
		return true
	}
	for _, x := range n.few {
		if x == name {
			return false
		}
	}
	n.few = append(n.few, name)
	if len(n.few) > 16 {
		n.many = make(map[string]struct{}, 32)
		for _, x := range n.few {
			n.many[x] = struct{}{}
		}
		n.few = nil
	}
	return true
}

// fieldCache maps a struct type to its fields by JSON name.
var fieldCache sync.Map // reflect.Type -> map[string]reflect.Type

// fieldsOf lists t's fields as encoding/json names them: the json tag's
// name, else the Go name; "-" and unexported fields are not fields.
// An untagged embedded struct's fields are t's (encoding/json's
// dominance rules for clashing names are not: the API's types have no
// clash).
func fieldsOf(t reflect.Type) map[string]reflect.Type {
	if m, ok := fieldCache.Load(t); ok {
		return m.(map[string]reflect.Type)
	}
	m := map[string]reflect.Type{}
	for name, ft := range jsonFields(t) {
		m[name] = ft
	}
	fieldCache.Store(t, m)
	return m
}

// jsonFields yields t's fields by JSON name, in declaration order.
func jsonFields(t reflect.Type) iter.Seq2[string, reflect.Type] {
	return func(yield func(string, reflect.Type) bool) {
		for f := range t.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			embedded := f.Type
			if embedded.Kind() == reflect.Pointer {
				embedded = embedded.Elem()
			}
			switch {
			case name == "-":
			case f.Anonymous && name == "" && embedded.Kind() == reflect.Struct:
				for n, ft := range jsonFields(embedded) {
					if !yield(n, ft) {
						return
					}
				}
			case f.IsExported() && !yield(cmp.Or(name, f.Name), f.Type):
				return
			}
		}
	}
}

// fieldList is t's field names in declaration order, for a message.
func fieldList(t reflect.Type) string {
	var out []string
	for name := range jsonFields(t) {
		out = append(out, name)
	}
	return strings.Join(out, ", ")
}
