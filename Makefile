# Farrier front door. `make sandbox` plays the drift-upgrade blueprint on a local stack; `make test` runs every tier.
SHELL := /bin/bash
JAVA_HOME := $(shell tools/java-home.sh)
export JAVA_HOME
FARRIER_CACHE ?= $(HOME)/.cache/farrier
export FARRIER_CACHE
MVN := ./mvnw -B -ntp
SANDBOX_ARGS ?=

.PHONY: help tools build test unit sandbox bench mutation clean check-java

help:
	@echo "make sandbox   bring up Temporal + Kubernetes + simulated EC2 and play a scenario (SANDBOX_ARGS=\"--scenario blocked-drain\", --keep to leave it up, --help lists the scenarios)"
	@echo "make test      the whole suite: unit, workflow, integration, end to end"
	@echo "make unit      unit and workflow tests only (no local stack)"
	@echo "make tools     install the local stack into $(FARRIER_CACHE)"
	@echo "make bench     scheduling benchmark and sandbox provisioning latency (figures in .run/bench/, see docs/BENCHMARKS.md)"
	@echo "make mutation mutation testing (PIT) of the replacement's drain policy and blocker against their tests"

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

# Not part of `make test`: the bench module's few unit tests run there, the measurements only here. Packages (no
# install) just the modules it runs; BENCH_ARGS / LATENCY_ARGS pass options through (e.g. BENCH_ARGS="--sizes 100,5000").
BENCH_ARGS ?=
LATENCY_ARGS ?=
BENCH_LABEL := planner $(shell git rev-parse --short HEAD 2>/dev/null)$(shell git diff --quiet HEAD -- workflows 2>/dev/null || echo "+changes")
JAVA_RUN := "$(JAVA_HOME)/bin/java" --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED

bench: check-java tools
	$(MVN) -q -DskipTests -pl bench,worker -am package
	@cp=$$(cat bench/target/classpath.txt):bench/target/classes; \
	  $(JAVA_RUN) -Xms2g -Xmx4g -cp "$$cp" dev.farrier.bench.SchedulingBenchmark --label "$(BENCH_LABEL)" $(BENCH_ARGS)
	@cp=$$(cat worker/target/classpath.txt):worker/target/classes; \
	  $(JAVA_RUN) -cp "$$cp" dev.farrier.worker.sandbox.LatencyBenchmark --label "$(BENCH_LABEL)" $(LATENCY_ARGS)

# Mutation testing (PIT) of the replacement's decisions: the drain policy, the blocker, the phases, against their unit
# and workflow tests. Not part of `make test`; the report is in workflows/target/pit-reports/.
MUTATION_CLASSES ?= dev.farrier.workflows.replacement.DrainPolicy,dev.farrier.workflows.replacement.Blocker,dev.farrier.workflows.replacement.ReplacementPhase
MUTATION_TESTS ?= dev.farrier.workflows.replacement.DrainPolicyTest,dev.farrier.workflows.replacement.OperatorActionsTest
mutation: check-java
	$(MVN) -q -pl workflows -DskipTests test-compile
	$(MVN) -pl workflows org.pitest:pitest-maven:mutationCoverage -DtargetClasses=$(MUTATION_CLASSES) -DtargetTests=$(MUTATION_TESTS)

clean:
	$(MVN) -q clean
