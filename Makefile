# Farrier front door. `make sandbox` plays the drift-upgrade blueprint on a local stack; `make test` runs every tier.
SHELL := /bin/bash
JAVA_HOME := $(shell tools/java-home.sh)
export JAVA_HOME
FARRIER_CACHE ?= $(HOME)/.cache/farrier
export FARRIER_CACHE
MVN := ./mvnw -B -ntp
SANDBOX_ARGS ?=

.PHONY: help tools build test unit docs sandbox chaos bench bench-peer mutation clean check-java image

help:
	@echo "make sandbox   bring up Temporal + Kubernetes + simulated EC2 and play a scenario (SANDBOX_ARGS=\"--scenario blocked-drain\", --keep to leave it up, --help lists the scenarios)"
	@echo "make test      the whole suite: unit, workflow, integration, end to end"
	@echo "make unit      unit and workflow tests only (no local stack)"
	@echo "make chaos     the chaos soak: seeded churn and faults on a 60-node sandbox fleet, Farrier's promises checked every second (SEED=1 DURATION=60m SIZE=20; report in .run/chaos/seed-SEED/report.md, see docs/SAFETY.md)"
	@echo "make docs      the documentation site (MkDocs, strict) into .run/site, the Helm values reference regenerated"
	@echo "make tools     install the local stack into $(FARRIER_CACHE)"
	@echo "make image     the worker's container image, an OCI tarball: worker/target/farrier-worker-image.tar (no Docker needed)"
	@echo "make bench     scheduling, consolidation, provisioning latency, fleet rolls and worker memory (BENCH_ONLY=\"latency memory\" picks some; figures in .run/bench/, see docs/BENCHMARKS.md)"
	@echo "make bench-peer Karpenter side by side, its pinned release built from the Go module proxy: its scheduling benchmark against Farrier's planner (.run/bench/peer.md) and its own controller against Farrier's worker on the same workloads (.run/bench/peer-system.md); PEER_ONLY=\"system\" runs one half"
	@echo "make mutation mutation testing (PIT) of the safety-critical decision code against its tests (docs/MUTATION.md)"

check-java:
	@test -n "$(JAVA_HOME)" || { echo "no JDK 25 found (see the message above)"; exit 1; }

tools:
	@tools/install.sh all >/dev/null

build: check-java
	$(MVN) -q -DskipTests -Dfarrier.image.skip=true install

# Jib on the offline base tools/install.sh builds (a jlinked JDK 25 and Debian's libc6); README "Container image" has
# the eclipse-temurin base and pushing to a registry.
image: check-java
	@tools/install.sh image-base >/dev/null
	$(MVN) -q -DskipTests -pl worker -am verify
	@ls -lh worker/target/farrier-worker-image.tar

# The docs site first (seconds; fails on a broken link or anchor, or a Helm values reference out of date), then every
# tier. Whatever the outcome, the 10 slowest test classes of the run are printed at its end (tools/slowest-tests.py).
test: check-java tools
	@tools/docs/build.sh --check
	@$(MVN) verify; status=$$?; python3 tools/slowest-tests.py; exit $$status

docs:
	@tools/docs/build.sh

unit: check-java
	$(MVN) -DskipITs verify

sandbox: check-java tools build
	@cp=$$(cat sandbox/target/classpath.txt):$(CURDIR)/sandbox/target/classes; \
	  "$(JAVA_HOME)/bin/java" --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED -cp "$$cp" dev.farrier.sandbox.Sandbox $(SANDBOX_ARGS)

# Not part of `make test` (its 5-minute variant, ChaosSoakIT, is): exits non-zero on a violation or a fleet that does
# not settle. SEED picks the plan; the same SEED and DURATION play the same steps.
SEED ?= 1
DURATION ?= 60m
SIZE ?= 20
chaos: check-java tools build
	@cp=$$(cat sandbox/target/classpath.txt):$(CURDIR)/sandbox/target/classes; \
	  "$(JAVA_HOME)/bin/java" --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED -cp "$$cp" \
	  dev.farrier.sandbox.chaos.ChaosSoak --seed $(SEED) --duration $(DURATION) --size $(SIZE)

# Not part of `make test`: the bench module's few unit tests run there, the measurements only here. Packages (no
# install) just the modules it runs; BENCH_ARGS / CONSOLIDATION_ARGS / LATENCY_ARGS / FLEET_ARGS / MEMORY_ARGS (and
# DAY_ARGS / TEMPORAL_ARGS of the two run only when BENCH_ONLY names them) pass
# options through (e.g. BENCH_ARGS="--sizes 100,5000", LATENCY_ARGS="--pods 1,100", FLEET_ARGS="--nodes 100
# --concurrent 50", MEMORY_ARGS="--pods 1000"). BENCH_ONLY picks some of them (e.g. BENCH_ONLY="latency memory").
BENCH_ARGS ?=
LATENCY_ARGS ?=
CONSOLIDATION_ARGS ?=
FLEET_ARGS ?=
MEMORY_ARGS ?=
DAY_ARGS ?=
TEMPORAL_ARGS ?=
BENCH_ONLY ?= scheduling consolidation latency fleet memory
BENCH_LABEL := $(shell git rev-parse --short HEAD 2>/dev/null)$(shell git diff --quiet HEAD 2>/dev/null || echo "+changes")
JAVA_RUN := "$(JAVA_HOME)/bin/java" --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED
BENCH_CP := $$(cat bench/target/classpath.txt):bench/target/classes
SANDBOX_CP := $$(cat sandbox/target/classpath.txt):$(CURDIR)/sandbox/target/classes

bench: check-java tools
	$(MVN) -q -DskipTests -pl bench,sandbox,starter -am package
	@for b in $(BENCH_ONLY); do case $$b in \
	  scheduling) $(JAVA_RUN) -Xms2g -Xmx4g -cp "$(BENCH_CP)" dev.farrier.bench.SchedulingBenchmark --label "$(BENCH_LABEL)" $(BENCH_ARGS) ;; \
	  consolidation) $(JAVA_RUN) -Xms2g -Xmx4g -cp "$(BENCH_CP)" dev.farrier.bench.ConsolidationBenchmark --label "$(BENCH_LABEL)" $(CONSOLIDATION_ARGS) ;; \
	  latency) $(JAVA_RUN) -cp "$(SANDBOX_CP)" dev.farrier.sandbox.bench.LatencyBenchmark --label "$(BENCH_LABEL)" $(LATENCY_ARGS) ;; \
	  fleet) $(JAVA_RUN) -cp "$(SANDBOX_CP)" dev.farrier.sandbox.bench.FleetBenchmark --label "$(BENCH_LABEL)" $(FLEET_ARGS) ;; \
	  memory) $(JAVA_RUN) -cp "$(SANDBOX_CP)" dev.farrier.sandbox.bench.MemoryBenchmark --label "$(BENCH_LABEL)" $(MEMORY_ARGS) ;; \
	  day) $(JAVA_RUN) -Xmx2g -cp "$(BENCH_CP)" dev.farrier.bench.ReconcilerDayBenchmark --label "$(BENCH_LABEL)" $(DAY_ARGS) ;; \
	  temporal) $(JAVA_RUN) -cp "$(SANDBOX_CP)" dev.farrier.sandbox.bench.TemporalBenchmark --label "$(BENCH_LABEL)" $(TEMPORAL_ARGS) ;; \
	  *) echo "BENCH_ONLY: unknown benchmark '$$b' (scheduling consolidation latency fleet memory day temporal)"; exit 1 ;; \
	  esac || exit 1; done

# Not part of `make test` either (a small size of its live half is): Karpenter against Farrier, pinned at
# KARPENTER_VERSION of tools/versions.env and built from the Go module proxy (docs/benchmarks/peer.md).
#   1. planners: Karpenter's scheduling benchmark and Farrier's planner on the same pods and Karpenter's fake catalogue
#      (tools/bench-peer.sh; PEER_ARGS="--sizes 1000,5000"; table in .run/bench/peer.md);
#   2. live controllers: Karpenter's own controller with its kwok provider (make tools builds it) and Farrier's worker,
#      each on a fresh local stack, the same workloads and catalogue (PeerSystemBenchmark; PEER_SYSTEM_ARGS="--pods
#      1000 --drift-nodes 200"; table in .run/bench/peer-system.md). PEER_ONLY="planner" or "system" runs one half.
PEER_ARGS ?=
PEER_SYSTEM_ARGS ?=
PEER_ONLY ?= planner system
bench-peer: check-java tools
	$(MVN) -q -DskipTests -pl bench,sandbox -am package
	@for p in $(PEER_ONLY); do case $$p in \
	  planner) tools/bench-peer.sh --label "$(BENCH_LABEL)" $(PEER_ARGS) ;; \
	  system) $(JAVA_RUN) -cp "$(SANDBOX_CP)" dev.farrier.sandbox.bench.peer.PeerSystemBenchmark --label "$(BENCH_LABEL)" $(PEER_SYSTEM_ARGS) ;; \
	  *) echo "PEER_ONLY: unknown part '$$p' (planner system)"; exit 1 ;; \
	  esac || exit 1; done

# Mutation testing (PIT) of the decision code that keeps Farrier's safety promises (docs/SAFETY.md), against its fast
# tests: the disruption planner, budgets, drift and expiry, the drain's policy, pod rules and order, ownership, the
# NodePool validation, garbage collection's policy and overflow-safe quantities. Not part of `make test`; one report per module
# in <module>/target/pit-reports/ (docs/MUTATION.md has the score and the surviving mutants explained).
MUTATION_CLASSES ?= dev.farrier.planner.DisruptionPlanner*,dev.farrier.planner.BudgetCheck,\
  dev.farrier.planner.DisruptionBudget,dev.farrier.planner.DriftCheck,dev.farrier.planner.Expiry,\
  dev.farrier.planner.NodeClaimView,dev.farrier.model.GoDurations,dev.farrier.model.Resources,\
  dev.farrier.workflows.replacement.DrainPolicy,dev.farrier.workflows.replacement.Blocker,dev.farrier.workflows.replacement.ReplacementPhase,\
  dev.farrier.activities.drain.DrainRules*,dev.farrier.activities.drain.DrainOrder*,dev.farrier.activities.cloud.Ownership,dev.farrier.activities.provisioning.NodePoolValidation,\
  dev.farrier.activities.views.ResourceQuantities,dev.farrier.activities.gc.GcPolicy,\
  dev.farrier.planner.Emptiness,dev.farrier.planner.ConsolidationTiming,\
  dev.farrier.planner.Underutilization*,dev.farrier.planner.CheaperOfferings
MUTATION_TESTS ?= dev.farrier.planner.Disruption*Test,dev.farrier.planner.PlannerEdgesTest,\
  dev.farrier.model.GoDurationsTest,dev.farrier.model.ResourcesTest,dev.farrier.workflows.replacement.InstanceCheckTest,\
  dev.farrier.workflows.replacement.DrainPolicyTest,dev.farrier.workflows.replacement.OperatorActionsTest,\
  dev.farrier.activities.drain.DrainInvariantsTest,dev.farrier.activities.drain.DrainOrderTest,dev.farrier.activities.cloud.OwnershipTest,dev.farrier.activities.provisioning.NodePoolValidation*Test,\
  dev.farrier.activities.gc.GcPolicyTest,dev.farrier.planner.EmptinessTest,dev.farrier.planner.UnderutilizationTest,\
  dev.farrier.planner.CheaperOfferingsTest
empty :=
space := $(empty) $(empty)
mutation: check-java
	$(MVN) -pl model,planner,workflows,localstack,activities test-compile org.pitest:pitest-maven:mutationCoverage \
	  -DtargetClasses="$(subst $(space),,$(MUTATION_CLASSES))" -DtargetTests="$(subst $(space),,$(MUTATION_TESTS))" \
	  -DfailWhenNoMutations=false

clean:
	$(MVN) -q clean
