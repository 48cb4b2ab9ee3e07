package dev.farrier.bench;

import java.util.Map;

/**
 * One pending pod of a benchmark workload, in the benchmark's own terms so the workloads stay the same whatever the
 * planner's input model looks like ({@link PlannerInput} translates).
 *
 * @param constraint what ties this pod to others; {@link Constraint#NONE} for a generic pod
 */
record BenchPod(String name, long milliCpu, long memoryBytes, Map<String, String> labels, Constraint constraint) {
  BenchPod {
    labels = Map.copyOf(labels);
  }

  /** A scheduling constraint between pods: its kind, the topology key it is about and the pods it selects. */
  record Constraint(Kind kind, String topologyKey, Map<String, String> selector) {
    static final Constraint NONE = new Constraint(Kind.NONE, null, Map.of());

    Constraint {
      selector = Map.copyOf(selector);
    }
  }

  enum Kind {
    NONE,
    /** topology spread, maxSkew 1, DoNotSchedule */
    SPREAD,
    /** required pod affinity */
    AFFINITY,
    /** required pod anti-affinity */
    ANTI_AFFINITY
  }
}
