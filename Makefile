# Warden build. `make build` and `make test` fetch the pinned QuickJS wasm
# when it is missing; `make wasm` fetches it on its own.

GO       ?= go
WASM     := child/engine/wasm/quickjs.wasm
# The Go files that embed the module and the Intl data into `make
# build`'s binary, generated with them (build/embedded.sh) and, like
# them, git-ignored: a build from the module alone (go install) has
# neither and finds both at run time (`warden setup`).
WASM_GO  := child/engine/wasm_embedded.go
INTL_GO  := child/engine/intl/data_embedded.go
# The engine's Intl data, generated from the pinned CLDR packages
# (build/intl; `make intl-data`).
INTL     := child/engine/intl/data/supplemental.json
# The curated registry of host-approved modules, bundled from pinned npm
# packages (build/modules; `make modules`): lodash-es.js marks it made.
MODULES_DIR := modules
MODULES     := $(MODULES_DIR)/lodash-es.js
PINS     := internal/runtimefiles/runtimefiles.go
WASM_PKG := $(shell sed -n 's/^const WasmPackage = "\(.*\)"/\1/p' $(PINS))
WASM_SHA := $(shell sed -n 's/^const WasmSHA256 = "\(.*\)"/\1/p' $(PINS))
TEST_FLAGS ?= -count=1 -timeout 20m

.PHONY: build test test-stock wasm intl-data modules proto bench vet clean fuzz wazero-patch wazero-test

# The project's patch to wazero (RATIONALE.md, "Why a patch to wazero, and what retires it?"):
# build/wazero/apply.sh copies the wazero of go.mod out of the module
# cache into $(WAZERO_DIR), applies build/wazero/VERSION.patch there
# (refusing a version it has no patch for, or a patch that does not apply)
# and writes a go.mod that replaces wazero with it. build, test, vet, fuzz
# and bench compile against it through GOFLAGS=-modfile, which the tests'
# own `go` commands inherit; go.mod is never changed. WAZERO_PATCH=0 (like
# a plain `go build`) uses stock wazero.
WAZERO_PATCH ?= 1
WAZERO_DIR   := .cache/wazero
ifeq ($(WAZERO_PATCH),1)
build test vet fuzz bench: export GOFLAGS := $(strip $(filter-out -modfile=%,$(GOFLAGS)) -modfile=$(CURDIR)/$(WAZERO_DIR)/go.mod)
WAZERO_DEP := wazero-patch
endif

wazero-patch:
	@sh build/wazero/apply.sh $(WAZERO_DIR)

# wazero's own tests of the packages the patch touches, on the patched
# source, and its compilation-cache integration tests (~25 s of wall
# time on 2 cores).
WAZERO_TEST_PKGS := . ./internal/wasm/ ./internal/wasm/binary/ ./internal/engine/wazevo/ ./internal/platform/ ./internal/filecache/ ./internal/integration_test/filecache/
wazero-test: wazero-patch
	cd $(WAZERO_DIR)/wazero && GOFLAGS= $(GO) test -count=1 $(WAZERO_TEST_PKGS)

# A static binary (no cgo): no dynamic loader or libc to map in every
# child, which starts ~3 ms faster and 1.3 MiB smaller (BENCHMARKS.md).
#
# The lean child (cmd/warden-child: the engine, the wire and seccomp,
# none of the daemon or the CLI) is linked from the same tree and
# appended to bin/warden (build/childimage), whose supervisor starts every
# child from it (RATIONALE.md, "A lean child, carried in the warden
# binary"). bin/warden stays the one file to install.
build: $(WASM_GO) $(INTL_GO) $(WAZERO_DEP)
	CGO_ENABLED=0 $(GO) build -ldflags="-s -w" -o bin/.warden-child ./cmd/warden-child
	CGO_ENABLED=0 $(GO) build -o bin/.warden ./cmd/warden
	$(GO) run ./build/childimage -child bin/.warden-child -into bin/.warden
	mv bin/.warden bin/warden

# An OCI image of bin/warden on an empty base, written by build/image
# with go-containerregistry (no container daemon, no base image pulled)
# to bin/image (OCI layout) and bin/image.tar (OCI archive, for
# `podman load -i`). It prints the tag deploy/kubernetes references.
.PHONY: image
image: build
	@$(GO) run ./build/image -binary bin/warden -out bin/image

# The test command the README gives and .ci/run calls: vet, every test,
# wazero's tests of what the patch touches, each fuzz target for a few
# thousand executions, then every test again on stock wazero (what a plain `go build`
# by an embedder gets).
test: $(WASM_GO) $(INTL_GO) $(MODULES) build $(if $(WAZERO_DEP),wazero-test) cross
	$(GO) vet ./...
	$(GO) test -tags wardenfaults $(TEST_FLAGS) ./...
	@$(MAKE) --no-print-directory fuzz FUZZTIME=$(FUZZTIME) WAZERO_PATCH=$(WAZERO_PATCH)
	@$(if $(WAZERO_DEP),$(MAKE) --no-print-directory test-stock)

# Builds off Linux: an embedder's macOS laptop builds everything (New
# then returns supervisor.ErrUnsupportedPlatform), Windows the contract,
# the client and the supervisor.
.PHONY: cross
cross: $(WASM_GO) $(INTL_GO)
	GOOS=darwin GOARCH=arm64 $(GO) build ./...
	GOOS=windows $(GO) build ./contract ./client ./supervisor

# A soak (not part of test): SOAK_N executions of the attack corpus mixed
# with benign traffic and every fault, two at a time, with the leak audit;
# the report also goes to soak.html. README, "Attacking Warden".
SOAK_N ?= 100000
.PHONY: soak
soak: build
	bin/warden stress -n $(SOAK_N) -c 2 --faults all --html soak.html

# The tests that run the engine again on stock wazero, without the
# patch, with -short: the engine and the child, the supervisor (its
# children are the test binary, built here on stock wazero), the attack
# corpus and the cross-package tests. The comparisons with Node 20 (which
# the wazero build cannot change), the slowest cap tests, and the
# packages that run the same supervisor on either build (the CLI, the
# daemon, the client, deploy) ran in the full pass.
STOCK_PACKAGES := ./child/... ./supervisor/... ./internal/attacks/... ./tests/...
test-stock: $(WASM_GO) $(INTL_GO) $(MODULES)
	@echo "the engine's tests again, on stock wazero (-short)"
	GOFLAGS= $(GO) test -short -tags wardenfaults $(TEST_FLAGS) $(STOCK_PACKAGES)

# Go native fuzz targets as PACKAGE:TARGET:EXECS. `make test` runs each
# for EXECS executions (about 3 s each here): a count, not a time,
# because Go 1.26's fuzz coordinator can fail a run bounded by -fuzztime
# D with a bare "context deadline exceeded" and no crasher at its end (a
# race fixed in Go 1.27, go.dev/issue/75804; it failed .ci/run once). A
# nightly run gives them a time, e.g. `make fuzz FUZZTIME=10m` (where that
# message, with nothing saved, is the race and not a finding). A crash is
# saved under the package's testdata/fuzz and fails the run: commit it as
# a regression test.
FUZZTIME ?=
FUZZ_TARGETS := \
	./child/engine:FuzzHostCallArgs:600 \
	./contract:FuzzJSONStringLen:50000 \
	./child/engine:FuzzWTF8:6000 \
	./child/engine:FuzzWTF8JSON:6000 \
	./contract:FuzzLimitsJSON:50000 \
	./ipc:FuzzEventFromPB:20000 \
	./ipc:FuzzRequestFromPB:20000 \
	./ipc:FuzzContractToPB:20000 \
	./ipc:FuzzSupervisorExecute:20000 \
	./ipc:FuzzChildExecute:20000 \
	./contract:FuzzResolve:200000 \
	./internal/strictjson:FuzzCheck:60000 \
	./internal/strictjson:FuzzUnmarshalStruct:60000 \
	./server:FuzzDecodeExecuteBody:8000 \
	./child/engine/intl:FuzzCall:20000
fuzz: $(WASM_GO) $(INTL_GO) $(WAZERO_DEP)
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; rest=$${t#*:}; name=$${rest%%:*}; execs=$${rest#*:}; \
		ft="$(FUZZTIME)"; [ -n "$$ft" ] || ft=$${execs}x; \
		echo "fuzz $$pkg $$name for $$ft"; \
		$(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $$ft $$pkg; \
	done

$(WASM):
	@$(MAKE) --no-print-directory wasm

$(INTL): internal/intlgen/packages.sha256 internal/intlgen/generate.go internal/intlgen/regions.go internal/intlgen/sections.go build/intl/main.go
	@$(MAKE) --no-print-directory intl-data

# Fetch the CLDR packages internal/intlgen/packages.sha256 pins with the
# ordinary npm client, check their SHA-256, and generate the engine's
# Intl data from them (build/intl), then the Go file embedding it.
intl-data:
	@GOFLAGS= $(GO) run ./build/intl -out child/engine/intl/data
	@sh build/embedded.sh intl

$(WASM_GO): $(WASM)
	@sh build/embedded.sh wasm

$(INTL_GO): $(INTL)
	@sh build/embedded.sh intl

$(MODULES): build/modules/packages.sha256 build/modules/main.go
	@$(MAKE) --no-print-directory modules

# Fetch the npm packages build/modules/packages.sha256 pins with the
# ordinary npm client, check their SHA-256, and bundle each into one ES
# module in $(MODULES_DIR) (build/modules/fetch.sh): the directory
# `warden run --modules` and `warden serve`'s modules_dir take.
modules:
	@sh build/modules/fetch.sh $(MODULES_DIR)

# Fetch quickjs.wasm with the ordinary npm client and check its SHA-256
# against the pin in internal/runtimefiles, then write the Go file
# embedding it.
wasm:
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	echo "fetching $(WASM_PKG) with npm pack"; \
	(cd "$$tmp" && npm pack --silent "$(WASM_PKG)" >/dev/null && tar xzf *.tgz package/quickjs.wasm); \
	got=$$(sha256sum "$$tmp/package/quickjs.wasm" | cut -d' ' -f1); \
	if [ "$$got" != "$(WASM_SHA)" ]; then \
		echo "quickjs.wasm sha256 mismatch: got $$got, want $(WASM_SHA)" >&2; exit 1; fi; \
	mkdir -p $(dir $(WASM)); cp "$$tmp/package/quickjs.wasm" $(WASM); \
	echo "$(WASM) ok (sha256 $$got)"; \
	sh build/embedded.sh wasm

# Regenerate ipc/pb (committed; only needed after changing warden.proto).
# protoc comes from Debian's protobuf-compiler; the plugins are built at
# pinned versions into a scratch GOBIN.
PROTOC_GEN_GO_VERSION      := v1.36.12
PROTOC_GEN_GO_GRPC_VERSION := v1.6.2
proto:
	@command -v protoc >/dev/null || { echo "protoc not found: apt-get install -y protobuf-compiler" >&2; exit 1; }
	@set -e; gobin=$$(mktemp -d); trap 'rm -rf "$$gobin"' EXIT; \
	GOBIN=$$gobin $(GO) install google.golang.org/protobuf/cmd/protoc-gen-go@$(PROTOC_GEN_GO_VERSION); \
	GOBIN=$$gobin $(GO) install google.golang.org/grpc/cmd/protoc-gen-go-grpc@$(PROTOC_GEN_GO_GRPC_VERSION); \
	PATH=$$gobin:$$PATH sh ipc/generate.sh

bench: $(WASM_GO) $(INTL_GO) $(WAZERO_DEP)
	$(GO) test -run '^$$' -bench . -benchtime 20x -count 5 ./child/engine/

vet: $(WASM_GO) $(INTL_GO) $(WAZERO_DEP)
	$(GO) vet ./...

clean:
	rm -rf bin $(WAZERO_DIR)

# The VM test lane (tests/vm, README "The VM lane"): cgroup v2 and a real
# systemd, in qemu guests built from Debian's packages (cached under
# .cache/vm). tests/vm/build.sh installs what is missing and builds the
# images; the Go driver boots them and reports each check.
VMTEST_TIMEOUT ?= 15m
.PHONY: vmtest
ifeq ($(WAZERO_PATCH),1)
vmtest: export GOFLAGS := $(strip $(filter-out -modfile=%,$(GOFLAGS)) -modfile=$(CURDIR)/$(WAZERO_DIR)/go.mod)
endif
vmtest: $(WASM_GO) $(INTL_GO) $(WAZERO_DEP)
	timeout $(VMTEST_TIMEOUT) sh tests/vm/build.sh
	WARDEN_VM_DIR=$(CURDIR)/.cache/vm $(GO) test -count=1 -v -timeout $(VMTEST_TIMEOUT) ./tests/vm/
