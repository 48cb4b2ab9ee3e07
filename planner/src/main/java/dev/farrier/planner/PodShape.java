package dev.farrier.planner;

import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.Toleration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Pending pods that differ only by name (the replicas of one workload): the planner derives their node alternatives,
 * topology groups, pool admission and existing-node compatibility once per shape, not once per pod.
 */
final class PodShape {
  /** Everything about a pod that placement depends on. */
  record Key(String namespace, Resources requests, Map<String, String> nodeSelector, List<List<Requirement>> requiredTerms,
      List<Toleration> tolerations, Map<String, String> labels, List<PreferredNodeTerm> preferred,
      List<TopologySpread> spread, List<PodAffinityTerm> podAffinity, List<Requirement> volumes, List<HostPort> hostPorts,
      List<CsiVolume> csiVolumes) {
    static Key of(PodSpecView p) {
      return new Key(p.pod().namespace(), p.requestsAsOnePod(), p.nodeSelector(), p.requiredAffinityTerms(),
          p.tolerations(), p.labels(), p.preferredAffinity(), p.topologySpread(), p.podAffinity(), p.volumeRequirements(), p.hostPorts(),
          p.csiVolumes());
    }
  }

  /** One spread constraint with the group it counts. */
  record SpreadRule(TopologySpread constraint, TopologyGroup group) {}

  /** One pod (anti-)affinity term with the group it counts and whether the pod matches it itself. */
  record AffinityRule(PodAffinityTerm term, TopologyGroup group, boolean selfSelecting) {}

  final PodSpecView spec;
  final String namespace;
  final Resources requests;
  /** Preferences in the order they are given up: weighted terms from the lowest weight, then ScheduleAnyway spreads. */
  final List<Object> preferences;
  final List<SpreadRule> spreads = new ArrayList<>();
  final List<AffinityRule> affinities = new ArrayList<>();
  /** Groups (spread or affinity, anyone's) that count pods of this shape. */
  final List<TopologyGroup> countedBy = new ArrayList<>();
  /** Inverse groups whose owners' required anti-affinity selects pods of this shape. */
  final List<TopologyGroup> repelledBy = new ArrayList<>();
  /** Inverse groups of this shape's own required anti-affinity terms (it is one of their owners). */
  final List<TopologyGroup> owns = new ArrayList<>();
  private final Attempt[] attempts;
  private final String[] admission;
  private final boolean[] admissionKnown;

  PodShape(PodSpecView spec, int pools) {
    this.spec = spec;
    this.namespace = spec.pod().namespace();
    this.requests = spec.requestsAsOnePod();
    List<Object> weighted = new ArrayList<>();
    spec.podAffinity().stream().filter(t -> !t.required()).forEach(weighted::add);
    weighted.addAll(spec.preferredAffinity());
    weighted.sort(Comparator.comparingInt(PodShape::weight));
    List<Object> prefs = new ArrayList<>(weighted);
    spec.topologySpread().stream().filter(c -> !c.doNotSchedule()).forEach(prefs::add);
    this.preferences = List.copyOf(prefs);
    this.attempts = new Attempt[preferences.size() + 1];
    this.admission = new String[pools];
    this.admissionKnown = new boolean[pools];
  }

  private static int weight(Object preference) {
    return preference instanceof PodAffinityTerm t ? t.weight() : ((PreferredNodeTerm) preference).weight();
  }

  int levels() {
    return attempts.length;
  }

  /** Whether the pod's placement can depend on where other pods of the batch went. */
  boolean dependsOnOthers() {
    return !spreads.isEmpty() || !affinities.isEmpty() || !repelledBy.isEmpty();
  }

  String admission(PoolContext pool) {
    if (!admissionKnown[pool.index]) {
      String problem = pool.admissionProblem(spec.tolerations());
      admission[pool.index] = problem != null ? problem : pool.portProblem(spec.hostPorts());
      admissionKnown[pool.index] = true;
    }
    return admission[pool.index];
  }

  /** The constraints in force with the first {@code level} preferences given up. */
  Attempt attempt(int level) {
    if (attempts[level] == null) {
      List<Object> kept = preferences.subList(level, preferences.size());
      List<PreferredNodeTerm> nodeTerms = new ArrayList<>();
      List<SpreadRule> spreadRules = new ArrayList<>();
      List<AffinityRule> affinityRules = new ArrayList<>();
      for (SpreadRule r : spreads) {
        if (r.constraint().doNotSchedule() || kept.contains(r.constraint())) {
          spreadRules.add(r);
        }
      }
      for (AffinityRule r : affinities) {
        if (r.term().required() || kept.contains(r.term())) {
          affinityRules.add(r);
        }
      }
      for (Object o : kept) {
        if (o instanceof PreferredNodeTerm t) {
          nodeTerms.add(t);
        }
      }
      attempts[level] = new Attempt(level, NodeAlternative.of(spec, nodeTerms), spreadRules, affinityRules);
    }
    return attempts[level];
  }

  /** The pod's constraints at one relaxation level, with what is cached about them. */
  static final class Attempt {
    final int level;
    final List<NodeAlternative> alternatives;
    final List<SpreadRule> spreads;
    final List<AffinityRule> affinities;
    private byte[] existingFit;
    private byte[][] poolConflict;
    /**
     * How many of the first existing nodes and of the first claims planned can never take a pod at this level: each
     * refused it for a reason that only gets worse as pods are placed (room, taints, labels, a hostname rule whose
     * count only grows). The planner starts its first-fit scan after them, which keeps a batch's planning near linear
     * in its pods instead of offering every pod to every claim; it is a prefix so the scan order, and so the plan,
     * stays the plain first fit's.
     */
    int existingRefusedForGood;
    int draftsRefusedForGood;

    Attempt(int level, List<NodeAlternative> alternatives, List<SpreadRule> spreads, List<AffinityRule> affinities) {
      this.level = level;
      this.alternatives = alternatives;
      this.spreads = spreads;
      this.affinities = affinities;
    }

    /** Whether an alternative can hold in the pool at all (labels the pool does not define, values it forbids). */
    boolean compatibleWith(PoolContext pool, int alternative, int pools) {
      if (poolConflict == null) {
        poolConflict = new byte[pools][];
      }
      if (poolConflict[pool.index] == null) {
        poolConflict[pool.index] = new byte[alternatives.size()];
      }
      byte known = poolConflict[pool.index][alternative];
      if (known == 0) {
        NodeAlternative alt = alternatives.get(alternative);
        boolean ok = alt.invalid() == null && pool.requirements.conflictWith(alt.requirements()) == null;
        known = ok ? (byte) 1 : (byte) 2;
        poolConflict[pool.index][alternative] = known;
      }
      return known == 1;
    }

    /** Whether the pod tolerates the existing node's taints and one alternative matches its labels. */
    boolean fitsExisting(ExistingSlot slot, List<Toleration> tolerations, int slots) {
      if (existingFit == null) {
        existingFit = new byte[slots];
      }
      byte known = existingFit[slot.index];
      if (known == 0) {
        boolean ok = Tolerations.firstUntolerated(slot.taints, tolerations) == null
            && alternatives.stream().anyMatch(a -> a.invalid() == null && a.requirements().allowsOn(slot.node.labels(), k -> true));
        known = ok ? (byte) 1 : (byte) 2;
        existingFit[slot.index] = known;
      }
      return known == 1;
    }
  }
}
