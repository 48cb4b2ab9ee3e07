#!/usr/bin/env bash
# Builds the documentation site (mkdocs.yml) into .run/site in strict mode. Before that it writes the Helm values
# reference, docs/reference/helm-values.md, from the chart's values.yaml with helm-docs; with --check (make test) it
# fails instead when the checked-in page differs, naming the command that brings it up to date. The other reference
# pages are written and checked by the Maven tests (CliReferenceTest, CrdReferenceTest, MetricsReferenceTest).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="$(tools/install.sh docs)"
page=docs/reference/helm-values.md
generated="$(mktemp)"
trap 'rm -f "$generated"' EXIT
"$bin/helm-docs" --log-level warning --chart-search-root deploy/charts --template-files "$PWD/tools/docs/helm-values.md.gotmpl" \
  --output-file helm-values.md --dry-run > "$generated"
if [ "${1:-}" = "--check" ]; then
  if ! diff -u "$page" "$generated" > /dev/null; then
    diff -u "$page" "$generated" | head -40 >&2 || true
    echo "docs: $page is out of date with deploy/charts/farrier/values.yaml: run make docs" >&2
    exit 1
  fi
else
  cp "$generated" "$page"
fi
if ! out="$("$bin/mkdocs" build --strict 2>&1)"; then
  printf '%s\n' "$out" | grep -v '^INFO ' >&2
  echo "docs: mkdocs build --strict failed (mkdocs.yml)" >&2
  exit 1
fi
echo "docs: the site is in .run/site (open .run/site/index.html)"
