// Command modules bundles the npm packages build/modules/fetch.sh
// fetched into one ES module each, with esbuild's build API, for
// Warden's registry of host-approved modules. It runs at build time on
// trusted input (pinned, digest-checked tarballs); nothing it reads is
// a request's.
//
// Usage: go run ./build/modules -src DIR -out DIR -pins FILE
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// entries are what each bundle exports: the package's named exports and
// its default, as code imports them in Node.
var entries = map[string]string{
	"lodash-es": `export * from "lodash-es"; export { default } from "lodash-es";`,
	"date-fns":  `export * from "date-fns";`,
	"papaparse": `import Papa from "papaparse"; export default Papa; export const parse = Papa.parse, unparse = Papa.unparse;`,
	"zod":       `export * from "zod"; export { default } from "zod";`,
	"dayjs":     `export { default } from "dayjs";`,
}

// external are the Node built-ins a package requires on a path Warden
// never takes (papaparse's Node stream support): left out of the bundle,
// a call of that path throws.
var external = map[string][]string{"papaparse": {"stream"}}

func main() {
	src := flag.String("src", "", "the directory whose node_modules holds the packages")
	out := flag.String("out", "", "the directory to write the bundles to")
	pins := flag.String("pins", "", "the packages.sha256 table")
	flag.Parse()
	if *src == "" || *out == "" || *pins == "" {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*src, *out, *pins); err != nil {
		slog.Error("build/modules", "error", err)
		os.Exit(1)
	}
}

func run(src, out, pins string) error {
	names, err := pinned(pins)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, spec := range names {
		name := spec[:strings.LastIndex(spec, "@")]
		entry, ok := entries[name]
		if !ok {
			return fmt.Errorf("%s is pinned but has no entry in main.go", name)
		}
		res := api.Build(api.BuildOptions{
			Stdin:             &api.StdinOptions{Contents: entry, ResolveDir: src, Sourcefile: name + "-entry.js"},
			AbsWorkingDir:     src,
			Bundle:            true,
			Format:            api.FormatESModule,
			Platform:          api.PlatformNeutral,
			MainFields:        []string{"module", "main"},
			Conditions:        []string{"import", "module", "default"},
			Target:            api.ES2022,
			MinifyWhitespace:  true,
			MinifySyntax:      true,
			LegalComments:     api.LegalCommentsEndOfFile,
			Banner:            map[string]string{"js": "// " + spec + ", bundled by Warden's build/modules (esbuild)"},
			LogLevel:          api.LogLevelWarning,
			Write:             false,
			Outfile:           filepath.Join(out, name+".js"),
			AllowOverwrite:    true,
			External:          external[name],
			TreeShaking:       api.TreeShakingTrue,
			IgnoreAnnotations: false,
		})
		if len(res.Errors) > 0 {
			return fmt.Errorf("%s: %s", name, res.Errors[0].Text)
		}
		for _, f := range res.OutputFiles {
			if err := os.WriteFile(f.Path, f.Contents, 0o644); err != nil {
				return err
			}
			fmt.Printf("%s: %d bytes\n", filepath.Base(f.Path), len(f.Contents))
		}
	}
	return nil
}

// pinned reads the package specs of the pins table, in its order.
func pinned(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var specs []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) == 2 {
			specs = append(specs, fields[1])
		}
	}
	return specs, sc.Err()
}
