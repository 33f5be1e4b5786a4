#!/bin/sh
# Regenerates ipc/pb from ipc/proto/warden.proto.
#
# It installs nothing. It needs on PATH:
#   protoc             (Debian: apt-get install -y protobuf-compiler)
#   protoc-gen-go      at $PROTOC_GEN_GO_VERSION
#   protoc-gen-go-grpc at $PROTOC_GEN_GO_GRPC_VERSION
# `make proto` builds the two plugins into a temporary GOBIN and puts it on
# PATH before running this script. The generated code is committed; only
# someone changing warden.proto needs to run it.
set -eu

PROTOC_GEN_GO_VERSION=v1.36.12
PROTOC_GEN_GO_GRPC_VERSION=v1.6.2

install_hint() {
	cat >&2 <<HINT
generate.sh: $1
Install the generators into a scratch GOBIN and retry, e.g.:
  apt-get install -y protobuf-compiler
  gobin=\$(mktemp -d)
  GOBIN=\$gobin go install google.golang.org/protobuf/cmd/protoc-gen-go@$PROTOC_GEN_GO_VERSION
  GOBIN=\$gobin go install google.golang.org/grpc/cmd/protoc-gen-go-grpc@$PROTOC_GEN_GO_GRPC_VERSION
  PATH=\$gobin:\$PATH sh ipc/generate.sh
or run: make proto
HINT
	exit 1
}

for tool in protoc protoc-gen-go protoc-gen-go-grpc; do
	command -v "$tool" >/dev/null 2>&1 || install_hint "$tool not found on PATH"
done

# protoc-gen-go prints "protoc-gen-go v1.36.12",
# protoc-gen-go-grpc prints "protoc-gen-go-grpc 1.6.2".
got=$(protoc-gen-go --version | awk '{print $2}')
[ "$got" = "$PROTOC_GEN_GO_VERSION" ] ||
	install_hint "protoc-gen-go is $got, want $PROTOC_GEN_GO_VERSION"
got=$(protoc-gen-go-grpc --version | awk '{print $2}')
[ "v$got" = "$PROTOC_GEN_GO_GRPC_VERSION" ] ||
	install_hint "protoc-gen-go-grpc is $got, want $PROTOC_GEN_GO_GRPC_VERSION"

# Run from the module root so the .proto registers as ipc/proto/warden.proto
# and module= maps go_package onto ipc/pb.
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
module=github.com/wardenhq/warden
protoc -I . \
	--go_out=. --go_opt=module="$module" \
	--go-grpc_out=. --go-grpc_opt=module="$module" \
	ipc/proto/warden.proto
