package dev.farrier.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.simulated.CloudCall.Operation;
import dev.farrier.activities.cloud.simulated.OfferingKey;
import dev.farrier.activities.cloud.simulated.SimulatedCloud;
import dev.farrier.activities.kube.ClusterIT;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.workflows.FailureTypes;
import dev.farrier.workflows.activities.NodeClaimActivities;
import dev.farrier.workflows.activities.NodeClaimRef;
import dev.farrier.workflows.activities.PlanProvisioningRequest;
import dev.farrier.workflows.activities.PlanningActivities;
import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.PodRef;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Capacity errors through the planning and launch activities on the real kube-apiserver. moto cannot run out of
 * capacity, so the shortage comes from the simulated cloud, which, like EC2 Fleet, tells of it only when a launch
 * fails (the AWS side of the same loop is {@code CapacityErrorsFromAFakeCreateFleetOnMotoIT}).
 */
class CapacityErrorsOnSimulatedCloudIT extends ClusterIT {
  private static final String CLUSTER = SimulatedActivities.CLUSTER;

  private SimulatedCloud cloud;
  private SimulatedActivities activities;
  private NodeClaimActivities claims;
  private PlanningActivities planning;
  private String nodePool;

  @BeforeEach
  void start(@TempDir Path cloudDir) {
    activities = new SimulatedActivities(client, cluster, cloudDir);
    cloud = activities.cloud;
    claims = activities.claims;
    planning = activities.planning;
    nodePool = activities.nodePool;
  }

  @AfterEach
  void stop() {
    activities.close();
  }

  @Test
  void anInsufficientCapacityLaunchMarksTheOfferingsAndTheNextPlanAvoidsThemOnSimulatedCloud() {
    var pod = pendingPod(KubeTestSupport.unique("pending"));
    List<String> created = new ArrayList<>();
    try {
      var first = claimFor(planning.planProvisioning(new PlanProvisioningRequest(CLUSTER, "batch-1", List.of(ref(pod)))), pod);
      List<OfferingKey> exhausted = offeringsOf(first);
      assertFalse(exhausted.isEmpty(), first.toString());
      exhausted.forEach(o -> cloud.setOfferingAvailable(o, false));
      var replanned = claimFor(planning.planProvisioning(new PlanProvisioningRequest(CLUSTER, "batch-1", List.of(ref(pod)))), pod);
      assertEquals(first.instanceTypes(), replanned.instanceTypes(),
          "the shortage is not announced: the plan still ranks the exhausted types, cheapest (" + first.instanceTypes().getFirst() + ") first");

      claims.createNodeClaim(first);
      created.add(first.name());
      var failure = assertThrows(ActivityFailure.class, () -> claims.launchInstance(new NodeClaimRef(CLUSTER, first.name())));

      var cause = assertInstanceOf(ApplicationFailure.class, failure.getCause());
      assertEquals(FailureTypes.INSUFFICIENT_CAPACITY, cause.getType());
      assertTrue(cause.isNonRetryable());
      assertEquals(0, cloud.calls().count(Operation.CREATE, first.name()), "nothing launched");
      assertEquals(exhausted.size(), cloud.calls().count(Operation.MARK_UNAVAILABLE, first.name()), "every offering tried is marked");
      // What NodeLaunchWorkflow's compensation does after a failed launch, so the next plan does not count on the claim.
      claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, first.name()));

      var second = claimFor(planning.planProvisioning(new PlanProvisioningRequest(CLUSTER, "batch-2", List.of(ref(pod)))), pod);
      Set<OfferingKey> stillListed = new HashSet<>(offeringsOf(second));
      stillListed.retainAll(exhausted);
      assertEquals(Set.of(), stillListed, "the next plan lists none of the offerings the failed launch marked");
      claims.createNodeClaim(second);
      created.add(second.name());
      var launched = claims.launchInstance(new NodeClaimRef(CLUSTER, second.name()));

      assertTrue(second.instanceTypes().contains(launched.instanceType()), launched.toString());
      assertFalse(exhausted.contains(new OfferingKey(launched.instanceType(), launched.zone(), WellKnown.CAPACITY_ON_DEMAND)),
          launched.toString());
      assertEquals(1, cloud.calls().count(Operation.CREATE, second.name()));
      assertEquals(0, cloud.calls().count(Operation.MARK_UNAVAILABLE, second.name()), "the plan left out every exhausted offering");
    } finally {
      client.pods().resource(pod).delete();
      cloud.list(CLUSTER).forEach(i -> cloud.delete(CLUSTER, null, i.id()));
      created.forEach(name -> claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, name)));
    }
  }

  /** Every offering the claim allows: its types in every zone, as the NodePool's only capacity type (on-demand). */
  private List<OfferingKey> offeringsOf(NodeClaimRequest claim) {
    return cloud.instanceTypes().stream().filter(t -> claim.instanceTypes().contains(t.name()))
        .flatMap(t -> t.offerings().stream().filter(o -> o.capacityType().equals(WellKnown.CAPACITY_ON_DEMAND))
            .map(o -> new OfferingKey(t.name(), o.zone(), o.capacityType())))
        .toList();
  }

  private NodeClaimRequest claimFor(ProvisioningPlan plan, Pod pod) {
    var forPod = plan.claims().stream().filter(c -> c.nodePool().equals(nodePool))
        .filter(c -> c.pods().stream().anyMatch(p -> p.name().equals(pod.getMetadata().getName()))).toList();
    assertEquals(1, forPod.size(), plan.toString());
    return forPod.getFirst();
  }

  private Pod pendingPod(String name) {
    var pod = new PodBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
        .withNewSpec().withNodeSelector(Map.of("intent", nodePool))
        .addNewContainer().withName("c").withImage("pause").withNewResources()
        .withRequests(Map.of("cpu", new Quantity("1"), "memory", new Quantity("512Mi"))).endResources().endContainer()
        .endSpec().build();
    return client.pods().resource(pod).create();
  }

  private static PodRef ref(Pod pod) {
    return new PodRef(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), pod.getMetadata().getUid());
  }
}
