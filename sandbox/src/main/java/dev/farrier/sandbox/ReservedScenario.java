package dev.farrier.sandbox;

import dev.farrier.activities.cloud.CapacityReservation;
import dev.farrier.activities.cloud.simulated.SimulatedCloud;
import dev.farrier.activities.cloud.simulated.SimulatedCloudConfig;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.Node;
import java.io.ByteArrayInputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code --scenario reserved}: a capacity reservation of {@link #RESERVED} {@value #TYPE} in {@value #ZONE}, an
 * EC2NodeClass that selects it by id, a NodePool allowing {@code reserved} and {@code on-demand}, and {@link #REPLICAS}
 * pods of 3 vCPU each (one per 4-vCPU node): the reservation is filled first, the rest spill over to on-demand.
 */
public final class ReservedScenario {
  public static final String TYPE = "m5.xlarge";
  public static final String ZONE = "us-east-1a";
  public static final int RESERVED = 2;
  public static final int REPLICAS = 4;

  /** What the scenario saw: each app node's capacity type and reservation id (null when none). */
  public record Played(CapacityReservation reservation, Map<String, String> capacityTypeByNode, Map<String, String> reservationByNode,
      int availableAfter) {
    public long reserved() {
      return capacityTypeByNode.values().stream().filter(WellKnown.CAPACITY_RESERVED::equals).count();
    }

    public long onDemand() {
      return capacityTypeByNode.values().stream().filter(WellKnown.CAPACITY_ON_DEMAND::equals).count();
    }
  }

  private final SandboxEnvironment env;
  private final DriftScenario helpers;
  private final Duration timeout;

  public ReservedScenario(SandboxEnvironment env, DriftScenario helpers, Duration timeout) {
    this.env = env;
    this.helpers = helpers;
    this.timeout = timeout;
  }

  /** The blueprint selecting {@code reservation}, allowing reserved capacity, and {@link #REPLICAS} pods of 3 vCPU. */
  static String edit(String blueprint, String reservation) {
    return selecting(blueprint, reservation)
        .replace("replicas: 3", "replicas: " + REPLICAS)
        .replace("cpu: \"1\"", "cpu: \"3\"");
  }

  /** The blueprint with its EC2NodeClass selecting {@code reservation} by id and its NodePool allowing reserved and on-demand. */
  public static String selecting(String blueprint, String reservation) {
    return blueprint
        .replace("  tags:\n    NodeType: latest-current-ami", "  capacityReservationSelectorTerms:\n    - id: " + reservation
            + "\n  tags:\n    NodeType: latest-current-ami")
        .replace("values: [\"spot\", \"on-demand\"]", "values: [\"reserved\", \"on-demand\"]");
  }

  public Played play(PrintStream out) {
    var cloud = new SimulatedCloud(SimulatedCloudConfig.defaults(env.cloudDir()).withCluster(env.cluster()));
    var reservation = cloud.createCapacityReservation(TYPE, ZONE, RESERVED, CapacityReservation.DEFAULT, null, Map.of("team", "apps"));
    out.printf("== capacity reservation %s: %d x %s in %s%n", reservation.id(), RESERVED, TYPE, ZONE);
    out.printf("== applying the blueprint selecting it, NodePool capacity types [reserved, on-demand], %d pods of 3 vCPU%n", REPLICAS);
    String manifest = helpers.blueprintFor(blueprint -> edit(blueprint, reservation.id()), Sandbox.FROM_VERSION);
    env.kube().load(new ByteArrayInputStream(manifest.getBytes(StandardCharsets.UTF_8))).serverSideApply();
    var nodes = Await.until(REPLICAS + " inflate pods Ready on Farrier nodes", timeout, () -> {
      var pods = helpers.readyAppPods();
      var names = pods.stream().map(p -> p.getSpec().getNodeName()).distinct().toList();
      return pods.size() == REPLICAS && names.stream().allMatch(helpers::farrierNode) ? names : null;
    }, helpers::diagnostics);
    Map<String, String> capacityTypes = new TreeMap<>();
    Map<String, String> reservations = new TreeMap<>();
    for (String name : nodes) {
      Node node = env.kube().nodes().withName(name).get();
      Map<String, String> labels = node.getMetadata().getLabels();
      capacityTypes.put(name, labels.get(WellKnown.CAPACITY_TYPE_LABEL));
      if (labels.containsKey(WellKnown.CAPACITY_RESERVATION_ID_LABEL)) {
        reservations.put(name, labels.get(WellKnown.CAPACITY_RESERVATION_ID_LABEL));
      }
    }
    int left = cloud.resolveCapacityReservations(List.of(dev.farrier.activities.cloud.CapacityReservationTerm.byId(reservation.id())))
        .getFirst().availableInstanceCount();
    return new Played(reservation, capacityTypes, reservations, left);
  }

  static void report(Played played, PrintStream out) {
    played.capacityTypeByNode().forEach((node, type) -> out.printf("   %s %s%s%n", node, type,
        played.reservationByNode().containsKey(node) ? " in " + played.reservationByNode().get(node) : ""));
    out.printf("   %d nodes in the reservation (of %d), %d spilled over to on-demand; the reservation has %d left%n", played.reserved(),
        RESERVED, played.onDemand(), played.availableAfter());
    if (played.reserved() != RESERVED || played.onDemand() != REPLICAS - RESERVED || played.availableAfter() != 0) {
      throw new IllegalStateException("expected " + RESERVED + " reserved and " + (REPLICAS - RESERVED) + " on-demand nodes, an empty"
          + " reservation: " + played);
    }
  }
}
