package tests

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// TestDocNames holds the documents to the tree: every file path and
// every Go identifier that README.md, ARCHITECTURE.md, RATIONALE.md or a
// docs/*.md page names in backticks must exist. Code blocks (``` fences)
// are not read. A span is read by these rules, the first that applies:
//
//  1. A path: a span without spaces that holds a "/" and whose first
//     segment is an entry of the module root (`child/engine/host.go`,
//     `deploy/systemd/`) must exist, relative to the module root. Braces
//     expand (`tests/testdata/{a,b}.js`) and globs must match something
//     (`tests/testdata/loop_in_*.js`). bin/ and .cache/ are make's
//     outputs and are not checked; a path whose first segment is no
//     entry of the root (`text/event-stream`, `log/slog`, `/proc/self/maps`)
//     is not a path of this repository and is not checked either.
//  2. A file name: a span like `convert.go` or `warden.proto` (one of the
//     extensions in fileExt) must be the name of some file in the module.
//     In paths and file names, the words in placeholders (`NAME.js`,
//     `internal/attacks/corpus/CATEGORY/NAME.js`) stand for any name.
//  3. A test: `TestXxx`, `FuzzXxx`, `BenchmarkXxx` (a trailing * is a
//     prefix: `TestSeccomp*`) must be a function of some _test.go file.
//  4. A qualified name: `pkg.Name` or `pkg.Type.Member`, where pkg is the
//     name of one of the module's packages, must be declared in a
//     package of that name (Member: a method or a struct field of Type).
//     A trailing or inner "()" and a leading "*" are dropped
//     (`Stats().Startup`, `*client.APIError`).
//  5. An exported name: `Name` or `Type.Member` (Name starting with a
//     capital, with lower-case letters in it) must be declared somewhere
//     in the module, as a top-level name, a method or a struct field,
//     unless it is in foreign: JavaScript's, the kernel's, systemd's or
//     another module's names that the documents use bare.
//  6. A private name: a bare camelCase word (`enterHost`) declared
//     unexported in the module is refused: the documents name files,
//     packages and exported identifiers, which stay put when internals
//     are renamed.
//
// Outside backticks, one more rule: a section named after a document,
// as in RATIONALE.md, "Strict JSON decoding" or BENCHMARKS.md ("The
// soak"), must be the start of a heading of that document.
//
// Anything else (JSON fields, flags, commands, ALL_CAPS constants, C
// names with underscores, standard library names such as `json.Valid`)
// is not checked.
func TestDocNames(t *testing.T) {
	root := docsModuleRoot(t)
	idx := indexModule(t, root)
	var missing []string
	for _, doc := range docFiles(t, root) {
		src, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range idx.check(string(src)) {
			missing = append(missing, fmt.Sprintf("%s:%d: `%s`: %s", doc, p.line, p.span, p.why))
		}
	}
	if len(missing) > 0 {
		t.Errorf("the documents name %d things that do not exist; rename them to what they are now (or, for another project's name used bare, add it to foreign in tests/docs_test.go):\n\t%s",
			len(missing), strings.Join(missing, "\n\t"))
	}
}

// TestDocNamesFindsWhatIsMissing shows that TestDocNames fails when a
// document names something that does not exist, and passes what does.
func TestDocNamesFindsWhatIsMissing(t *testing.T) {
	idx := indexModule(t, docsModuleRoot(t))
	exist := "`tests/docs_test.go`, `deploy/systemd/`, `tests/testdata/{breakout,array_growth}.js`, " +
		"`internal/attacks/corpus/CATEGORY/NAME.js`, `convert.go`, `TestDocNames`, `TestDocNames*`, " +
		"`contract.Limits`, `contract.Limits.WithDefaults`, `*contract.Error`, `Limits.CheckResolved`, " +
		"`supervisor.Config.PoolSize`, `DefaultLimits`, `Promise.prototype`, `json.Valid`, `text/event-stream`, " +
		"`timeout_ms`, `SIGKILL`, `bin/warden`, `/proc/self/pagemap`\n" +
		"```\n`tests/in_a_code_block.go`\n```\n"
	if got := idx.check(exist); len(got) > 0 {
		t.Errorf("names that exist were reported missing: %+v", got)
	}
	absent := []string{
		"tests/no_such_file.go", "deploy/no_such_dir/", "tests/testdata/{breakout,no_such_script}.js",
		"no_such_file.go", "TestNoSuchTest", "FuzzNoSuchTarget*", "contract.NoSuchName",
		"contract.Limits.NoSuchMember", "supervisor.NoSuchConfig", "NoSuchIdentifier",
		"Limits.NoSuchMethod", "docsModuleRoot", "contract.DefaultCaps.NoSuchField",
	}
	for _, p := range idx.check("As RATIONALE.md, \"Strict JSON\ndecoding\" says, and\nnot as RATIONALE.md, \"No such section\" does.") {
		if p.span != `RATIONALE.md, "No such section"` || p.line != 3 {
			t.Errorf("the one missing section is RATIONALE.md, \"No such section\" on line 3, but got %+v", p)
		}
	}
	if got := idx.check("RATIONALE.md, \"No such section\""); len(got) != 1 {
		t.Errorf("a missing section was not reported: %+v", got)
	}
	var text strings.Builder
	for _, s := range absent {
		text.WriteString("a line naming `" + s + "`\n")
	}
	got := idx.check(text.String())
	var reported []string
	for _, p := range got {
		reported = append(reported, p.span)
	}
	for _, s := range absent {
		if !slices.Contains(reported, s) {
			t.Errorf("`%s` does not exist, but was not reported (reported: %q)", s, reported)
		}
	}
}

// fileExt are the extensions a bare file name is recognised by.
var fileExt = regexp.MustCompile(`^[\w.-]+\.(go|md|js|yaml|yml|proto|sh|patch|json|service|socket|mod|sum|snap|html)$`)

// placeholders stand, in a path or file name, for any name.
var placeholders = []string{"CATEGORY", "NAME", "FILE", "FLAVOUR", "KEY", "VERSION"}

// built are the root folders that make writes; they are in .gitignore.
var built = []string{"bin", ".cache"}

// foreign are names the documents use bare that are not Warden's Go
// identifiers: JavaScript's built-ins and QuickJS's, Linux's, systemd's,
// wazero's, go-plugin's, gRPC's and the standard library's.
var foreign = map[string]bool{
	// JavaScript and QuickJS.
	"Promise": true, "Math": true, "Error": true, "Function": true, "Reflect": true, "Symbol": true,
	"InternalError": true, "RangeError": true, "TypeError": true, "ReferenceError": true, "SyntaxError": true,
	"DOMException": true, "TextEncoder": true, "CallSite": true, "JSString": true, "Date": true,
	"EventSource": true, "WebAssembly": true, "Map": true, "Set": true, "Object": true, "Array": true,
	// The web platform's (child/engine/web/40-events.js, 50-structured-clone.js).
	"EventTarget": true, "AbortController": true, "AbortSignal": true, "DataCloneError": true, "Proxy": true, "String": true,
	"ArrayBuffer": true, "SharedArrayBuffer": true,
	"Crypto": true, "CryptoKey": true, "SubtleCrypto": true,
	"URLSearchParams": true, "RegExp": true,
	"Intl": true, "NumberFormat": true, "PluralRules": true, "DateTimeFormat": true, "Collator": true,
	"RelativeTimeFormat": true, "ListFormat": true, "DisplayNames": true, "Segmenter": true, "BigInt": true,
	"roundingMode": true, "supportedLocalesOf": true, "Number": true, "useGrouping": true,
	"TextDecoder": true, "Buffer": true, "DataView": true, "Uint8Array": true, "Uint16Array": true,
	"InvalidCharacterError": true,
	// The kernel, systemd, HTTP.
	"CapabilityBoundingSet": true, "WatchdogSec": true, "CacheDirectory": true, "KillMode": true,
	"Delegate": true, "NoNewPrivs": true, "Seccomp": true,
	// The standard library's, wazero's, go-plugin's, gRPC's, containerd's.
	"ReadHeaderTimeout": true, "ProcessState": true, "SysProcAttr": true, "Credential": true,
	"GRPCDialOptions": true, "WithMemoryLimitPages": true, "MaxCallRecvMsgSize": true,
	"RejectUnknownMembers": true, "CachingEngine": true, "CompileModule": true, "CompileModuleWithSHA256": true, "Memory": true, "Runtime": true,
	"Decoder": true, "JSValue": true, "Allow": true,
}

// docFiles are the documents the test reads, relative to root.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	docs := []string{"README.md", "ARCHITECTURE.md", "RATIONALE.md"}
	for _, p := range pages {
		docs = append(docs, filepath.Join("docs", filepath.Base(p)))
	}
	return docs
}

// docsModuleRoot is the directory of go.mod, above the test's.
func docsModuleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// moduleIndex is what the module holds, as the rules look it up.
type moduleIndex struct {
	root      string
	rootNames map[string]bool            // entries of the module root
	fileNames map[string]bool            // base names of every file
	files     []string                   // every file, relative to root, slash-separated
	pkgDecls  map[string]map[string]bool // package name -> its top-level names
	members   map[string]map[string]bool // type name -> its methods and fields
	exported  map[string]bool            // every exported name, member or not
	private   map[string]bool            // every unexported top-level name
	tests     []string                   // Test/Fuzz/Benchmark/Example functions
}

// indexModule walks the module once: its files, and the declarations of
// every .go file, whatever its build constraints.
func indexModule(t *testing.T, root string) *moduleIndex {
	t.Helper()
	idx := &moduleIndex{
		root: root, rootNames: map[string]bool{}, fileNames: map[string]bool{},
		pkgDecls: map[string]map[string]bool{}, members: map[string]map[string]bool{},
		exported: map[string]bool{}, private: map[string]bool{},
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !slices.Contains(built, e.Name()) && e.Name() != ".git" {
			idx.rootNames[e.Name()] = true
		}
	}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel != "." && (d.Name() == ".git" || slices.Contains(built, rel) || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		idx.files = append(idx.files, filepath.ToSlash(rel))
		idx.fileNames[d.Name()] = true
		if !strings.HasSuffix(path, ".go") || strings.Contains(filepath.ToSlash(rel), "testdata/") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("parsing %s: %w", rel, err)
		}
		idx.addFile(f, strings.HasSuffix(path, "_test.go"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return idx
}

// addFile records one file's declarations.
func (idx *moduleIndex) addFile(f *ast.File, isTest bool) {
	pkg := f.Name.Name
	if idx.pkgDecls[pkg] == nil {
		idx.pkgDecls[pkg] = map[string]bool{}
	}
	top := func(name string) {
		idx.pkgDecls[pkg][name] = true
		if ast.IsExported(name) {
			idx.exported[name] = true
		} else {
			idx.private[name] = true
		}
	}
	member := func(typ, name string) {
		if idx.members[typ] == nil {
			idx.members[typ] = map[string]bool{}
		}
		idx.members[typ][name] = true
		if ast.IsExported(name) {
			idx.exported[name] = true
		}
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				top(d.Name.Name)
				if isTest && regexp.MustCompile(`^(Test|Fuzz|Benchmark|Example)`).MatchString(d.Name.Name) {
					idx.tests = append(idx.tests, d.Name.Name)
				}
			} else if len(d.Recv.List) == 1 {
				member(receiverName(d.Recv.List[0].Type), d.Name.Name)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					top(s.Name.Name)
					for _, m := range typeMembers(s.Type) {
						member(s.Name.Name, m)
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						top(n.Name)
					}
				}
			}
		}
	}
}

// receiverName is the type name of a method's receiver: T of *T or T[K].
func receiverName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// typeMembers are the fields of a struct type (embedded ones by their
// type's name) or the methods of an interface type.
func typeMembers(e ast.Expr) []string {
	var fields *ast.FieldList
	switch x := e.(type) {
	case *ast.StructType:
		fields = x.Fields
	case *ast.InterfaceType:
		fields = x.Methods
	default:
		return nil
	}
	var names []string
	for _, f := range fields.List {
		for _, n := range f.Names {
			names = append(names, n.Name)
		}
		if len(f.Names) == 0 {
			if n := receiverName(f.Type); n != "" {
				names = append(names, n)
			} else if sel, ok := f.Type.(*ast.SelectorExpr); ok {
				names = append(names, sel.Sel.Name)
			} else if star, ok := f.Type.(*ast.StarExpr); ok {
				if sel, ok := star.X.(*ast.SelectorExpr); ok {
					names = append(names, sel.Sel.Name)
				}
			}
		}
	}
	return names
}

// problem is one name a document gives that does not exist.
type problem struct {
	line int
	span string
	why  string
}

var (
	codeSpan  = regexp.MustCompile("`([^`]+)`")
	identPath = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)*\*?$`)
	testName  = regexp.MustCompile(`^(Test|Fuzz|Benchmark|Example)([A-Z_0-9]|$)`)
)

// sectionRef is a document's name followed by a quoted section title.
var sectionRef = regexp.MustCompile(`((?:docs/)?[A-Za-z-]+\.md),? \(?"([^"]+)"`)

// check applies the rules to a document's text, code blocks left out.
func (idx *moduleIndex) check(doc string) []problem {
	problems := idx.checkSections(doc)
	inFence := false
	lines := strings.Split(doc, "\n")
	for i, line := range lines {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		for _, m := range codeSpan.FindAllStringSubmatch(line, -1) {
			if why := idx.checkSpan(m[1]); why != "" {
				problems = append(problems, problem{line: i + 1, span: m[1], why: why})
			}
		}
	}
	return problems
}

// checkSpan says why span names nothing that exists ("" when it does,
// or when it is nothing the rules check).
func (idx *moduleIndex) checkSpan(span string) string {
	s := strings.TrimSpace(span)
	if strings.ContainsAny(s, " \t") {
		return ""
	}
	if strings.Contains(s, "/") {
		return idx.checkPath(s)
	}
	if fileExt.MatchString(s) {
		if idx.fileNames[s] || idx.matchAny("**/"+placeheld(s)) {
			return ""
		}
		return "no file of that name in the module"
	}
	s = strings.ReplaceAll(strings.TrimPrefix(s, "*"), "()", "")
	if !identPath.MatchString(s) {
		return ""
	}
	parts := strings.Split(s, ".")
	first := parts[0]
	switch {
	case testName.MatchString(first) && len(parts) == 1:
		return idx.checkTest(first)
	case idx.pkgDecls[first] != nil && first != "main" && len(parts) >= 2:
		return idx.checkQualified(parts)
	case foreign[first] || strings.Contains(s, "_") || !hasLower(first):
		return ""
	case unicode.IsUpper(rune(first[0])):
		parts[len(parts)-1] = strings.TrimSuffix(parts[len(parts)-1], "*") // `JSValue*`: a C pointer
		if foreign[parts[0]] {
			return ""
		}
		return idx.checkExported(parts)
	case len(parts) == 1 && idx.private[first] && !isLowerWord(first):
		return "an unexported name: name its file, package or an exported identifier instead"
	}
	return ""
}

func (idx *moduleIndex) checkPath(s string) string {
	if strings.Contains(s, "://") {
		return ""
	}
	s = strings.TrimPrefix(s, "./")
	first, _, _ := strings.Cut(s, "/")
	if !idx.rootNames[first] {
		return ""
	}
	for _, p := range expandBraces(strings.TrimSuffix(s, "/")) {
		if _, err := os.Stat(filepath.Join(idx.root, filepath.FromSlash(p))); err == nil {
			continue
		}
		if idx.matchAny(placeheld(p)) {
			continue
		}
		return fmt.Sprintf("%s: no such file or directory", p)
	}
	return ""
}

// matchAny reports whether the glob pattern (where ** is any number of
// directories) matches a file of the module or a directory holding one.
func (idx *moduleIndex) matchAny(pattern string) bool {
	re := globRegexp(pattern)
	for _, f := range idx.files {
		for p := f; p != "."; p = filepath.ToSlash(filepath.Dir(p)) {
			if re.MatchString(p) {
				return true
			}
		}
	}
	return false
}

func (idx *moduleIndex) checkTest(name string) string {
	if prefix, ok := strings.CutSuffix(name, "*"); ok {
		for _, t := range idx.tests {
			if strings.HasPrefix(t, prefix) {
				return ""
			}
		}
		return "no test function has that prefix"
	}
	if slices.Contains(idx.tests, name) {
		return ""
	}
	return "no test function of that name in any _test.go"
}

func (idx *moduleIndex) checkQualified(parts []string) string {
	pkg, name := parts[0], parts[1]
	if !ast.IsExported(name) {
		// `cgroup.kill` is the kernel's file; `engine.classify` would be
		// a private name.
		if idx.pkgDecls[pkg][name] {
			return "an unexported name: name its file, package or an exported identifier instead"
		}
		return ""
	}
	if !idx.pkgDecls[pkg][name] {
		return fmt.Sprintf("package %s declares no %s", pkg, name)
	}
	if len(parts) >= 3 {
		return idx.checkMember(pkg+"."+name, name, parts[2])
	}
	return ""
}

// checkMember checks the member of a type, or, after a variable or a
// function (`contract.DefaultCaps.StackBytes`), that the member is some
// exported name of the module.
func (idx *moduleIndex) checkMember(what, typ, member string) string {
	if idx.members[typ] == nil {
		if idx.exported[member] {
			return ""
		}
		return fmt.Sprintf("%s: no %s declared in the module", what, member)
	}
	if !idx.members[typ][member] {
		return fmt.Sprintf("%s has no method or field %s", what, member)
	}
	return ""
}

func (idx *moduleIndex) checkExported(parts []string) string {
	if len(parts) == 1 {
		if idx.exported[parts[0]] {
			return ""
		}
		return "declared nowhere in the module"
	}
	if !idx.exported[parts[0]] {
		return fmt.Sprintf("no %s declared in the module", parts[0])
	}
	return idx.checkMember(parts[0], parts[0], parts[1])
}

// placeheld turns the placeholder words of a path into globs.
func placeheld(p string) string {
	for _, w := range placeholders {
		p = regexp.MustCompile(`\b`+w+`\b`).ReplaceAllString(p, "*")
	}
	return p
}

// expandBraces expands one level of {a,b} alternatives.
func expandBraces(p string) []string {
	open := strings.Index(p, "{")
	end := strings.Index(p, "}")
	if open < 0 || end < open {
		return []string{p}
	}
	var out []string
	for _, alt := range strings.Split(p[open+1:end], ",") {
		out = append(out, expandBraces(p[:open]+alt+p[end+1:])...)
	}
	return out
}

// globRegexp compiles a slash-separated glob: * is any run of characters
// but "/", and a leading **/ is any directories.
func globRegexp(pattern string) *regexp.Regexp {
	anyDirs := strings.HasPrefix(pattern, "**/")
	pattern = strings.TrimPrefix(pattern, "**/")
	re := strings.ReplaceAll(regexp.QuoteMeta(pattern), `\*`, `[^/]*`)
	if anyDirs {
		re = `(.*/)?` + re
	}
	return regexp.MustCompile(`^` + re + `$`)
}

func hasLower(s string) bool {
	return strings.IndexFunc(s, unicode.IsLower) >= 0
}

// isLowerWord reports whether s has no capital: `classify` could be an
// English word or a JSON field, `enterHost` only a Go name.
func isLowerWord(s string) bool {
	return strings.IndexFunc(s, unicode.IsUpper) < 0
}

// checkSections finds the sections the text names after a document
// ("RATIONALE.md, "Title"", across line breaks too) that are no
// heading's start in that document.
func (idx *moduleIndex) checkSections(doc string) []problem {
	var problems []problem
	flat := strings.Join(strings.Fields(doc), " ")
	for _, m := range sectionRef.FindAllStringSubmatchIndex(flat, -1) {
		file, title := flat[m[2]:m[3]], flat[m[4]:m[5]]
		headings, ok := idx.headings(file)
		if !ok {
			continue // not one of the module's documents
		}
		if !slices.ContainsFunc(headings, func(h string) bool { return strings.HasPrefix(h, title) }) {
			line := 1 + strings.Count(doc[:lineOffset(doc, flat[:m[0]])], "\n")
			problems = append(problems, problem{line: line, span: file + `, "` + title + `"`, why: "no heading of " + file + " starts so"})
		}
	}
	return problems
}

// headings are the headings of a document of the module, their "#"s and
// spaces trimmed and their whitespace folded; ok is false when file is
// no file of the module.
func (idx *moduleIndex) headings(file string) (headings []string, ok bool) {
	src, err := os.ReadFile(filepath.Join(idx.root, filepath.FromSlash(file)))
	if err != nil {
		return nil, false
	}
	for _, line := range strings.Split(string(src), "\n") {
		if h, found := strings.CutPrefix(line, "#"); found {
			headings = append(headings, strings.Join(strings.Fields(strings.TrimLeft(h, "#")), " "))
		}
	}
	return headings, true
}

// lineOffset is the offset in doc where the text whose whitespace was
// folded into prefix ends: it walks doc word by word.
func lineOffset(doc, prefix string) int {
	words := len(strings.Fields(prefix))
	i := 0
	for n := 0; n < words; n++ {
		for i < len(doc) && unicode.IsSpace(rune(doc[i])) {
			i++
		}
		for i < len(doc) && !unicode.IsSpace(rune(doc[i])) {
			i++
		}
	}
	return i
}
