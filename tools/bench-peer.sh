#!/usr/bin/env bash
# make bench-peer: Karpenter's scheduling benchmark and Farrier's, on the same pods and catalogue, in one run.
#   1. sigs.k8s.io/karpenter at $KARPENTER_VERSION (tools/versions.env) from the Go module proxy, copied to
#      $FARRIER_CACHE/src/karpenter-<version> with tools/karpenter-peer/zz_farrier_peer_test.go added to its scheduling
#      package (the copy is ours; the module cache stays read-only).
#   2. That package's test binary, built once with -tags test_performance into $FARRIER_CACHE/bin (rebuilt when the
#      version or the added file changes). Running it is what `go test -tags test_performance -run '^$' -bench ...
#      -benchtime 1x` runs, without go test linking it again for every size.
#   3. Per size, each in a fresh process, back to back so both sides see about the same load: TestFarrierPeer (the
#      benchmark's pods planned once with the benchmark's setup, to write them and the plan's prices), then
#      BenchmarkScheduling<n> (one cold Solve), then Farrier (the bench module, packaged by make) on the same pods:
#      PeerBenchmark --measure, one cold plan in a fresh JVM then warm runs. Files in $PEER_DIR (.run/bench/peer).
#   4. PeerBenchmark writes the side-by-side table (default .run/bench/peer.md).
# Arguments go to PeerBenchmark; --sizes also picks the Karpenter runs (default: the sizes Karpenter's benchmark
# defines between 1k and 50k: 1000, 2000, 5000, 10000, 20000; it also has 1, 50, 100 and 500). Needs Go (GOTOOLCHAIN=local: the pinned release must build with the Go on PATH) and JAVA_HOME (JDK 25).
# No envtest assets: -run '^$' keeps the package's Ginkgo suite (which starts envtest) from running, and both the
# benchmark and TestFarrierPeer use controller-runtime's fake client.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
# shellcheck source=versions.env
source "$here/versions.env"
cache="${FARRIER_CACHE:-$HOME/.cache/farrier}"
export GOPATH="$cache/go" GOMODCACHE="$cache/go/mod" GOCACHE="$cache/go/build" GOFLAGS="-mod=mod" CGO_ENABLED=0 GOTOOLCHAIN=local
out="${PEER_DIR:-$root/.run/bench/peer}"
log() { printf '[bench-peer] %s\n' "$*" >&2; }
command -v go >/dev/null 2>&1 || { log "missing 'go': install Go (https://go.dev) to build Karpenter's benchmark"; exit 1; }
[ -n "${JAVA_HOME:-}" ] || { log "JAVA_HOME is not set (make bench-peer sets it)"; exit 1; }
[ -f "$root/bench/target/classpath.txt" ] || { log "bench module not packaged: run make bench-peer"; exit 1; }

classpath="$(cat "$root/bench/target/classpath.txt"):$root/bench/target/classes"
java=("$JAVA_HOME/bin/java" --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED -Xms2g -Xmx4g -cp "$classpath")
sizes="1000,2000,5000,10000,20000"
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[$i]}" in
    --sizes) sizes="${args[$((i + 1))]:-}" ;;
    --sizes=*) sizes="${args[$i]#--sizes=}" ;;
    -h | --help) exec "${java[@]}" dev.farrier.bench.PeerBenchmark --help ;;
  esac
done
[[ "$sizes" =~ ^[0-9]+(,[0-9]+)*$ ]] || { log "--sizes takes pod counts separated by commas, got '$sizes'"; exit 2; }

peer_file="$here/karpenter-peer/zz_farrier_peer_test.go"
src="$cache/src/karpenter-$KARPENTER_VERSION"
pkg="pkg/controllers/provisioning/scheduling"
test_bin="$cache/bin/karpenter-scheduling-$KARPENTER_VERSION.test"
want="$KARPENTER_VERSION $(go env GOVERSION) $(sha256sum "$peer_file" | cut -d' ' -f1)"
mkdir -p "$cache/bin" "$cache/stamps" "$cache/logs" "$out"
out="$(cd "$out" && pwd)"
if [ ! -x "$test_bin" ] || [ ! -d "$src/$pkg" ] || [ "$(cat "$cache/stamps/karpenter-peer" 2>/dev/null)" != "$want" ]; then
  log "fetching sigs.k8s.io/karpenter@$KARPENTER_VERSION through the Go module proxy"
  moddir="$(GOFLAGS= go mod download -json "sigs.k8s.io/karpenter@$KARPENTER_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [ -d "$moddir" ] || { log "go mod download gave no module directory for sigs.k8s.io/karpenter@$KARPENTER_VERSION"; exit 1; }
  rm -rf "$src" && cp -r "$moddir" "$src" && chmod -R u+w "$src"
  cp "$peer_file" "$src/$pkg/"
  log "building Karpenter's scheduling test binary (first time: several minutes on 2 cores; log $cache/logs/karpenter-peer.log)"
  if ! (cd "$src" && go test -c -tags test_performance -o "$test_bin" "./$pkg") > "$cache/logs/karpenter-peer.log" 2>&1; then
    log "building Karpenter's test binary failed; last lines of $cache/logs/karpenter-peer.log:"
    tail -n 40 "$cache/logs/karpenter-peer.log" >&2
    exit 1
  fi
  echo "$want" > "$cache/stamps/karpenter-peer"
fi

benchmarks="$(cd "$src/$pkg" && "$test_bin" -test.list '^BenchmarkScheduling[0-9]+$')"
IFS=, read -r -a size_list <<< "$sizes"
for n in "${size_list[@]}"; do
  grep -qx "BenchmarkScheduling$n" <<< "$benchmarks" || {
    log "Karpenter's benchmark has no BenchmarkScheduling$n; it has: $(echo $benchmarks)"; exit 2; }
done

one_minute_load() { cut -d' ' -f1 /proc/loadavg; }
for n in "${size_list[@]}"; do
  log "Karpenter $KARPENTER_VERSION: $n pods planned once to write them and price the plan (TestFarrierPeer)"
  (cd "$src/$pkg" && FARRIER_PEER_PODS="$n" FARRIER_PEER_OUT="$out" "$test_bin" -test.run '^TestFarrierPeer$') \
    > "$out/karpenter-$n-priced.txt" 2>&1 || { cat "$out/karpenter-$n-priced.txt" >&2; exit 1; }
  log "Karpenter $KARPENTER_VERSION: BenchmarkScheduling$n (one cold Solve), load average $(cut -d' ' -f1-3 /proc/loadavg)"
  load_start="$(one_minute_load)"
  (cd "$src/$pkg" && "$test_bin" -test.run '^$' -test.bench "^BenchmarkScheduling$n\$" -test.benchtime 1x) \
    > "$out/karpenter-$n-bench.txt" 2>&1 || { cat "$out/karpenter-$n-bench.txt" >&2; exit 1; }
  echo "$load_start $(one_minute_load)" > "$out/karpenter-$n-load.txt"
  grep '^BenchmarkScheduling' "$out/karpenter-$n-bench.txt" >&2 || true
  log "Farrier: the same $n pods in a fresh JVM, one cold plan then warm runs"
  (cd "$root" && "${java[@]}" dev.farrier.bench.PeerBenchmark --karpenter-dir "$out" --measure "$n" "$@") >&2
done

cd "$root"
"${java[@]}" dev.farrier.bench.PeerBenchmark --karpenter-dir "$out" \
  --karpenter-version "$KARPENTER_VERSION ($(go env GOVERSION) $(go env GOOS)/$(go env GOARCH))" "$@"
