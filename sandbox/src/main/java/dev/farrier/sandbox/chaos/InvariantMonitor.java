package dev.farrier.sandbox.chaos;

import dev.farrier.model.WellKnown;
import dev.farrier.sandbox.chaos.Observation.CloudInstance;
import dev.farrier.sandbox.chaos.Violation.Invariant;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Checks a fleet's observations, one after another, against the promises that need no knowledge of why a node is
 * disrupted: one live instance per NodeClaim, no Farrier instance without its NodeClaim past the garbage collection
 * grace, foreign instances never touched, and, once the faults stop, a settled fleet. It reads only what an observation
 * holds (the cloud's instances and tags, the API server's NodeClaims), never Farrier's own state, so a bug in the
 * worker cannot hide from it. Not thread-safe: one collector feeds it.
 */
public final class InvariantMonitor {
  private final String cluster;
  private final Set<String> foreign;
  private final Duration orphanGrace;
  /** When each live Farrier instance without a NodeClaim was first seen so. */
  private final Map<String, Instant> orphanSince = new HashMap<>();
  private int checks;

  /**
   * @param cluster the cluster name Farrier tags its instances with
   * @param foreign the ids of instances in the account Farrier did not launch (the harness made them), live at the start
   * @param orphanGrace how long a Farrier instance may live without a NodeClaim: the garbage collection's grace and
   *     confirmation, plus the monitor's own margin
   */
  public InvariantMonitor(String cluster, Set<String> foreign, Duration orphanGrace) {
    this.cluster = cluster;
    this.foreign = Set.copyOf(foreign);
    this.orphanGrace = orphanGrace;
  }

  /** The violations this observation shows, given the ones before it. */
  public List<Violation> observe(Observation now) {
    checks++;
    List<Violation> found = new ArrayList<>();
    oneInstancePerClaim(now, found);
    noOrphanPastGrace(now, found);
    foreignUntouched(now, found);
    return found;
  }

  /** The violations of a fleet that should have settled: {@link #observe} plus pods pending and workflows still running. */
  public List<Violation> settled(Observation now) {
    List<Violation> found = new ArrayList<>(observe(now));
    now.pendingPods().forEach(pod -> found.add(new Violation(now.at(), Invariant.SETTLED, pod, "still pending")));
    now.runningWorkflows().forEach(id -> found.add(new Violation(now.at(), Invariant.SETTLED, id, "still running")));
    return found;
  }

  /** How many observations were checked. */
  public int checks() {
    return checks;
  }

  private boolean farriers(CloudInstance instance) {
    Map<String, String> tags = instance.tags();
    return "farrier".equals(tags.get(WellKnown.TAG_OWNER)) && cluster.equals(tags.get(WellKnown.TAG_CLUSTER))
        && tags.get(WellKnown.TAG_NODECLAIM) != null && !foreign.contains(instance.id());
  }

  private void oneInstancePerClaim(Observation now, List<Violation> found) {
    Map<String, List<String>> byClaim = now.instances().stream().filter(CloudInstance::live).filter(this::farriers)
        .collect(Collectors.groupingBy(i -> i.tags().get(WellKnown.TAG_NODECLAIM), TreeMap::new,
            Collectors.mapping(CloudInstance::id, Collectors.toList())));
    byClaim.forEach((claim, ids) -> {
      if (ids.size() > 1) {
        found.add(new Violation(now.at(), Invariant.ONE_INSTANCE_PER_CLAIM, claim, ids.size() + " live instances " + ids));
      }
    });
  }

  private void noOrphanPastGrace(Observation now, List<Violation> found) {
    Set<String> claims = now.claims().stream().map(Observation.Claim::name).collect(Collectors.toSet());
    Set<String> orphans = new HashSet<>();
    for (CloudInstance instance : now.instances()) {
      if (instance.live() && farriers(instance) && !claims.contains(instance.tags().get(WellKnown.TAG_NODECLAIM))) {
        orphans.add(instance.id());
        Instant since = orphanSince.computeIfAbsent(instance.id(), id -> now.at());
        Duration orphaned = Duration.between(since, now.at());
        if (orphaned.compareTo(orphanGrace) > 0) {
          found.add(new Violation(now.at(), Invariant.NO_ORPHAN_PAST_GRACE, instance.id(), "no NodeClaim "
              + instance.tags().get(WellKnown.TAG_NODECLAIM) + " for " + orphaned.toSeconds() + " s (grace " + orphanGrace.toSeconds() + " s)"));
        }
      }
    }
    orphanSince.keySet().retainAll(orphans);
  }

  private void foreignUntouched(Observation now, List<Violation> found) {
    Map<String, CloudInstance> byId = now.instances().stream().collect(Collectors.toMap(CloudInstance::id, i -> i, (a, b) -> a));
    for (String id : new TreeSet<>(foreign)) {
      CloudInstance instance = byId.get(id);
      if (instance == null) {
        found.add(new Violation(now.at(), Invariant.FOREIGN_UNTOUCHED, id, "gone from the account"));
      } else if (!instance.live()) {
        found.add(new Violation(now.at(), Invariant.FOREIGN_UNTOUCHED, id, "state " + instance.state()));
      }
    }
  }
}
