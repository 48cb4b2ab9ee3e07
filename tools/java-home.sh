#!/usr/bin/env bash
# Prints the JAVA_HOME Farrier builds with: $JAVA_HOME if it is JDK 25 or newer, else the newest JDK 25+ under
# /usr/lib/jvm (or FARRIER_JDK_ROOTS, space-separated). Fails with a clear message when there is none.
set -euo pipefail
min=25
major() { # prints the feature version of the JDK at $1, or nothing
  [ -x "$1/bin/javac" ] || return 0
  "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p'
}
if [ -n "${JAVA_HOME:-}" ]; then
  v=$(major "$JAVA_HOME"); if [ -n "$v" ] && [ "$v" -ge "$min" ]; then echo "$JAVA_HOME"; exit 0; fi
fi
best=""; bestv=0
for root in ${FARRIER_JDK_ROOTS:-/usr/lib/jvm}; do
  for d in "$root"/*; do
    [ -d "$d" ] && [ ! -L "$d" ] || continue
    v=$(major "$d"); [ -n "$v" ] || continue
    if [ "$v" -ge "$min" ] && [ "$v" -gt "$bestv" ]; then best="$d"; bestv="$v"; fi
  done
done
if [ -z "$best" ]; then
  echo "Farrier needs a JDK $min or newer: JAVA_HOME (${JAVA_HOME:-unset}) is older or unset and none was found under ${FARRIER_JDK_ROOTS:-/usr/lib/jvm}. Install Temurin $min (apt package temurin-$min-jdk) or point JAVA_HOME at one." >&2
  exit 1
fi
echo "$best"
