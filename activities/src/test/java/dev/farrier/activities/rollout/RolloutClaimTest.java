package dev.farrier.activities.rollout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.crd.AmiSelectorTerm;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.EC2NodeClassSpec;
import dev.farrier.activities.crd.NodeClaimTemplate;
import dev.farrier.activities.crd.NodeClaimTemplateSpec;
import dev.farrier.activities.crd.NodeClassReference;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.crd.NodePoolSpec;
import dev.farrier.activities.kube.ClusterReader;
import dev.farrier.activities.kube.RolloutWriter;
import dev.farrier.workflows.FailureTypes;
import dev.farrier.workflows.activities.ClaimRolloutRequest;
import dev.farrier.model.WellKnown;
import dev.farrier.model.ReconcilerSettings;
import dev.farrier.model.AmiTerm;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.temporal.failure.ApplicationFailure;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What a rollout's claim refuses before it touches anything, and that it takes its NodePools all or none. The
 * Kubernetes reads and writes are small fakes over a map of NodePool owners (the real ones are tested on the local
 * stack by UpgradeCliIT).
 */
class RolloutClaimTest {
  private static final String ID = "upgrade/a+b/al2023@v20251103";
  private static final List<AmiTerm> TARGET = List.of(new AmiTerm("al2023@v20251103", null, null, null, null));

  private final Map<String, String> owners = new HashMap<>();
  private final List<String> writes = new ArrayList<>();
  private final List<NodePool> pools = new ArrayList<>();

  private static NodePool pool(String name, String nodeClass, String owner) {
    var pool = new NodePool();
    var meta = new ObjectMetaBuilder().withName(name);
    if (owner != null) {
      meta.withAnnotations(Map.of(WellKnown.ROLLOUT_ANNOTATION, owner));
    }
    pool.setMetadata(meta.build());
    pool.setSpec(new NodePoolSpec(new NodeClaimTemplate(null, new NodeClaimTemplateSpec(null, null, null,
        NodeClassReference.ec2NodeClass(nodeClass), null, null)), null, null, null));
    return pool;
  }

  private void add(NodePool pool) {
    pools.add(pool);
    var annotations = pool.getMetadata().getAnnotations();
    if (annotations != null && annotations.get(WellKnown.ROLLOUT_ANNOTATION) != null) {
      owners.put(pool.getMetadata().getName(), annotations.get(WellKnown.ROLLOUT_ANNOTATION));
    }
  }

  private RolloutActivitiesImpl activities() {
    var nodeClass = new EC2NodeClass();
    nodeClass.setMetadata(new ObjectMetaBuilder().withName("default").build());
    nodeClass.setSpec(new EC2NodeClassSpec(null, List.of(new AmiSelectorTerm("al2023@v20251020", null, null, null, null)),
        null, null, "role", null, null, null, null, null, null, null, null, null));
    ClusterReader reader = (ClusterReader) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {ClusterReader.class},
        (proxy, method, args) -> switch (method.getName()) {
          case "listNodePools" -> List.copyOf(pools);
          case "getNodePool" -> pools.stream().filter(p -> p.getMetadata().getName().equals(args[0])).findFirst()
              .map(p -> pool(p.getMetadata().getName(), "default", owners.get(p.getMetadata().getName())));
          case "getNodeClass" -> Optional.of(nodeClass);
          default -> throw new UnsupportedOperationException(method.getName());
        });
    RolloutWriter writer = new RolloutWriter() {
      @Override
      public String compareAndSetNodePoolAnnotation(String name, String key, String expected, String value) {
        String current = owners.get(name);
        if (java.util.Objects.equals(current, value) || !java.util.Objects.equals(current, expected)) {
          return current;
        }
        writes.add(name + "=" + value);
        if (value == null) {
          owners.remove(name);
        } else {
          owners.put(name, value);
        }
        return value;
      }

      @Override
      public void setNodeClassImages(String name, List<AmiSelectorTerm> terms, String amiFamily, Map<String, String> annotations) {
        throw new UnsupportedOperationException();
      }

      @Override
      public void patchNodeClassAnnotations(String name, Map<String, String> annotations) {
        writes.add("nodeclass " + annotations);
      }
    };
    CloudProvider cloud = (CloudProvider) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {CloudProvider.class},
        (proxy, method, args) -> {
          if (method.getName().equals("resolveImages")) {
            String alias = ((List<dev.farrier.activities.cloud.AmiSelectorTerm>) args[0]).getFirst().alias();
            String id = alias.endsWith("v20251103") ? "ami-new" : "ami-old";
            return List.of(new Image(id, alias, "x86_64", "amazon", "1.34", "v1.34.2", Instant.EPOCH));
          }
          throw new UnsupportedOperationException(method.getName());
        });
    return new RolloutActivitiesImpl(reader, null, writer, cloud, id -> id.equals("upgrade/b/al2023@v20251020"),
        ReconcilerSettings.DEFAULTS, claim -> java.util.Optional.empty());
  }

  private ApplicationFailure refused(List<String> nodePools, String nodeClass) {
    return assertThrows(ApplicationFailure.class,
        () -> activities().claim(new ClaimRolloutRequest("c", ID, nodePools, nodeClass, TARGET, null)));
  }

  @Test
  void aNodePoolAnotherRunningRolloutOwnsIsRefusedAndTheOnesAlreadyTakenAreGivenBack() {
    add(pool("a", "default", null));
    add(pool("b", "default", "upgrade/b/al2023@v20251020"));

    var refusal = refused(List.of("a", "b"), null);

    assertEquals(FailureTypes.ROLLOUT_CONFLICT, refusal.getType());
    assertTrue(refusal.getOriginalMessage().contains("being upgraded by upgrade/b/al2023@v20251020"), refusal.getOriginalMessage());
    assertTrue(refusal.getOriginalMessage().contains("farrier upgrade abort upgrade/b/al2023@v20251020 --reason"),
        "names the command that aborts it (the id is the command's argument): " + refusal.getOriginalMessage());
    assertEquals(List.of("a=" + ID, "a=null"), writes, "all or none");
    assertEquals(Map.of("b", "upgrade/b/al2023@v20251020"), owners);
  }

  @Test
  void aNodePoolWhoseOwnerHasEndedIsTakenOver() {
    add(pool("a", "default", "upgrade/a/al2023@v20251020"));
    add(pool("b", "default", null));
    var claim = activities().claim(new ClaimRolloutRequest("c", ID, List.of("a", "b"), null, TARGET, null));
    assertEquals(List.of("a", "b"), claim.nodePools());
    assertEquals(List.of("ami-new"), claim.targetImages());
    assertEquals(List.of("ami-old"), claim.previousImages());
    assertEquals(Map.of("a", ID, "b", ID), owners);
  }

  @Test
  void aClassSharedWithANodePoolNotNamedIsRefusedBeforeAnythingIsWritten() {
    add(pool("a", "default", null));
    add(pool("b", "default", null));
    var refusal = refused(List.of("a"), null);
    assertEquals(FailureTypes.INVALID_UPGRADE, refusal.getType());
    assertTrue(refusal.getOriginalMessage().contains("also used by NodePool(s) [b]"), refusal.getOriginalMessage());
    assertEquals(List.of(), writes);
  }

  @Test
  void anUnknownNodePoolOrClassIsRefused() {
    add(pool("a", "default", null));
    assertEquals(FailureTypes.INVALID_UPGRADE, refused(List.of("nope"), null).getType());
    assertEquals(FailureTypes.INVALID_UPGRADE, refused(List.of(), "other").getType());
    assertEquals(List.of(), writes);
  }
}
