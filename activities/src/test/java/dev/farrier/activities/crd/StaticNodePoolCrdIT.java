package dev.farrier.activities.crd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.farrier.activities.kube.ClusterIT;
import dev.farrier.activities.kube.KubeTestSupport;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.autoscaling.v1.Scale;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.Test;

/**
 * A static NodePool ({@code spec.replicas}) against a real kube-apiserver with Farrier's CRDs: the scale subresource
 * ({@code kubectl scale nodepool}) writes {@code spec.replicas} and reads {@code status.nodes}, and Karpenter's rules
 * refuse the switch between static and dynamic, {@code weight}, and limits other than {@code limits.nodes}.
 */
class StaticNodePoolCrdIT extends ClusterIT {
  private static NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> pools() {
    return client.genericKubernetesResources(NodePool.GROUP + "/" + NodePool.VERSION, "NodePool");
  }

  private static String create(Long replicas, String extraSpecJson) {
    ObjectNode object = (ObjectNode) Manifests.document(Manifests.EXAMPLES.resolve("nodepool.yaml")).deepCopy();
    String name = KubeTestSupport.unique("static");
    ((ObjectNode) object.get("metadata")).put("name", name);
    ObjectNode spec = (ObjectNode) object.get("spec");
    if (replicas != null) {
      // The example's cpu limit is a dynamic NodePool's: a static one takes limits.nodes only.
      spec.remove("limits");
      spec.put("replicas", replicas);
    }
    if (extraSpecJson != null) {
      try {
        spec.setAll((ObjectNode) new com.fasterxml.jackson.databind.ObjectMapper().readTree(extraSpecJson));
      } catch (Exception e) {
        throw new IllegalArgumentException(e);
      }
    }
    pools().resource(Manifests.SERIALIZATION.convertValue(object, GenericKubernetesResource.class)).create();
    return name;
  }

  private static Object replicas(String name) {
    return ((java.util.Map<?, ?>) pools().withName(name).get().getAdditionalProperties().get("spec")).get("replicas");
  }

  @Test
  void kubectlScaleWritesSpecReplicasThroughTheScaleSubresourceWhichReportsStatusNodes() {
    String name = create(3L, null);

    // What kubectl scale sends: a PATCH of the scale subresource.
    pools().withName(name).subresource("scale").patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"replicas\":5}}");
    assertEquals(5, ((Number) replicas(name)).intValue());

    pools().withName(name).subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"nodes\":4}}");
    Scale scale = client.resources(NodePool.class).withName(name).scale();
    assertEquals(5, scale.getSpec().getReplicas());
    assertEquals(4, scale.getStatus().getReplicas(), "status.nodes is the scale's status.replicas");

    client.resources(NodePool.class).withName(name).scale(2);
    assertEquals(2, ((Number) replicas(name)).intValue());
  }

  @Test
  void aNodePoolCannotSwitchBetweenStaticAndDynamic() {
    String fixed = create(3L, null);
    var removing = assertThrows(KubernetesClientException.class, () -> pools().withName(fixed)
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"replicas\":null}}"));
    assertEquals(422, removing.getCode());
    assertTrue(removing.getMessage().contains("Cannot transition NodePool between static (replicas set) and dynamic (replicas unset)"
        + " provisioning modes"), removing.getMessage());

    String dynamic = create(null, null);
    var adding = assertThrows(KubernetesClientException.class, () -> pools().withName(dynamic)
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"replicas\":2}}"));
    assertEquals(422, adding.getCode());
    assertTrue(adding.getMessage().contains("Cannot transition NodePool"), adding.getMessage());
  }

  @Test
  void aStaticNodePoolTakesLimitsNodesButNoOtherLimitAndNoWeight() {
    create(3L, "{\"limits\":{\"nodes\":5}}");
    var cpu = assertThrows(KubernetesClientException.class, () -> create(3L, "{\"limits\":{\"nodes\":5,\"cpu\":\"100\"}}"));
    assertTrue(cpu.getMessage().contains("only 'limits.nodes' is supported on static NodePools"), cpu.getMessage());
    var weight = assertThrows(KubernetesClientException.class, () -> create(3L, "{\"weight\":10}"));
    assertTrue(weight.getMessage().contains("'weight' is not supported on static NodePools"), weight.getMessage());
    var negative = assertThrows(KubernetesClientException.class, () -> create(-1L, null));
    assertEquals(422, negative.getCode());
  }
}
