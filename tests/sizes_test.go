package tests

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Size bounds of the code (generated code and tests aside): a file over
// maxFileLines or a function over maxFuncLines is split along its
// concerns, not cut in half.
const (
	maxFileLines = 500
	maxFuncLines = 80
)

// TestSizes holds every non-test Go file of the module to maxFileLines
// and every function in it to maxFuncLines.
func TestSizes(t *testing.T) {
	root := docsModuleRoot(t)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if name := d.Name(); rel != "." && (strings.HasPrefix(name, ".") || name == "bin" || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.Contains(src, []byte("\n// Code generated ")) || bytes.HasPrefix(src, []byte("// Code generated ")) {
			return nil
		}
		if n := bytes.Count(src, []byte("\n")); n > maxFileLines {
			t.Errorf("%s: %d lines, over %d", rel, n, maxFileLines)
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, src, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok {
				if n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1; n > maxFuncLines {
					t.Errorf("%s: func %s is %d lines, over %d", rel, fn.Name.Name, n, maxFuncLines)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
