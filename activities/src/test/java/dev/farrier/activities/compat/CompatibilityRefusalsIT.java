package dev.farrier.activities.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.farrier.activities.compat.CompatibilityRows.RefusedValue;
import dev.farrier.activities.crd.Manifests;
import dev.farrier.activities.kube.ClusterIT;
import dev.farrier.activities.kube.KubeTestSupport;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each refusal of docs/compatibility.yaml, sent to a real kube-apiserver with Farrier's CRDs: the example's object is
 * rejected with the row's message, and the same object without the example is accepted, so it is that field (or value)
 * that is refused and nothing else.
 */
class CompatibilityRefusalsIT extends ClusterIT {
  private static final Map<String, Path> VALID = Map.of(
      "EC2NodeClass", Manifests.EXAMPLES.resolve("ec2nodeclass.yaml"),
      "NodePool", Manifests.EXAMPLES.resolve("nodepool.yaml"),
      "NodeClaim", Manifests.TEST_MANIFESTS.resolve("nodeclaim.yaml"));

  @Test
  void everyRefusedFieldAndValueIsRejectedWithItsMessageAndTheObjectWithoutItIsAccepted() {
    var rows = CompatibilityRows.read(CompatibilityTest.ROOT.resolve("docs").resolve("compatibility.yaml"));
    List<String> problems = new ArrayList<>();
    int sent = 0;
    for (String kind : CompatibilityTest.FILES.keySet()) {
      for (RefusedValue refusal : rows.refusals(kind)) {
        if (!VALID.containsKey(kind)) {
          problems.add(kind + " " + refusal.value() + ": no valid " + kind + " to start from");
          continue;
        }
        ObjectNode valid = object(kind);
        client.resource(create(valid)).delete();
        ObjectNode refused = object(kind);
        merge(refused, refusal.example());
        try {
          create(refused);
          problems.add(kind + " " + refusal.value() + ": accepted");
        } catch (KubernetesClientException e) {
          if (e.getCode() != 422 || !e.getMessage().contains(refusal.refused())) {
            problems.add(kind + " " + refusal.value() + ": " + e.getCode() + " " + e.getMessage());
          }
        }
        sent++;
      }
    }
    assertEquals(List.of(), problems);
    int rowsRefusing = CompatibilityTest.FILES.keySet().stream().mapToInt(kind -> rows.refusals(kind).size()).sum();
    assertTrue(sent > 0 && sent == rowsRefusing, "every refusal was sent: " + sent + " of " + rowsRefusing);
  }

  private ObjectNode object(String kind) {
    ObjectNode object = (ObjectNode) Manifests.document(VALID.get(kind)).deepCopy();
    ((ObjectNode) object.get("metadata")).put("name", KubeTestSupport.unique(kind.toLowerCase()));
    return object;
  }

  private GenericKubernetesResource create(ObjectNode object) {
    return client.resource(Manifests.SERIALIZATION.convertValue(object, GenericKubernetesResource.class)).create();
  }

  /** Merges {@code patch} into {@code into}: objects field by field, anything else replaced. */
  private static void merge(ObjectNode into, JsonNode patch) {
    if (patch == null || !patch.isObject()) {
      fail("an example is an object to merge into a valid one, not " + patch);
    }
    patch.properties().forEach(field -> {
      JsonNode current = into.get(field.getKey());
      if (current instanceof ObjectNode object && field.getValue().isObject()) {
        merge(object, field.getValue());
      } else {
        into.set(field.getKey(), field.getValue().deepCopy());
      }
    });
  }
}
