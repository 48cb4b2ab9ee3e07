package dev.farrier.activities.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.crd.Manifests;
import dev.farrier.activities.crd.NodeClaim;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A claim is initialized only once its node reports every extended resource the claim requests, as Karpenter's
 * RequestedResourcesRegistered: one a NodeOverlay's capacity added to its type (no device of the catalogue's) included.
 */
class RequestedDevicesTest {
  private static Node readyNode(Map<String, Quantity> allocatable) {
    return new NodeBuilder().withNewMetadata().withName("n").endMetadata().withNewSpec().endSpec()
        .withNewStatus().addNewCondition().withType("Ready").withStatus("True").endCondition().withAllocatable(allocatable).endStatus()
        .build();
  }

  @Test
  void theExtendedResourcesAClaimRequestsMustBeReportedBeforeItIsInitialized() {
    NodeClaim claim = Manifests.SERIALIZATION.unmarshal("""
        apiVersion: karpenter.sh/v1
        kind: NodeClaim
        metadata:
          name: c
        spec:
          resources:
            requests: {cpu: "1", memory: 1Gi, example.com/fpga: "1", nvidia.com/gpu: "0"}
          requirements: []
          nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
        """, NodeClaim.class);

    Set<String> devices = NodeClaimActivitiesImpl.requestedDevices(claim);

    assertEquals(Set.of("example.com/fpga"), devices, "extended resources requested, not cpu or memory, not one requested at 0");
    assertFalse(NodeClaimActivitiesImpl.initialized(readyNode(Map.of("cpu", new Quantity("2"))), List.of(), devices));
    assertFalse(NodeClaimActivitiesImpl.initialized(readyNode(Map.of("example.com/fpga", new Quantity("0"))), List.of(), devices),
        "the kubelet zeroes it until the device plugin registers it");
    assertTrue(NodeClaimActivitiesImpl.initialized(readyNode(Map.of("example.com/fpga", new Quantity("1"))), List.of(), devices));
  }
}
