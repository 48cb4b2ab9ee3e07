# Farrier front door. `make sandbox` plays the drift-upgrade blueprint on a local stack; `make test` runs every tier.
SHELL := /bin/bash
JAVA_HOME := $(shell tools/java-home.sh)
export JAVA_HOME
FARRIER_CACHE ?= $(HOME)/.cache/farrier
export FARRIER_CACHE
MVN := ./mvnw -B -ntp
SANDBOX_ARGS ?=

.PHONY: help tools build test unit sandbox bench clean check-java

help:
	@echo "make sandbox   bring up Temporal + Kubernetes + simulated EC2 and play the drift upgrade (SANDBOX_ARGS=--keep to leave it up)"
	@echo "make test      the whole suite: unit, workflow, integration, end to end"
	@echo "make unit      unit and workflow tests only (no local stack)"
	@echo "make tools     install the local stack into $(FARRIER_CACHE)"

check-java:
	@test -n "$(JAVA_HOME)" || { echo "no JDK 25 found (see the message above)"; exit 1; }

tools:
	@tools/install.sh all >/dev/null

build: check-java
	$(MVN) -q -DskipTests install

test: check-java tools
	$(MVN) verify

unit: check-java
	$(MVN) -DskipITs verify

sandbox: check-java tools build
	@cp=$$(cat worker/target/classpath.txt):worker/target/classes; \
	  "$(JAVA_HOME)/bin/java" --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED -cp "$$cp" dev.farrier.worker.sandbox.Sandbox $(SANDBOX_ARGS)

clean:
	$(MVN) -q clean
