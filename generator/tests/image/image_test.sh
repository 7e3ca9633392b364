#!/usr/bin/env bash
# `rrgen image` from the outside:
#   image_test.sh <check> <rrgen> <executable> <work dir> [<layout> [<install.yaml>]]
#   reproducible  two runs (other --out paths, another copy of the executable) give the same bytes;
#                 SOURCE_DATE_EPOCH dates the image and changes the digest; no build path inside
#   tools         skopeo and umoci read the layout: raw manifest, config (user, entrypoint, ports),
#                 copy to a docker archive, unpack to a rootfs of exactly files.txt's files (plus
#                 directories), where the executable runs (through the image's loader; as root
#                 also chrooted, as nonroot 65532); as root with podman installed, podman load
#                 (a storage of its own) and podman's view of the user and entrypoint
#   dockerfile    the Dockerfile says what the image is: entrypoint, user, the library list
#   diagnostics   not an ELF file, a missing library: exit 1, the file and the library named, no
#                 output directory (and an existing one untouched); usage errors exit 2
#   sample        the tools check on a layout the build made (<layout>: rrgen_add_image's output);
#                 with <install.yaml>, that the build pinned it to the image (repository:tag@digest)
# Exit 77 (skipped) when a tool the check needs is not installed.
set -euo pipefail
check=$1 rrgen=$2 exe=$3 work=$4 layout=${5:-} install_yaml=${6:-}
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
need() { command -v "$1" >/dev/null 2>&1 || { echo "SKIP: $1 is not installed"; exit 77; }; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps(eval(sys.argv[2], {'d': d})))" "$@"; }
blob() { echo "$1/blobs/sha256/${2#sha256:}"; }
config_of() {  # the config blob of a layout
  local manifest; manifest=$(blob "$1" "$(cat "$1/digest")")
  blob "$1" "$(json "$manifest" 'd["config"]["digest"]' | tr -d '"')"
}
image() { "$rrgen" image --quiet --executable "$exe" --image example.com/test/hello:v1 --port 8443 "$@"; }

tools_check() {  # <layout> <tag> <expected ports json>
  local dir=$1 tag=$2 ports=$3
  need skopeo; need umoci
  skopeo inspect --raw "oci:$dir:$tag" >"$work/raw.json" || fail "skopeo inspect --raw"
  [[ $(json "$work/raw.json" 'd["mediaType"]') == '"application/vnd.oci.image.manifest.v1+json"' ]] || fail "manifest media type"
  [[ "sha256:$(sha256sum <"$work/raw.json" | cut -d' ' -f1)" == "$(cat "$dir/digest")" ]] || fail "digest file != the manifest skopeo read"
  skopeo inspect --config "oci:$dir:$tag" >"$work/config.json" || fail "skopeo inspect --config"
  [[ $(json "$work/config.json" 'd["config"]["User"]') == '"65532:65532"' ]] || fail "config user"
  [[ $(json "$work/config.json" 'd["config"]["Entrypoint"]') == '["/manager"]' ]] || fail "config entrypoint"
  [[ $(json "$work/config.json" 'sorted(d["config"]["ExposedPorts"])') == "$ports" ]] || fail "config ports: $(json "$work/config.json" 'd["config"]')"
  skopeo copy --quiet "oci:$dir:$tag" "docker-archive:$work/image.tar:example.com/test/hello:$tag" >/dev/null || fail "skopeo copy"
  tar -tf "$work/image.tar" >"$work/archive.txt" || fail "the docker archive is not a tar file"
  grep -qx manifest.json "$work/archive.txt" || fail "the docker archive has no manifest.json"
  umoci unpack --rootless --image "$dir:$tag" "$work/bundle" >/dev/null || fail "umoci unpack"
  local rootfs=$work/bundle/rootfs
  (cd "$rootfs" && find . -type f | sed 's/^\.//' | sort) >"$work/unpacked.txt"
  grep -v '^#' "$dir/files.txt" | cut -d' ' -f1 | sort >"$work/expected.txt"
  diff "$work/expected.txt" "$work/unpacked.txt" || fail "the rootfs files differ from files.txt"
  [[ -z $(cd "$rootfs" && find . ! -type f ! -type d) ]] || fail "the rootfs has something other than files and directories"
  [[ $(stat -c %a "$rootfs/tmp") == 1777 ]] || fail "/tmp is not 1777"
  grep -q '^nonroot:x:65532:65532:' "$rootfs/etc/passwd" || fail "no nonroot user"
  # Run it with the image's own loader and libraries (nothing from this machine).
  local libdirs; libdirs=$(grep -v '^#' "$dir/files.txt" | cut -d' ' -f1 | grep '\.so' | xargs -n1 dirname | sort -u | sed "s|^|$rootfs|" | paste -sd:)
  local loader; loader=$(grep -v '^#' "$dir/files.txt" | cut -d' ' -f1 | grep -m1 '/ld-linux')
  "$rootfs$loader" --library-path "$libdirs" "$rootfs/manager" --help >"$work/help.txt" 2>&1 || fail "the unpacked executable did not run: $(cat "$work/help.txt")"
  grep -qi usage "$work/help.txt" || fail "no usage printed: $(cat "$work/help.txt")"
  # g++ links the sanitizers' runtimes as libraries, clang into the executable.
  if grep -q -e '/libasan\.' -e '/libtsan\.' "$dir/files.txt" || grep -qa -e __asan_init -e __tsan_init "$rootfs/manager"; then
    echo "a sanitized executable (it reads /proc, which the rootfs has not): the chroot run is skipped"
  elif [[ $(id -u) == 0 ]] && command -v chroot >/dev/null; then
    chroot --userspec=65532:65532 "$rootfs" /manager --help >"$work/chroot.txt" 2>&1 || fail "chroot run: $(cat "$work/chroot.txt")"
    grep -qi usage "$work/chroot.txt" || fail "no usage printed in the chroot"
  else
    echo "not root: the chroot run is skipped"
  fi
  if command -v podman >/dev/null && [[ $(id -u) == 0 ]]; then
    # A storage of the test's own (vfs: no overlay mount needed), so nothing is left on the machine.
    # (podman wants a run root of at most 50 characters: a short one in /tmp, removed at once.)
    local run; run=$(mktemp -d /tmp/rrgen-podman.XXXXXX)
    local podman=(podman --root "$work/podman" --runroot "$run" --storage-driver vfs)
    local rc=0
    "${podman[@]}" load -i "$work/image.tar" >"$work/podman.txt" 2>&1 || rc=1
    ((rc)) || "${podman[@]}" image inspect "example.com/test/hello:$tag" \
      --format '{{.Config.User}} {{.Config.Entrypoint}}' >"$work/podman_inspect.txt" 2>&1 || rc=2
    rm -rf "$run"
    ((rc != 1)) || fail "podman load: $(cat "$work/podman.txt")"
    ((rc != 2)) || fail "podman image inspect: $(cat "$work/podman_inspect.txt")"
    [[ $(cat "$work/podman_inspect.txt") == "65532:65532 [/manager]" ]] || fail "podman sees $(cat "$work/podman_inspect.txt")"
    echo "podman load: example.com/test/hello:$tag, $(cat "$work/podman_inspect.txt")"
  else
    echo "podman is not installed or this is not root (rootless podman needs subuids): podman load is skipped"
  fi
}

case $check in
  reproducible)
    mkdir -p "$work/a" "$work/b/deeper" "$work/copy"
    cp "$exe" "$work/copy/other-name"
    (cd "$work/a" && image --out out1)
    (cd "$work/b" && exe=$work/copy/other-name image --out "$work/b/deeper/out2")
    diff -r "$work/a/out1" "$work/b/deeper/out2" || fail "two runs differ"
    image --out "$work/a/out1"  # over an existing layout: replaced, the same bytes
    diff -r "$work/a/out1" "$work/b/deeper/out2" || fail "a rebuild over the layout differs"
    # No path rrgen was given (the executable's, the output's) in any file, the layer uncompressed.
    for f in $(find "$work/a/out1" -type f); do
      zcat -f "$f" >"$work/plain"
      if grep -qaF "$work" "$work/plain"; then fail "a build path is in $f"; fi
    done
    SOURCE_DATE_EPOCH=1700000000 image --out "$work/dated"
    [[ $(cat "$work/dated/digest") != $(cat "$work/a/out1/digest") ]] || fail "SOURCE_DATE_EPOCH did not change the digest"
    [[ $(json "$(config_of "$work/dated")" 'd["created"]') == '"2023-11-14T22:13:20Z"' ]] || fail "created is not SOURCE_DATE_EPOCH"
    echo "reproducible: $(cat "$work/a/out1/digest")"
    ;;
  tools)
    image --out "$work/layout" --port 9443/tcp
    tools_check "$work/layout" v1 '["8443/tcp", "9443/tcp"]'
    echo "tools: skopeo and umoci read $(cat "$work/layout/image-ref")"
    ;;
  sample)
    [[ -d $layout ]] || fail "no layout at $layout (build the image target first)"
    tag=$(json "$layout/index.json" 'd["manifests"][0]["annotations"]["org.opencontainers.image.ref.name"]' | tr -d '"')
    tools_check "$layout" "$tag" '["8081/tcp", "8443/tcp", "9443/tcp"]'
    if [[ -n $install_yaml ]]; then
      grep -qxF "        image: $(cat "$layout/image-ref")" "$install_yaml" \
        || fail "$install_yaml does not run $(cat "$layout/image-ref"): $(grep 'image:' "$install_yaml")"
      kustomization=$(dirname "$install_yaml")/../config/manager/kustomization.yaml
      grep -qx "  digest: $(cat "$layout/digest")" "$kustomization" || fail "$kustomization is not pinned"
    fi
    echo "sample: $(cat "$layout/image-ref")"
    ;;
  dockerfile)
    image --out "$work/layout" --label team=apps
    d=$work/layout/Dockerfile
    grep -qx 'FROM gcr.io/distroless/cc-debian12:nonroot' "$d" || fail "FROM"
    config=$(config_of "$work/layout")
    [[ "ENTRYPOINT $(json "$config" 'd["config"]["Entrypoint"]')" == "$(grep '^ENTRYPOINT ' "$d")" ]] || fail "ENTRYPOINT differs from the config"
    [[ "USER $(json "$config" 'd["config"]["User"]' | tr -d '"')" == "$(grep '^USER ' "$d")" ]] || fail "USER differs from the config"
    grep -qx 'LABEL "team"="apps"' "$d" || fail "the label"
    grep -qx 'EXPOSE 8443/tcp' "$d" || fail "EXPOSE"
    # The libraries: what the Dockerfile lists (the base's and the ones to copy) is files.txt's.
    { sed -n 's|^#   \(/.*\)$|\1|p' "$d"; sed -n 's|^# COPY --from=libs \(/[^ ]*\) .*$|\1|p' "$d"; } | sort >"$work/dockerfile_libs.txt"
    grep -v '^#' "$work/layout/files.txt" | cut -d' ' -f1 | grep -v -e '^/manager$' -e '^/etc/' | sort >"$work/image_libs.txt"
    diff "$work/image_libs.txt" "$work/dockerfile_libs.txt" || fail "the Dockerfile's libraries differ from files.txt's"
    grep -q 'libz.so.1 ' "$d" || fail "libz.so.1 (not in the base) is not among the COPY lines"
    echo "dockerfile: $(wc -l <"$work/image_libs.txt") libraries, entrypoint and user agree"
    ;;
  diagnostics)
    expect_error() {  # <expected text> <args...>: exit 1, the text in stderr, no output directory
      local expected=$1; shift
      local rc=0
      "$rrgen" image "$@" --out "$work/parent/out" 2>"$work/err.txt" || rc=$?
      [[ $rc == 1 ]] || fail "exit $rc, not 1, for $*: $(cat "$work/err.txt")"
      grep -qF -- "$expected" "$work/err.txt" || fail "expected '$expected' in: $(cat "$work/err.txt")"
      [[ ! -e $work/parent/out && -z $(ls -A "$work/parent") ]] || fail "output left behind: $(ls -A "$work/parent")"
    }
    mkdir -p "$work/parent"
    printf '#!/bin/sh\necho hi\n' >"$work/script.sh"
    expect_error "$work/script.sh: error: not an ELF file [image-not-elf]" --executable "$work/script.sh" --image t:v1
    # The executable with its DT_NEEDED "libz.so.1" renamed to a library no machine has.
    python3 -c "import sys; b=open(sys.argv[1],'rb').read(); assert b.count(b'libz.so.1\0')==1; open(sys.argv[2],'wb').write(b.replace(b'libz.so.1\0', b'libq.so.7\0'))" "$exe" "$work/broken"
    chmod +x "$work/broken"
    expect_error "$work/broken: error: library 'libq.so.7' needed by '$work/broken' not found" --executable "$work/broken" --image t:v1
    expect_error "cannot read the executable" --executable "$work/absent" --image t:v1
    expect_error "is not an image tag" --executable "$exe" --image "t:bad tag"
    # An existing layout stays as it was when a run fails.
    image --out "$work/parent/out"
    before=$(cat "$work/parent/out/digest")
    rc=0; "$rrgen" image --executable "$work/broken" --image t:v1 --out "$work/parent/out" 2>/dev/null || rc=$?
    [[ $rc == 1 && $(cat "$work/parent/out/digest") == "$before" && $(ls -A "$work/parent") == out ]] || fail "a failed run touched the existing layout"
    rc=0; "$rrgen" image --image t:v1 --out "$work/x" 2>"$work/err.txt" || rc=$?
    [[ $rc == 2 ]] && grep -q -- "--executable FILE is required" "$work/err.txt" || fail "usage error: exit $rc"
    echo "diagnostics: not ELF, missing library, unreadable, bad tag, usage"
    ;;
  *) fail "unknown check '$check'" ;;
esac
