package dev.farrier.sandbox.bench.peer;

import dev.farrier.sandbox.Await;
import dev.farrier.sandbox.NodePoolConditions;
import dev.farrier.sandbox.bench.Percentiles;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * The three workloads on one controller, one after the other on its stack, measured the same way for both from the
 * API server and {@code /proc}: scale-out of the mix, consolidation after the mix is scaled down to 30%, and a drift of
 * a fleet of one pod per node by a NodePool template change. A phase that does not settle within the timeout is
 * reported as such with what was seen, not dropped.
 */
final class PeerRun {
  static final String NODE_POOL = "peer";
  static final String REVISION_LABEL = "peer.farrier.dev/revision";
  /** What a settle window must leave a controller past consolidateAfter to decide and start a consolidation. */
  static final Duration DECIDING = Duration.ofSeconds(45);

  /**
   * What to run: pods of the mix, nodes of the drift fleet (0: no drift), the seed, the NodePool's consolidateAfter and
   * disruption budget, how long a fleet must stay unchanged to count as settled, and each phase's bound. The window
   * must outlast consolidateAfter with room for a decision (Karpenter looks every 10 s and validates a consolidation
   * for 15 s more; 35 s was not enough for it at 20 pods), or a fleet would count as settled before consolidation
   * could begin.
   */
  record Sizes(int pods, int driftNodes, long seed, Duration consolidateAfter, String budget, Duration settleWindow, Duration timeout) {
    Sizes {
      if (settleWindow.compareTo(consolidateAfter.plus(DECIDING)) < 0) {
        throw new IllegalArgumentException("a settle window of " + settleWindow.toSeconds() + "s does not outlast consolidateAfter "
            + consolidateAfter.toSeconds() + "s by the " + DECIDING.toSeconds() + " s a controller takes to decide");
      }
    }
  }

  /** One phase's cost to the controller and to the server it needs (Farrier's Temporal), if any. */
  record Cost(ProcessMeter.Use controller, Optional<ProcessMeter.Use> server) {}

  record ScaleOut(int pods, Percentiles toRunningSeconds, double allRunningSeconds, long claimsLaunched, FleetPrice fleet,
      Optional<Double> settledSeconds, Cost cost) {}

  record Consolidation(FleetPrice before, FleetPrice after, Optional<Double> settledSeconds, long podsDisrupted,
      long claimsLaunched, Cost cost) {}

  record Drift(int nodes, Optional<Double> makespanSeconds, long podsDisrupted, long peakUnavailable, long claimsLaunched,
      Cost cost) {}

  /**
   * What the figures plot: each pod's seconds from created to Running in the scale-out, and the fleet's price every
   * {@value #PRICE_EVERY} seconds as (seconds from the run's start, $/h) through all phases.
   */
  record Series(List<Double> toRunningSeconds, List<double[]> fleetPrice) {
    Series {
      toRunningSeconds = List.copyOf(toRunningSeconds);
      fleetPrice = List.copyOf(fleetPrice);
    }

    static final Series NONE = new Series(List.of(), List.of());
  }

  record Result(String controller, ScaleOut scaleOut, Consolidation consolidation, Optional<Drift> drift, Series series) {
    Result(String controller, ScaleOut scaleOut, Consolidation consolidation, Optional<Drift> drift) {
      this(controller, scaleOut, consolidation, drift, Series.NONE);
    }
  }

  /** The fleet's price is sampled for the figure every this many seconds. */
  static final int PRICE_EVERY = 5;

  private final PeerController controller;
  private final KwokCatalogue catalogue;
  private final Sizes sizes;
  private final PrintStream log;
  private final KubernetesClient kube;
  private final ProcessMeter controllerMeter;
  private final Optional<ProcessMeter> serverMeter;
  private volatile Settling settling = new Settling();
  private volatile BooleanSupplier driftDone = () -> false;
  private volatile Instant driftDoneAt;
  private final AtomicLong driftPeakUnavailable = new AtomicLong();
  /** The NodePool's nodes, from an informer: the sampler looks every second. */
  private volatile SharedIndexInformer<Node> nodeInformer;
  private volatile boolean measuringDrift;
  private final Instant started = Instant.now();
  private long samples;
  /** (seconds from the start, $/h), appended by the sampler and read once the phases end. */
  private final List<double[]> fleetPrice = new CopyOnWriteArrayList<>();
  private volatile List<Double> toRunning = List.of();

  private PeerRun(PeerController controller, KwokCatalogue catalogue, Sizes sizes, PrintStream log) {
    this.controller = controller;
    this.catalogue = catalogue;
    this.sizes = sizes;
    this.log = log;
    this.kube = controller.kube();
    this.controllerMeter = new ProcessMeter(controller.controllerPid());
    var server = controller.serverPid();
    this.serverMeter = server.isPresent() ? Optional.of(new ProcessMeter(server.getAsLong())) : Optional.empty();
  }

  static Result run(PeerController controller, KwokCatalogue catalogue, Sizes sizes, PrintStream log) throws InterruptedException {
    return new PeerRun(controller, catalogue, sizes, log).run();
  }

  private Result run() throws InterruptedException {
    applyNodePool("1");
    Await.until("NodePool " + NODE_POOL + " Ready on " + controller.name(), Duration.ofMinutes(2),
        () -> NodePoolConditions.isTrue(kube, NODE_POOL, "Ready"), () -> String.valueOf(NodePoolConditions.find(kube, NODE_POOL, "Ready")));
    kube.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(PeerWorkload.NAMESPACE).endMetadata().build()).serverSideApply();
    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("peer-sampler").factory());
    try (var pods = new PodLedger(kube, PeerWorkload.NAMESPACE); var claims = new ClaimLedger(kube);
        var nodes = kube.nodes().withLabel("karpenter.sh/nodepool", NODE_POOL).inform()) {
      nodeInformer = nodes;
      sampler.scheduleWithFixedDelay(() -> sample(pods, claims), 0, 1, TimeUnit.SECONDS);
      var parts = PeerWorkload.mix(sizes.seed());
      var replicas = PeerWorkload.replicas(parts, sizes.pods());
      var scaleOut = scaleOut(pods, claims, parts, replicas);
      var consolidation = consolidation(pods, claims, replicas, scaleOut.fleet());
      var drift = sizes.driftNodes() > 0 ? Optional.of(drift(pods, claims, parts)) : Optional.<Drift>empty();
      return new Result(controller.name(), scaleOut, consolidation, drift, new Series(toRunning, fleetPrice));
    } finally {
      sampler.shutdownNow();
    }
  }

  private ScaleOut scaleOut(PodLedger pods, ClaimLedger claims, List<PeerWorkload.Part> parts, Map<String, Integer> replicas) {
    log.printf("%s %s: scale-out of %d pods (%s)%n", Instant.now(), controller.name(), sizes.pods(), replicas);
    Instant start = phase();
    PeerWorkload.mixDeployments(parts, replicas).forEach(d -> kube.apps().deployments().resource(d).create());
    Await.until(sizes.pods() + " pods Running on " + controller.name(), sizes.timeout(),
        () -> pods.running() >= sizes.pods() && pods.waiting() == 0, () -> pods.running() + " running, " + pods.waiting() + " waiting");
    double allRunning = seconds(start, Instant.now());
    toRunning = pods.entries().stream().filter(e -> e.running() != null && !e.seen().isBefore(start))
        .map(e -> Duration.between(e.seen(), e.running()).toMillis() / 1000.0).toList();
    var settled = awaitSettled(claims, start, sizes.settleWindow());
    var result = new ScaleOut(sizes.pods(), Percentiles.of(toRunning), allRunning, claims.createdSince(start), price(), settled, cost());
    logFleet("scale-out");
    log.printf("%s %s: %s%n", Instant.now(), controller.name(), result);
    return result;
  }

  private Consolidation consolidation(PodLedger pods, ClaimLedger claims, Map<String, Integer> replicas, FleetPrice before) {
    var scaled = PeerWorkload.scaled(replicas, 0.3);
    long removed = replicas.values().stream().mapToLong(Integer::longValue).sum() - scaled.values().stream().mapToLong(Integer::longValue).sum();
    log.printf("%s %s: consolidation after scaling the mix to 30%% (%s)%n", Instant.now(), controller.name(), scaled);
    Instant start = phase();
    scaled.forEach((name, n) -> kube.apps().deployments().inNamespace(PeerWorkload.NAMESPACE).withName(name).scale(n));
    var settled = awaitSettled(claims, start, sizes.timeout()); // a scale-down: the controller's move is awaited
    long disrupted = Math.max(0, pods.deletedSince(null, start) - removed);
    var result = new Consolidation(before, price(), settled, disrupted, claims.createdSince(start), cost());
    logFleet("consolidation");
    log.printf("%s %s: %s%n", Instant.now(), controller.name(), result);
    return result;
  }

  private Drift drift(PodLedger pods, ClaimLedger claims, List<PeerWorkload.Part> parts) {
    int nodes = sizes.driftNodes();
    log.printf("%s %s: drift of %d nodes of one pod each (budget %s, PodDisruptionBudget maxUnavailable 10%%)%n", Instant.now(), controller.name(), nodes,
        sizes.budget());
    parts.forEach(p -> kube.apps().deployments().inNamespace(PeerWorkload.NAMESPACE).withName(p.name()).delete());
    kube.policy().v1().podDisruptionBudget().resource(PeerWorkload.driftBudget()).create();
    kube.apps().deployments().resource(PeerWorkload.deployment(PeerWorkload.driftPart(), nodes)).create();
    Instant setup = phase();
    Await.until(nodes + " drift pods Running on " + controller.name(), sizes.timeout(),
        () -> pods.running(PeerWorkload.DRIFT) >= nodes && pods.running() == nodes, () -> pods.running(PeerWorkload.DRIFT) + " running");
    awaitSettled(claims, setup, sizes.settleWindow().multipliedBy(2)); // a consolidated node left empty: removed
    // Rolled off when no live NodeClaim carries a NodePool hash from before the change (Farrier computes the hash
    // where Karpenter also writes it on the NodePool, so the claims' own annotation is what both have).
    var oldHashes = claims.live().stream().map(ClaimLedger.Entry::hash).collect(Collectors.toSet());
    Instant start = phase();
    driftPeakUnavailable.set(0);
    driftDoneAt = null;
    driftDone = () -> {
      var live = claims.live();
      return live.size() == nodes && live.stream().allMatch(c -> c.hash() != null && !oldHashes.contains(c.hash()) && !c.deleting())
          && pods.running(PeerWorkload.DRIFT) == nodes && pods.waiting() == 0;
    };
    measuringDrift = true;
    applyNodePool("2");
    Optional<Double> makespan;
    try {
      Await.until("the drift of " + nodes + " nodes on " + controller.name(), sizes.timeout(), () -> driftDoneAt != null,
          () -> claims.live().stream().collect(Collectors.groupingBy(c -> Objects.toString(c.hash()), Collectors.counting())) + " claims by hash");
      makespan = Optional.of(seconds(start, driftDoneAt));
    } catch (IllegalStateException timedOut) {
      log.println(timedOut.getMessage());
      makespan = Optional.empty();
    } finally {
      measuringDrift = false;
    }
    var result = new Drift(nodes, makespan, pods.deletedSince(PeerWorkload.DRIFT, start), driftPeakUnavailable.get(), claims.createdSince(start),
        cost());
    log.printf("%s %s: %s%n", Instant.now(), controller.name(), result);
    return result;
  }

  /** Starts a phase: a fresh settling record and fresh process figures. */
  private Instant phase() {
    settling = new Settling();
    controllerMeter.mark();
    serverMeter.ifPresent(ProcessMeter::mark);
    return Instant.now();
  }

  private Cost cost() {
    return new Cost(controllerMeter.use(), serverMeter.map(ProcessMeter::use));
  }

  /**
   * Seconds from {@code start} to the fleet's last change, once it has been quiet for the window ({@code untouched}
   * while the controller has not changed the fleet yet); empty on timeout, when the claims the phase saw come and go
   * are logged: a run's directory rarely outlives a failed CI run, its log does.
   */
  private Optional<Double> awaitSettled(ClaimLedger claims, Instant start, Duration untouched) {
    try {
      Instant at = Await.until("the fleet to settle on " + controller.name(), sizes.timeout(),
          () -> settling.settled(sizes.settleWindow(), untouched).orElse(null),
          () -> settling.last().map(Object::toString).orElse("nothing seen"));
      return Optional.of(Math.max(0, seconds(start, at)));
    } catch (IllegalStateException timedOut) {
      log.println(timedOut.getMessage());
      log.println("claims of the phase (seconds from its start): " + claims.history(start));
      return Optional.empty();
    }
  }

  private void sample(PodLedger pods, ClaimLedger claims) {
    try {
      controllerMeter.sample();
      serverMeter.ifPresent(ProcessMeter::sample);
      List<Node> nodes = poolNodes();
      var live = claims.live();
      boolean disrupting = live.stream().anyMatch(ClaimLedger.Entry::deleting) || nodes.stream().anyMatch(PeerRun::markedForDisruption);
      Instant now = Instant.now();
      if (samples++ % PRICE_EVERY == 0) {
        fleetPrice.add(new double[] {seconds(started, now), FleetPrice.of(nodes, catalogue).dollarsPerHour()});
      }
      settling.observe(new Settling.Snapshot(now, nodes.stream().map(n -> n.getMetadata().getName()).collect(Collectors.toSet()),
          live.stream().map(ClaimLedger.Entry::name).collect(Collectors.toCollection(HashSet::new)), pods.waiting(), disrupting));
      if (measuringDrift) {
        driftPeakUnavailable.accumulateAndGet(sizes.driftNodes() - pods.running(PeerWorkload.DRIFT), Math::max);
        if (driftDoneAt == null && driftDone.getAsBoolean()) {
          driftDoneAt = now;
        }
      }
    } catch (RuntimeException e) {
      // One missed sample is a gap; ending the run on a transient API error would lose it.
      log.println("peer sample skipped: " + e);
    }
  }

  private static boolean markedForDisruption(Node node) {
    return node.getSpec().getTaints() != null && node.getSpec().getTaints().stream().anyMatch(t -> "karpenter.sh/disrupted".equals(t.getKey()));
  }

  private List<Node> poolNodes() {
    return nodeInformer.getStore().list().stream().filter(n -> n.getMetadata().getDeletionTimestamp() == null).toList();
  }

  private FleetPrice price() {
    return FleetPrice.of(poolNodes(), catalogue);
  }

  /**
   * The settled fleet node by node, cheapest first (instance type, zone, capacity type, $/h, the mix's pods on it and
   * the CPU they request), so a report's price can be traced to the nodes behind it.
   */
  private void logFleet(String phase) {
    try {
      List<String> lines = fleetLines();
      log.printf("%s %s: fleet after the %s, %d nodes:%n  %s%n", Instant.now(), controller.name(), phase, lines.size(), String.join("\n  ", lines));
    } catch (RuntimeException e) {
      log.println("fleet log skipped: " + e); // a diagnostic: a transient API error must not end the run
    }
  }

  private List<String> fleetLines() {
    Map<String, List<Pod>> byNode = kube.pods().inNamespace(PeerWorkload.NAMESPACE).list().getItems().stream()
        .filter(p -> p.getSpec().getNodeName() != null).collect(Collectors.groupingBy(p -> p.getSpec().getNodeName()));
    return poolNodes().stream().map(node -> {
      Map<String, String> labels = node.getMetadata().getLabels();
      String type = labels.getOrDefault("node.kubernetes.io/instance-type", "?");
      String zone = labels.getOrDefault("topology.kubernetes.io/zone", "?");
      String capacity = labels.getOrDefault("karpenter.sh/capacity-type", "?");
      double price = catalogue.price(type, zone, capacity).orElse(Double.NaN);
      List<Pod> pods = byNode.getOrDefault(node.getMetadata().getName(), List.of());
      long cpu = pods.stream().flatMap(p -> p.getSpec().getContainers().stream())
          .map(c -> c.getResources() == null || c.getResources().getRequests() == null ? null : c.getResources().getRequests().get("cpu"))
          .filter(Objects::nonNull).mapToLong(KwokCatalogue::millis).sum();
      String apps = pods.stream().collect(Collectors.groupingBy(p -> p.getMetadata().getLabels().getOrDefault("app", "?"), TreeMap::new,
          Collectors.counting())).toString();
      return String.format(Locale.ROOT, "%08.4f %s %s %s cpu %dm %s", price, type, zone, capacity, cpu, apps);
    }).sorted().toList();
  }

  /** The same NodePool for both but its nodeClassRef: both capacity types, the catalogue's types, the budget. */
  private void applyNodePool(String revision) {
    var pool = new GenericKubernetesResourceBuilder().withApiVersion("karpenter.sh/v1").withKind("NodePool")
        .withNewMetadata().withName(NODE_POOL).endMetadata()
        .addToAdditionalProperties("spec", nodePoolSpec(controller.nodeClassRef(), catalogue.names(), sizes.consolidateAfter(), sizes.budget(),
            revision))
        .build();
    kube.genericKubernetesResources("karpenter.sh/v1", "NodePool").resource(pool).forceConflicts().serverSideApply();
  }

  static Map<String, Object> nodePoolSpec(Map<String, String> nodeClassRef, List<String> instanceTypes, Duration consolidateAfter,
      String budget, String revision) {
    return Map.of(
        "disruption", Map.of("consolidationPolicy", "WhenEmptyOrUnderutilized", "consolidateAfter", consolidateAfter.toSeconds() + "s",
            "budgets", List.of(Map.of("nodes", budget))),
        "template", Map.of(
            "metadata", Map.of("labels", Map.of(REVISION_LABEL, revision)),
            "spec", Map.of("expireAfter", "Never", "nodeClassRef", nodeClassRef, "requirements", List.of(
                Map.of("key", "karpenter.sh/capacity-type", "operator", "In", "values", List.of("spot", "on-demand")),
                Map.of("key", "node.kubernetes.io/instance-type", "operator", "In", "values", instanceTypes)))));
  }

  private static double seconds(Instant from, Instant to) {
    return Duration.between(from, to).toMillis() / 1000.0;
  }
}
