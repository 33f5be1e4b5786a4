package supervisor

import (
	"bytes"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/wardenhq/warden/pool"
)

// TestAPIOwnTypes: Warden's API is supervisor and contract. Nothing they
// export (types, fields, function and method signatures, followed
// through every type of theirs) may name a type of the implementation
// packages, which make no compatibility promise.
func TestAPIOwnTypes(t *testing.T) {
	const mod = "github.com/wardenhq/warden/"
	api := []string{mod + "supervisor", mod + "contract"}
	internal := []string{mod + "pool", mod + "ipc", mod + "cgroup", mod + "child", mod + "internal"}

	// The export data of the API packages and their dependencies, as the
	// go command built them (the type-checker reads them, as go/packages
	// would).
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the packages' export data:", err)
	}
	cmd := exec.Command(goCmd, append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}"}, api...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	exports := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if path, file, ok := strings.Cut(line, "\t"); ok && file != "" {
			exports[path] = file
		}
	}
	imp := importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
		b, err := os.ReadFile(exports[path])
		return io.NopCloser(bytes.NewReader(b)), err
	})

	hasPrefix := func(path string, prefixes []string) bool {
		for _, p := range prefixes {
			if path == p || strings.HasPrefix(path, p+"/") {
				return true
			}
		}
		return false
	}
	seen := map[types.Type]bool{}
	var walk func(where string, typ types.Type)
	walkSig := func(where string, sig *types.Signature) {
		for v := range sig.Params().Variables() {
			walk(where+" parameter "+v.Name(), v.Type())
		}
		for v := range sig.Results().Variables() {
			walk(where+" result "+v.Name(), v.Type())
		}
	}
	walk = func(where string, typ types.Type) {
		if seen[typ] {
			return
		}
		seen[typ] = true
		switch typ := typ.(type) {
		case *types.Alias:
			walk(where, types.Unalias(typ))
		case *types.Named:
			pkg := typ.Obj().Pkg()
			if pkg == nil {
				return // error, comparable
			}
			if hasPrefix(pkg.Path(), internal) {
				t.Errorf("%s is %s, a type of an implementation package", where, typ)
				return
			}
			if !hasPrefix(pkg.Path(), api) {
				return // the standard library's
			}
			name := typ.Obj().Name()
			walk(name, typ.Underlying())
			ms := types.NewMethodSet(types.NewPointer(typ))
			for sel := range ms.Methods() {
				if sel.Obj().Exported() {
					walkSig(name+"."+sel.Obj().Name(), sel.Type().(*types.Signature))
				}
			}
		case *types.Pointer:
			walk(where, typ.Elem())
		case *types.Slice:
			walk(where, typ.Elem())
		case *types.Array:
			walk(where, typ.Elem())
		case *types.Chan:
			walk(where, typ.Elem())
		case *types.Map:
			walk(where, typ.Key())
			walk(where, typ.Elem())
		case *types.Signature:
			walkSig(where, typ)
		case *types.Struct:
			for f := range typ.Fields() {
				// An embedded field promotes its exported fields and
				// methods even when its own name is unexported.
				if f.Exported() || f.Embedded() {
					walk(where+"."+f.Name(), f.Type())
				}
			}
		case *types.Interface:
			for m := range typ.Methods() {
				if m.Exported() {
					walk(where+"."+m.Name(), m.Type())
				}
			}
			for e := range typ.EmbeddedTypes() {
				walk(where, e)
			}
		case *types.TypeParam:
			walk(where, typ.Constraint())
		}
	}
	for _, path := range api {
		pkg, err := imp.Import(path)
		if err != nil {
			t.Fatalf("import %s: %v", path, err)
		}
		scope := pkg.Scope()
		for _, name := range scope.Names() {
			obj := scope.Lookup(name)
			if !obj.Exported() {
				continue
			}
			walk(pkg.Name()+"."+name, obj.Type())
		}
	}
}

// TestPoolStatsCopiesEveryField: PoolStats mirrors pool.Stats, and a field
// added to the pool's must not be dropped on the way out.
func TestPoolStatsCopiesEveryField(t *testing.T) {
	var in pool.Stats
	v := reflect.ValueOf(&in).Elem()
	for i := range v.NumField() {
		switch f := v.Field(i); f.Kind() {
		case reflect.Int, reflect.Int64:
			f.SetInt(int64(i + 1))
		case reflect.Uint64:
			f.SetUint(uint64(i + 1))
		case reflect.String:
			f.SetString(strconv.Itoa(i + 1))
		default:
			t.Fatalf("pool.Stats.%s has kind %s, which this test does not fill", v.Type().Field(i).Name, f.Kind())
		}
	}
	profiles := []pool.ProfileStats[profile]{{Key: profile{memory: 32 << 20}, Idle: 1, Busy: 2, Spawning: 3, Waiting: 4},
		{Key: profile{memory: 16 << 20, typescript: true}, Idle: 6}, {Key: profile{memory: 16 << 20}, Idle: 5}}
	stats := poolStats(in, profiles)
	want := []ProfileStats{{MemoryBytes: 16 << 20, Idle: 5}, {MemoryBytes: 16 << 20, TypeScript: true, Idle: 6}, {MemoryBytes: 32 << 20, Idle: 1, Busy: 2, Spawning: 3, Waiting: 4}}
	if !reflect.DeepEqual(stats.ByProfile, want) {
		t.Errorf("ByProfile = %+v, want %+v (smallest profile first, JavaScript before TypeScript)", stats.ByProfile, want)
	}
	out := reflect.ValueOf(stats)
	for i := range v.NumField() {
		name := v.Type().Field(i).Name
		got := out.FieldByName(name)
		if !got.IsValid() {
			t.Errorf("PoolStats has no field %s", name)
			continue
		}
		if !reflect.DeepEqual(got.Interface(), v.Field(i).Interface()) {
			t.Errorf("PoolStats.%s = %v, want %v", name, got.Interface(), v.Field(i).Interface())
		}
	}
	// ByProfile comes from pool.ProfileStats, not pool.Stats.
	if n, m := out.NumField()-1, v.NumField(); n != m {
		t.Errorf("PoolStats has %d fields besides ByProfile, pool.Stats %d", n, m)
	}
}
