package dev.farrier.activities.headroom;

import dev.farrier.activities.crd.NodePool;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.Headroom;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The objects that realise a NodePool's headroom: a Deployment of pause pods sized as asked, pinned to the pool
 * ({@code nodeSelector karpenter.sh/nodepool}), tolerating its taints, at {@link #PRIORITY_CLASS}, a negative priority
 * that never preempts: the kube-scheduler preempts a placeholder at once for any pod of ordinary priority, and the
 * displaced placeholder, Pending again, is an ordinary pending pod that Farrier launches a node for. Placeholders are
 * plain evictable pods (no PDB, no do-not-disrupt, grace period 0), so they never hold a drain. The Deployment is owned
 * by its NodePool (an ownerReference), so Kubernetes' garbage collector deletes it with the pool even while Farrier is
 * down.
 */
public final class HeadroomPlaceholders {
  public static final String PRIORITY_CLASS = "farrier-headroom";
  /** Below every ordinary pod (priority 0) and the cluster's own; the overprovisioning examples of Kubernetes use -1 to -10. */
  public static final int PRIORITY = -10;
  public static final String NAME_PREFIX = "farrier-headroom-";
  static final String MANAGED_BY = "app.kubernetes.io/managed-by";
  static final String FARRIER = "farrier";
  /** The pause image's own user ({@code nobody}, 65535). */
  private static final long PAUSE_USER = 65535;

  private HeadroomPlaceholders() {}

  /** The Deployment's name for {@code pool}. */
  public static String name(String pool) {
    return NAME_PREFIX + pool;
  }

  /** Whether {@code deployment} is a placeholder Deployment Farrier made: its label, name and managed-by all say so. */
  public static boolean isFarriers(Deployment deployment) {
    Map<String, String> labels = deployment.getMetadata().getLabels();
    String pool = labels == null ? null : labels.get(WellKnown.HEADROOM_NODEPOOL_LABEL);
    return pool != null && FARRIER.equals(labels.get(MANAGED_BY)) && name(pool).equals(deployment.getMetadata().getName());
  }

  /**
   * Why the PriorityClass named {@value #PRIORITY_CLASS} cannot hold placeholders (null: it can): it must be Farrier's,
   * of a negative value and never preempting, or the placeholders would displace real pods.
   */
  public static String priorityClassProblem(PriorityClass stored) {
    if (stored == null) {
      return "PriorityClass " + PRIORITY_CLASS + " does not exist";
    }
    var labels = stored.getMetadata().getLabels();
    if (labels == null || !FARRIER.equals(labels.get(MANAGED_BY))) {
      return "PriorityClass " + PRIORITY_CLASS + " exists and is not Farrier's (no label " + MANAGED_BY + "=" + FARRIER + ")";
    }
    if (stored.getValue() == null || stored.getValue() >= 0 || !"Never".equals(stored.getPreemptionPolicy())) {
      return "PriorityClass " + PRIORITY_CLASS + " has value " + stored.getValue() + " and preemptionPolicy " + stored.getPreemptionPolicy()
          + " (placeholders need a negative value and Never)";
    }
    return null;
  }

  public static PriorityClass priorityClass() {
    return new PriorityClassBuilder().withNewMetadata().withName(PRIORITY_CLASS).addToLabels(MANAGED_BY, FARRIER).endMetadata()
        .withValue(PRIORITY).withPreemptionPolicy("Never").withGlobalDefault(false)
        .withDescription("Farrier's headroom placeholders (farrier.dev/headroom on a NodePool): preempted by any pod, never preempting")
        .build();
  }

  /** The pool's placeholder Deployment: {@code replicas} pods of the headroom's size. */
  public static Deployment deployment(NodePool pool, String namespace, String image, Headroom headroom, int replicas) {
    String poolName = pool.getMetadata().getName();
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(WellKnown.HEADROOM_NODEPOOL_LABEL, poolName);
    labels.put(MANAGED_BY, FARRIER);
    Map<String, Quantity> requests = new LinkedHashMap<>();
    if (headroom.podMilliCpu() > 0) {
      requests.put("cpu", new Quantity(headroom.podMilliCpu() + "m"));
    }
    if (headroom.podMemoryBytes() > 0) {
      requests.put("memory", new Quantity(Long.toString(headroom.podMemoryBytes())));
    }
    var spec = pool.getSpec() == null || pool.getSpec().template() == null ? null : pool.getSpec().template().spec();
    List<Toleration> tolerations = spec == null ? List.of() : spec.taintsOrEmpty().stream()
        .map(t -> new TolerationBuilder().withKey(t.getKey()).withOperator(t.getValue() == null ? "Exists" : "Equal")
            .withValue(t.getValue()).withEffect(t.getEffect()).build())
        .toList();
    return new DeploymentBuilder()
        .withNewMetadata().withName(name(poolName)).withNamespace(namespace).withLabels(labels)
          // A namespaced object may be owned by a cluster-scoped one: the pool's deletion deletes the placeholders.
          .addNewOwnerReference().withApiVersion(pool.getApiVersion() == null ? "karpenter.sh/v1" : pool.getApiVersion())
            .withKind(NodePool.KIND).withName(poolName).withUid(pool.getMetadata().getUid()).endOwnerReference()
        .endMetadata()
        .withNewSpec()
          .withReplicas(replicas)
          .withNewSelector().addToMatchLabels(WellKnown.HEADROOM_NODEPOOL_LABEL, poolName).endSelector()
          // A new size replaces the placeholders outright: a surge would ask for room beyond the headroom.
          .withNewStrategy().withType("Recreate").endStrategy()
          .withNewTemplate()
            .withNewMetadata().withLabels(labels).endMetadata()
            .withNewSpec()
              .withPriorityClassName(PRIORITY_CLASS)
              .withTerminationGracePeriodSeconds(0L)
              .withAutomountServiceAccountToken(false)
              .withEnableServiceLinks(false)
              .withNodeSelector(Map.of(WellKnown.NODEPOOL_LABEL, poolName))
              // Admitted by the "restricted" Pod Security Standard a worker's namespace may enforce.
              .withNewSecurityContext().withRunAsNonRoot(true).withRunAsUser(PAUSE_USER).withRunAsGroup(PAUSE_USER)
                .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile().endSecurityContext()
              .withTolerations(tolerations)
              .addNewContainer()
                .withName("placeholder")
                .withImage(image)
                .withNewResources().withRequests(requests).endResources()
                .withNewSecurityContext().withAllowPrivilegeEscalation(false).withReadOnlyRootFilesystem(true)
                  .withNewCapabilities().withDrop("ALL").endCapabilities().endSecurityContext()
              .endContainer()
            .endSpec()
          .endTemplate()
        .endSpec()
        .build();
  }
}
