package dev.farrier.activities.provisioning;

import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.RequirementWithMinValues;
import dev.farrier.activities.kube.ClusterReader;
import dev.farrier.activities.kube.NodeClaimStore;
import dev.farrier.activities.nodeclass.NodeClassLaunches;
import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.ClaimNamer;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.KubeletSettings;
import dev.farrier.planner.NodePoolView;
import dev.farrier.planner.StaticPools;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The static NodePools' scale-up ({@code planProvisioning} with {@code staticPools}): reads each static NodePool that
 * can launch, its NodeClaims (their zones, how many are being deleted) and its instance types, and lets
 * {@link StaticPools#launches} decide. Writes nothing: the Warning Event of a NodePool held by {@code limits.nodes} is
 * the disruption round's.
 */
final class StaticProvisioning {
  private static final Logger log = LoggerFactory.getLogger(StaticProvisioning.class);

  private final ClusterReader reader;
  private final NodeClaimStore claims;
  private final PlanningInputs inputs;

  StaticProvisioning(ClusterReader reader, NodeClaimStore claims, PlanningInputs inputs) {
    this.reader = reader;
    this.claims = claims;
    this.inputs = inputs;
  }

  ProvisioningPlan plan(String batchId) {
    List<NodeClaim> all = claims.listNodeClaims();
    var catalog = inputs.catalog();
    List<StaticPools.PoolState> pools = new ArrayList<>();
    Map<String, List<InstanceTypeView>> types = new HashMap<>();
    Map<String, KubeletSettings> kubelets = new HashMap<>();
    for (var pool : reader.listNodePools()) {
      if (pool.getSpec() == null || pool.getSpec().replicas() == null || pool.getMetadata().getDeletionTimestamp() != null) {
        // A NodePool being deleted is not scaled up, as upstream's static provisioning skips it.
        continue;
      }
      try {
        inputs.launchable(pool).ifPresent(p -> {
          NodePoolView view = NodePoolViews.of(p.pool(), all);
          types.put(view.name(), inputs.instanceTypes(catalog, p.nodeClass()));
          kubelets.put(view.name(), NodeClassLaunches.kubelet(p.nodeClass()));
          List<NodeClaim> own = all.stream().filter(c -> view.name().equals(label(c, WellKnown.NODEPOOL_LABEL))).toList();
          int deleting = (int) own.stream().filter(c -> c.getMetadata().getDeletionTimestamp() != null).count();
          List<String> zones = own.stream().filter(c -> c.getMetadata().getDeletionTimestamp() == null)
              .map(StaticProvisioning::zone).toList();
          pools.add(new StaticPools.PoolState(view, zones, deleting));
        });
      } catch (CloudProviderException e) {
        if (e.kind().retryable) {
          throw e;
        }
        log.warn("static nodepool not scaled, its EC2NodeClass cannot be resolved nodepool={}: {}",
            pool.getMetadata().getName(), e.getMessage());
      }
    }
    var launches = StaticPools.launches(pools, types, inputs.daemonSetPods(), kubelets, batchId, ClaimNamer.standard());
    launches.stayingShort().forEach((pool, why) -> log.warn("static nodepool stays short nodepool={} why=\"{}\"", pool, why));
    log.info("static nodepools planned pools={} claims={}", pools.size(), launches.claims().size());
    return new ProvisioningPlan(launches.claims(), List.of());
  }

  private static String label(NodeClaim claim, String key) {
    return claim.getMetadata().getLabels() == null ? null : claim.getMetadata().getLabels().get(key);
  }

  /** The claim's zone: its label once launched, else its one-valued zone requirement (a static claim is pinned), else null. */
  private static String zone(NodeClaim claim) {
    String labelled = label(claim, WellKnown.ZONE_LABEL);
    if (labelled != null || claim.getSpec() == null) {
      return labelled;
    }
    return claim.getSpec().requirementsOrEmpty().stream()
        .filter(r -> WellKnown.ZONE_LABEL.equals(r.key()) && "In".equals(r.operator()) && r.values() != null && r.values().size() == 1)
        .map(RequirementWithMinValues::values).map(List::getFirst).filter(Objects::nonNull).findFirst().orElse(null);
  }
}
