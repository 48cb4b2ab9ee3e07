package dev.farrier.activities.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.simulated.SimulatedCloud;
import dev.farrier.activities.cloud.simulated.SimulatedCloudConfig;
import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.EC2NodeClassStatus;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.kube.ClusterIT;
import dev.farrier.activities.kube.KubeTestSupport;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input shows up as status conditions and Events on the real API server, and heals when fixed. */
class StatusRefresherIT extends ClusterIT {

  private static Condition ready(EC2NodeClass nodeClass) {
    return Conditions.find(nodeClass.getStatus().conditionsOrEmpty(), EC2NodeClassStatus.READY).orElseThrow();
  }

  private static List<Event> warnings(String name) {
    return client.v1().events().inNamespace("default").list().getItems().stream()
        .filter(e -> name.equals(e.getInvolvedObject().getName()) && "Warning".equals(e.getType())).toList();
  }

  @Test
  void unresolvableAmiAndMissingNodeClassBecomeConditionsAndOneEventEach(@TempDir Path cloudDir) {
    var cloud = new SimulatedCloud(SimulatedCloudConfig.defaults(cloudDir));
    var refresher = new StatusRefresher(cluster, cloud, Clock.systemUTC());
    var className = KubeTestSupport.unique("bad-ami");
    var poolName = KubeTestSupport.unique("pool");
    var orphanName = KubeTestSupport.unique("orphan");
    KubeTestSupport.apply(client, KubeTestSupport.nodeClassYaml(className, "ami-0000000000000dead"));
    KubeTestSupport.apply(client, KubeTestSupport.nodePoolYaml(poolName, className));
    KubeTestSupport.apply(client, KubeTestSupport.nodePoolYaml(orphanName, "no-such-class"));

    refresher.refresh();
    refresher.refresh();

    var nodeClass = cluster.getNodeClass(className).orElseThrow();
    assertEquals(Condition.FALSE, ready(nodeClass).status());
    assertTrue(ready(nodeClass).message().contains("ami-0000000000000dead"), ready(nodeClass).message());
    assertEquals(1, warnings(className).size(), "one Event for the change, not one per pass");
    NodePool pool = cluster.getNodePool(poolName).orElseThrow();
    var classReady = Conditions.find(pool.getStatus().conditions(), StatusRefresher.NODE_CLASS_READY).orElseThrow();
    assertEquals("NodeClassNotReady", classReady.reason());
    NodePool orphan = cluster.getNodePool(orphanName).orElseThrow();
    assertEquals("NodeClassNotFound", Conditions.find(orphan.getStatus().conditions(), "Ready").orElseThrow().reason());
    assertEquals(1, warnings(orphanName).size());

    var goodAmi = cloud.ssmParameter("/aws/service/eks/optimized-ami/1.34/amazon-linux-2/recommended/image_id").orElseThrow();
    client.genericKubernetesResources("karpenter.k8s.aws/v1", "EC2NodeClass").withName(className).patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"amiSelectorTerms\":[{\"id\":\"" + goodAmi + "\"}]}}");
    refresher.refresh();

    nodeClass = cluster.getNodeClass(className).orElseThrow();
    assertEquals(Condition.TRUE, ready(nodeClass).status());
    assertEquals(List.of(goodAmi), nodeClass.getStatus().amisOrEmpty().stream().map(a -> a.id()).toList());
    pool = cluster.getNodePool(poolName).orElseThrow();
    assertTrue(Conditions.isTrue(pool.getStatus().conditions(), "Ready"));
  }
}
