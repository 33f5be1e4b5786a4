#!/bin/sh
# Builds what `make vmtest` boots, from Debian's packages, into $VM_DIR
# (default .cache/vm, git-ignored):
#
#   kernel-VERSION/      the kernel .deb that linux-image-amd64 depends on,
#                        unpacked with dpkg-deb -x (never installed)
#   out/vmlinuz          that kernel
#   out/cgroup.cpio      busybox-static, tests/vm/init, bin/warden and the
#                        cgroup-related test binaries (rebuilt every run:
#                        it is the code under test)
#   rootfs-KEY.cpio      an mmdebstrap'd bookworm with systemd, packed as an
#                        initramfs; KEY hashes the package list, the options
#                        and the host's apt sources, so a changed input
#                        makes a new one (old ones are removed)
#   image/, image.tar    the container image of bin/warden, as `make image`
#                        writes it (build/image)
#   out/systemd.cpio     rootfs-KEY.cpio plus an overlay with bin/warden,
#                        the units, tests/vm/systemd-checks.sh, the image
#                        and deploy/podman-run.sh
#
# Missing host tools are installed with apt-get, as .ci/run does for make.
# Every step is bounded in time (timeout).
set -eu
cd "$(dirname "$0")/../.."
VM_DIR=${VM_DIR:-$PWD/.cache/vm}
GO=${GO:-go}
mkdir -p "$VM_DIR/out"
log() { echo "vmtest build: $*"; }
# pack DIR OUT: DIR as a newc cpio archive (an initramfs), in bounded time.
pack() { timeout 300 sh -c 'cd "$1" && find . | cpio -o -H newc --quiet' sh "$1" >"$2"; }
t0=$(date +%s)

# Host tools, from Debian's packages.
missing=
for t in qemu-system-x86_64:qemu-system-x86 busybox:busybox-static mmdebstrap:mmdebstrap cpio:cpio; do
	command -v "${t%%:*}" >/dev/null || missing="$missing ${t#*:}"
done
if [ -n "$missing" ]; then
	log "installing$missing"
	timeout 300 apt-get update -q
	DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -q --no-install-recommends $missing
fi
# busybox must be the static one: it runs alone in the initramfs.
BUSYBOX=$(command -v busybox)
if ! file -L "$BUSYBOX" 2>/dev/null | grep -q 'statically linked'; then
	[ -x /bin/busybox ] && BUSYBOX=/bin/busybox
fi

# The kernel: the versioned package linux-image-amd64 depends on.
kpkg=$(apt-cache depends linux-image-amd64 | sed -n 's/^ *Depends: \(linux-image-[0-9].*\)$/\1/p' | head -1)
if [ -z "$kpkg" ]; then
	timeout 300 apt-get update -q
	kpkg=$(apt-cache depends linux-image-amd64 | sed -n 's/^ *Depends: \(linux-image-[0-9].*\)$/\1/p' | head -1)
fi
[ -n "$kpkg" ] || { echo "vmtest build: cannot resolve linux-image-amd64's kernel package" >&2; exit 1; }
kver=${kpkg#linux-image-}
kdir="$VM_DIR/kernel-$kver"
if [ ! -f "$kdir/boot/vmlinuz-$kver" ]; then
	log "downloading $kpkg"
	rm -rf "$VM_DIR"/kernel-* "$VM_DIR"/debs
	mkdir -p "$VM_DIR/debs"
	# apt's sandbox user cannot write into a root-owned cache dir.
	(cd "$VM_DIR/debs" && timeout 300 apt-get -q -o APT::Sandbox::User=root download "$kpkg")
	timeout 120 dpkg-deb -x "$VM_DIR"/debs/"$kpkg"_*.deb "$kdir.tmp"
	mv "$kdir.tmp" "$kdir"
fi
cp "$kdir/boot/vmlinuz-$kver" "$VM_DIR/out/vmlinuz"

# build_rootfs makes the systemd root filesystem, cached by its inputs,
# and sets rootfs to it.
build_rootfs() {
	# podman (with crun, not runc) and curl: deploy/podman-run.sh.
	pkgs=systemd,systemd-sysv,udev,iproute2,procps,podman,crun,curl
	suite=bookworm
	# The image's inputs: these options, and the host's apt sources.
	set -- --quiet --variant=apt --include="$pkgs" \
		--dpkgopt='path-exclude=/usr/share/man/*' \
		--dpkgopt='path-exclude=/usr/share/doc/*' \
		--dpkgopt='path-exclude=/usr/share/locale/*' \
		--dpkgopt='path-exclude=/usr/share/info/*' \
		--customize-hook='chroot "$1" useradd --system --no-create-home --shell /usr/sbin/nologin warden' \
		--customize-hook='rm -rf "$1"/var/cache/apt/* "$1"/var/lib/apt/lists/*'
	sources=$(ls /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
	key=$( { echo "$suite $*"; cat $sources; } | sha256sum | cut -c1-16)
	rootfs="$VM_DIR/rootfs-$key.cpio"
	if [ ! -f "$rootfs" ]; then
		log "mmdebstrap $suite with $pkgs (key $key)"
		rm -f "$VM_DIR"/rootfs-*.cpio
		tmp="$VM_DIR/rootfs.tmp"
		rm -rf "$tmp"
		timeout 600 mmdebstrap "$@" $suite "$tmp" $sources
		pack "$tmp" "$rootfs.tmp"
		mv "$rootfs.tmp" "$rootfs"
		rm -rf "$tmp"
	fi
}

# VM_PREFETCH=1 stops here, once the downloads (the kernel, the root
# filesystem) are done: .ci/run runs that while the tests run, and
# `make vmtest` then finds them cached.
if [ "${VM_PREFETCH:-0}" = 1 ]; then
	[ "${WARDEN_VM_SYSTEMD:-1}" = 0 ] || build_rootfs
	log "prefetched in $(( $(date +%s) - t0 ))s"
	exit 0
fi

# The code under test: static, built like the Makefile builds it (its
# GOFLAGS carry the patched wazero).
log "building bin/warden and the test binaries"
bins="$VM_DIR/bins"
rm -rf "$bins"; mkdir -p "$bins"
export CGO_ENABLED=0
timeout 600 $GO build -o "$bins/warden" ./cmd/warden
for p in cgroup supervisor tests tests/vm/guest; do
	timeout 600 $GO test -c -tags wardenfaults -o "$bins/$(basename "$p").test" "./$p"
done

# The busybox initramfs (cgroup v2 checks).
root="$VM_DIR/cgroup-root"
rm -rf "$root"
mkdir -p "$root/bin" "$root/sbin" "$root/etc" "$root/proc" "$root/sys" "$root/dev" "$root/tmp" "$root/run" "$root/root" "$root/vm"
cp "$BUSYBOX" "$root/bin/busybox"
for a in $("$BUSYBOX" --list); do [ "$a" = busybox ] || ln -s busybox "$root/bin/$a"; done
cp tests/vm/init "$root/init"
# Modules from the kernel .deb the init loads: zram, for a real swap
# device (the swap cap is then tested against swap that exists).
mkdir -p "$root/lib/modules"
for m in mm/zsmalloc.ko drivers/block/zram/zram.ko; do
	cp "$kdir/lib/modules/$kver/kernel/$m" "$root/lib/modules/"
done
cp tests/vm/cgroup-checks.sh tests/vm/lib.sh "$root/vm/"
cp "$bins"/* "$root/vm/"
printf 'root:x:0:0:root:/root:/bin/sh\nwarden:x:1000:1000:warden:/home/warden:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' >"$root/etc/passwd"
printf 'root:x:0:\nwarden:x:1000:\nnogroup:x:65534:\n' >"$root/etc/group"
printf 'root:*:19000:0:99999:7:::\nwarden:*:19000:0:99999:7:::\n' >"$root/etc/shadow"
chmod 0755 "$root/init"
pack "$root" "$VM_DIR/out/cgroup.cpio"

# The KVM probe: boots, says so, powers off.
probe="$VM_DIR/probe-root"
rm -rf "$probe"; mkdir -p "$probe/bin" "$probe/dev"
cp "$BUSYBOX" "$probe/bin/busybox"
printf '#!/bin/busybox sh\n/bin/busybox mount -t devtmpfs dev /dev\necho "vmprobe: ok" >/dev/ttyS0\n/bin/busybox poweroff -f\n' >"$probe/init"
chmod 0755 "$probe/init"
pack "$probe" "$VM_DIR/out/probe.cpio"

# The systemd root filesystem, cached by its inputs.
if [ "${WARDEN_VM_SYSTEMD:-1}" != 0 ]; then
	build_rootfs
	ov="$VM_DIR/systemd-overlay"
	rm -rf "$ov"
	mkdir -p "$ov/usr/local/bin" "$ov/etc/systemd/system/multi-user.target.wants" "$ov/vm"
	cp "$bins/warden" "$ov/usr/local/bin/warden"
	cp tests/vm/systemd-checks.sh tests/vm/daemon-checks.sh tests/vm/lib.sh "$ov/vm/"
	cp -r tests/vm/units/. "$ov/etc/systemd/system/"
	ln -s ../warden-vmtest.service "$ov/etc/systemd/system/multi-user.target.wants/warden-vmtest.service"
	# The daemon's unit and config, once the tree has them (daemon-checks.sh).
	if [ -f deploy/systemd/warden.service ]; then
		mkdir -p "$ov/vm/deploy"
		cp deploy/systemd/warden.service "$ov/vm/deploy/"
		[ ! -f deploy/systemd/config.yaml ] || cp deploy/systemd/config.yaml "$ov/vm/deploy/"
	fi
	# The container image of the binary under test, as `make image` makes
	# it, for deploy/podman-run.sh (podman-checks.sh), and podman's
	# settings for a guest with no kernel modules and an initramfs root.
	log "building the container image"
	timeout 600 $GO run ./build/image -binary "$bins/warden" -out "$VM_DIR/image" 2>&1
	cp "$VM_DIR/image.tar" "$ov/vm/image.tar"
	mkdir -p "$ov/vm/deploy" "$ov/etc/containers"
	cp deploy/podman-run.sh "$ov/vm/deploy/"
	cp tests/vm/podman-checks.sh "$ov/vm/"
	printf '[storage]\ndriver = "vfs"\nrunroot = "/run/containers/storage"\ngraphroot = "/var/lib/containers/storage"\n' >"$ov/etc/containers/storage.conf"
	printf '[engine]\nno_pivot_root = true\ncgroup_manager = "cgroupfs"\nevents_logger = "file"\n' >"$ov/etc/containers/containers.conf"
	# An init for the kernel to find (the rootfs is the initramfs).
	ln -s /lib/systemd/systemd "$ov/init"
	pack "$ov" "$VM_DIR/out/overlay.cpio"
	timeout 120 cat "$rootfs" "$VM_DIR/out/overlay.cpio" >"$VM_DIR/out/systemd.cpio"
fi
log "done in $(( $(date +%s) - t0 ))s"
