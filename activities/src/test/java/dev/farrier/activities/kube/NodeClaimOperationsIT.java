package dev.farrier.activities.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.EC2NodeClassStatus;
import dev.farrier.activities.crd.Manifests;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimResources;
import dev.farrier.activities.crd.NodeClaimSpec;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.activities.crd.NodeClassReference;
import dev.farrier.activities.crd.RequirementWithMinValues;
import dev.farrier.activities.crd.ResolvedAmi;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** NodeClaim, EC2NodeClass status and Event writes against a real kube-apiserver. */
class NodeClaimOperationsIT extends ClusterIT {

  @Test
  void creatingTwiceKeepsTheFirstClaim() {
    NodeClaim claim = claim(KubeTestSupport.unique("default"));

    NodeClaim first = cluster.createNodeClaimIfAbsent(claim);
    NodeClaim second = cluster.createNodeClaimIfAbsent(claim(claim.getMetadata().getName()));

    assertEquals(first.getMetadata().getUid(), second.getMetadata().getUid());
    assertEquals(List.of(WellKnown.TERMINATION_FINALIZER), second.getMetadata().getFinalizers());
    assertEquals("720h", second.getSpec().expireAfter(), "the schema's default");
    assertTrue(cluster.listNodeClaimsOfNodePool("default").stream()
        .anyMatch(c -> c.getMetadata().getName().equals(claim.getMetadata().getName())));
    cleanUp(claim.getMetadata().getName());
  }

  @Test
  void patchingStatusMergesAndARepeatChangesNothing() {
    String name = KubeTestSupport.unique("default");
    cluster.createNodeClaimIfAbsent(claim(name));
    Condition launched = Condition.of(NodeClaimStatus.LAUNCHED, Condition.TRUE, "Launched", "", Instant.parse("2024-08-16T13:32:10Z"));

    cluster.patchNodeClaimStatus(name, new NodeClaimStatus("aws:///us-west-2a/i-0abc", "ami-0abc", null,
        Map.of("cpu", new Quantity("4")), Map.of("cpu", new Quantity("3920m")), List.of(launched), null));
    NodeClaim once = cluster.getNodeClaim(name).orElseThrow();
    Condition registered = Condition.of(NodeClaimStatus.REGISTERED, Condition.TRUE, "Registered", "", Instant.parse("2024-08-16T13:33:00Z"));
    Condition launchedLater = Condition.of(NodeClaimStatus.LAUNCHED, Condition.TRUE, "Launched", "", Instant.parse("2024-08-16T13:34:00Z"));
    cluster.patchNodeClaimStatus(name, new NodeClaimStatus(null, null, "ip-10-0-0-1", null, null,
        List.of(registered, launchedLater), null));
    NodeClaim twice = cluster.getNodeClaim(name).orElseThrow();
    cluster.patchNodeClaimStatus(name, NodeClaimStatus.ofConditions(registered));
    NodeClaim thrice = cluster.getNodeClaim(name).orElseThrow();

    NodeClaimStatus status = thrice.getStatus();
    assertEquals("aws:///us-west-2a/i-0abc", status.providerID());
    assertEquals("ami-0abc", status.imageID());
    assertEquals("ip-10-0-0-1", status.nodeName());
    assertEquals(new Quantity("3920m"), status.allocatable().get("cpu"));
    assertEquals("2024-08-16T13:32:10Z", Conditions.find(status.conditions(), NodeClaimStatus.LAUNCHED).orElseThrow()
        .lastTransitionTime(), "an unchanged status keeps its transition time");
    assertTrue(Conditions.isTrue(status.conditions(), NodeClaimStatus.REGISTERED));
    assertEquals(twice.getMetadata().getResourceVersion(), thrice.getMetadata().getResourceVersion(), "nothing sent");
    assertEquals(once.getMetadata().getGeneration(), thrice.getMetadata().getGeneration(), "spec untouched");
    cleanUp(name);
  }

  @Test
  void removingTheFinalizerLetsADeletedClaimGo() {
    String name = KubeTestSupport.unique("default");
    cluster.createNodeClaimIfAbsent(claim(name));
    cluster.deleteNodeClaim(name);
    assertNotNull(cluster.getNodeClaim(name).orElseThrow().getMetadata().getDeletionTimestamp());
    assertThrows(ObjectNotFoundException.class, () -> cluster.addNodeClaimFinalizer(KubeTestSupport.unique("missing"), "x/y"));

    assertTrue(cluster.removeNodeClaimFinalizer(name, WellKnown.TERMINATION_FINALIZER));

    KubeTestSupport.awaitTrue("nodeclaim " + name + " gone", () -> cluster.getNodeClaim(name).isEmpty());
    assertFalse(cluster.removeNodeClaimFinalizer(name, WellKnown.TERMINATION_FINALIZER));
    cluster.deleteNodeClaim(name);
  }

  @Test
  void patchingNodeClassStatusRecordsResolvedImages() {
    EC2NodeClass nodeClass = Manifests.read(Manifests.EXAMPLES.resolve("ec2nodeclass.yaml"), EC2NodeClass.class);
    String name = KubeTestSupport.unique("nodeclass");
    nodeClass.getMetadata().setName(name);
    client.resource(nodeClass).create();
    List<ResolvedAmi> amis = List.of(new ResolvedAmi("ami-0123", "amazon-eks-node-1.29-v20240807", null,
        List.of(new RequirementWithMinValues(WellKnown.ARCH_LABEL, "In", List.of("amd64"), null))));
    Condition ready = Condition.of(EC2NodeClassStatus.READY, Condition.TRUE, "Ready", "", Instant.parse("2024-08-16T13:00:00Z"));

    cluster.patchNodeClassStatus(name, new EC2NodeClassStatus(amis, null, null, "profile", List.of(ready)));
    EC2NodeClass patched = cluster.patchNodeClassStatus(name, new EC2NodeClassStatus(amis, null, null, null, null));

    assertEquals(amis, patched.getStatus().amis());
    assertEquals("profile", patched.getStatus().instanceProfile());
    assertTrue(Conditions.isTrue(patched.getStatus().conditions(), EC2NodeClassStatus.READY));
    client.resource(nodeClass).delete();
  }

  @Test
  void recordingAnEventTwiceCountsItOnce() {
    String name = KubeTestSupport.unique("default");
    NodeClaim created = cluster.createNodeClaimIfAbsent(claim(name));
    ClusterEvent event = new ClusterEvent(NodeClaim.KIND, name, ClusterEvent.NORMAL, "DisruptionLaunching", "Launching replacement, drifted");

    cluster.recordEvent(event);
    cluster.recordEvent(event);

    List<Event> events = client.v1().events().inNamespace("default")
        .withField("involvedObject.name", name).list().getItems();
    assertEquals(1, events.size());
    Event recorded = events.getFirst();
    assertEquals(2, recorded.getCount());
    assertEquals(created.getMetadata().getUid(), recorded.getInvolvedObject().getUid());
    assertEquals("farrier", recorded.getReportingComponent());
    assertEquals("DisruptionLaunching", recorded.getReason());
    cleanUp(name);
  }

  private static NodeClaim claim(String name) {
    NodeClaim claim = new NodeClaim();
    claim.getMetadata().setName(name);
    claim.getMetadata().setLabels(Map.of(WellKnown.NODEPOOL_LABEL, "default"));
    claim.getMetadata().setFinalizers(List.of(WellKnown.TERMINATION_FINALIZER));
    claim.setSpec(new NodeClaimSpec(
        List.of(new RequirementWithMinValues(WellKnown.INSTANCE_TYPE_LABEL, "In", List.of("m5.large", "m5.xlarge"), null)),
        new NodeClaimResources(Map.of("cpu", new Quantity("1500m"), "pods", new Quantity("3"))),
        null, null, NodeClassReference.ec2NodeClass("default"), null, null));
    return claim;
  }

  private static void cleanUp(String name) {
    cluster.removeNodeClaimFinalizer(name, WellKnown.TERMINATION_FINALIZER);
    cluster.deleteNodeClaim(name);
  }
}
