package dev.farrier.activities.nodeclass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.activities.cloud.InstanceFacts;
import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.crd.ConnectionTracking;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.EC2NodeClassSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which instance types a class's settings let it launch, whatever its images. */
class NodeClassLaunchesTest {
  private static InstanceType type(String name, String hypervisor) {
    return new InstanceType(name, "x86_64", 2, 8192, 0, "", "", 3, 10, hypervisor == null, List.of(),
        new InstanceFacts(hypervisor, null, null, null, false, null, null, null, null, null, null, null));
  }

  private static EC2NodeClass nodeClass(ConnectionTracking connectionTracking) {
    var nodeClass = new EC2NodeClass();
    nodeClass.setSpec(new EC2NodeClassSpec("AL2023", List.of(), List.of(), List.of(), "role", null, null, null, null, null, null, Map.of(),
        null, null, null, connectionTracking, null, null, null));
    return nodeClass;
  }

  @Test
  void connectionTrackingAdmitsOnlyNitroTypesAsKarpenterNarrowsThem() {
    var tracked = nodeClass(new ConnectionTracking(600, null, null));
    var untracked = nodeClass(null);
    var nitro = type("m5.large", "nitro");
    var xen = type("m4.large", "xen");
    var metal = type("m5.metal", null);

    assertEquals(List.of(true, false, false), List.of(NodeClassLaunches.admits(tracked, nitro), NodeClassLaunches.admits(tracked, xen),
        NodeClassLaunches.admits(tracked, metal)), "EC2 sets connection tracking on Nitro interfaces only");
    assertEquals(List.of(true, true, true), List.of(NodeClassLaunches.admits(untracked, nitro), NodeClassLaunches.admits(untracked, xen),
        NodeClassLaunches.admits(untracked, metal)));
  }
}
