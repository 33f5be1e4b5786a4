package server

import (
	"fmt"
	"reflect"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// checkYAML holds a configuration document to the strictness of the
// API's JSON (internal/strictjson), which yaml.v3 alone does not: it
// already refuses an unknown key (KnownFields), a key given twice and
// invalid UTF-8, and matches names exactly, but it takes null (`key:`,
// `key: ~`) for absent, truncates `timeout_ms: 1.5` to 1, reads
// `anonymous: 5` as the string "5" and `yes` as true, and lets a merge
// key (`<<: *base`) give a key a second time. Here every scalar must be
// of its field's YAML type, null is refused, and so are merge keys.
func checkYAML(doc *yaml.Node) error {
	c := yamlChecker{visited: map[yamlVisit]bool{}}
	if doc.Kind == yaml.DocumentNode {
		if len(doc.Content) == 0 {
			return nil
		}
		doc = doc.Content[0]
	}
	return c.check(doc, reflect.TypeFor[Config](), "")
}

// yamlVisit is one node checked as one type: an alias is checked once
// per type, however often it is used (no alias bomb).
type yamlVisit struct {
	n *yaml.Node
	t reflect.Type
}

type yamlChecker struct{ visited map[yamlVisit]bool }

func yamlErr(n *yaml.Node, path, format string, args ...any) error {
	if path == "" {
		path = "the document"
	}
	return fmt.Errorf("config: %s (line %d): %s", path, n.Line, fmt.Sprintf(format, args...))
}

func (c *yamlChecker) check(n *yaml.Node, t reflect.Type, path string) error {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if c.visited[yamlVisit{n, t}] {
		return nil
	}
	c.visited[yamlVisit{n, t}] = true
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return yamlErr(n, path, "null; give a value or leave the key out")
	}
	switch t.Kind() {
	case reflect.Struct:
		if t == reflect.TypeFor[time.Time]() {
			break
		}
		return c.mapping(n, t, path)
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			return yamlErr(n, path, "want a list")
		}
		for i, e := range n.Content {
			if err := c.check(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	}
	return checkScalar(n, t, path)
}

// mapping checks a mapping for the struct t: keys exactly t's yaml
// names, each once, no merge key.
func (c *yamlChecker) mapping(n *yaml.Node, t reflect.Type, path string) error {
	if n.Kind != yaml.MappingNode {
		return yamlErr(n, path, "want a mapping")
	}
	fields := map[string]reflect.Type{}
	var names []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name != "" && name != "-" {
			fields[name] = f.Type
			names = append(names, name)
		}
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		key := k.Value
		switch {
		case k.Kind != yaml.ScalarNode:
			return yamlErr(k, path, "a key must be a plain name")
		case k.ShortTag() == "!!merge":
			return yamlErr(k, path, "merge keys (<<) are refused: with them a key can be given twice; write the keys out")
		case seen[key]:
			return yamlErr(k, path, "key %q given twice", key)
		}
		seen[key] = true
		ft, ok := fields[key]
		if !ok {
			return yamlErr(k, path, "unknown key %q; the keys are %s (names match exactly)", key, strings.Join(names, ", "))
		}
		sub := key
		if path != "" {
			sub = path + "." + key
		}
		if err := c.check(v, ft, sub); err != nil {
			return err
		}
	}
	return nil
}

// checkScalar checks that n is a scalar of the YAML type t's values are
// written in.
func checkScalar(n *yaml.Node, t reflect.Type, path string) error {
	if n.Kind != yaml.ScalarNode {
		return yamlErr(n, path, "want a single value, got a %s", map[yaml.Kind]string{yaml.MappingNode: "mapping", yaml.SequenceNode: "list"}[n.Kind])
	}
	var want []string
	switch {
	case t == reflect.TypeFor[time.Duration]():
		want = []string{"!!str"} // 5s, 100ms
	case t.Kind() == reflect.String:
		want = []string{"!!str"}
	case t.Kind() == reflect.Bool:
		want = []string{"!!bool"}
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64:
		want = []string{"!!int"}
	case t.Kind() == reflect.Float32 || t.Kind() == reflect.Float64:
		want = []string{"!!int", "!!float"}
	default:
		return nil
	}
	for _, w := range want {
		if n.ShortTag() == w {
			return nil
		}
	}
	what := map[string]string{"!!str": "a string (quote it)", "!!bool": "true or false", "!!int": "an integer"}[want[0]]
	if t.Kind() == reflect.Float64 || t.Kind() == reflect.Float32 {
		what = "a number"
	}
	if t == reflect.TypeFor[time.Duration]() {
		what = "a duration like 5s"
	}
	return yamlErr(n, path, "want %s, got %s %q", what, strings.TrimPrefix(n.ShortTag(), "!!"), n.Value)
}
