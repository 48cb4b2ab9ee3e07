package dev.farrier.activities.kube;

import static dev.farrier.activities.kube.MergePatches.mergeConditions;
import static dev.farrier.activities.kube.MergePatches.observedAt;
import static dev.farrier.activities.kube.MergePatches.require;
import static dev.farrier.activities.kube.MergePatches.statusPatch;

import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.EC2NodeClassStatus;
import dev.farrier.activities.crd.NodeOverlay;
import dev.farrier.activities.crd.NodeOverlayStatus;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.crd.NodePoolStatus;
import java.util.List;

/**
 * {@link StatusWriter} on the fabric8 client. Each patch is a read-modify-write of the status subresource on the
 * API server ({@link OptimisticPatcher}: the read resourceVersion as precondition, retried from a fresh read on
 * conflict), so conditions another writer set in between are merged, not lost; a patch that would change nothing is
 * not sent. A missing object throws {@link ObjectNotFoundException}.
 */
final class Fabric8StatusWriter implements StatusWriter {
  private final OptimisticPatcher patcher;

  Fabric8StatusWriter(OptimisticPatcher patcher) {
    this.patcher = patcher;
  }

  @Override
  public EC2NodeClass patchNodeClassStatus(String name, EC2NodeClassStatus patch) {
    var outcome = patcher.apply(EC2NodeClass.class, name, true, current -> {
      EC2NodeClassStatus stored = current.getStatus();
      List<Condition> storedConditions = stored == null ? null : stored.conditions();
      EC2NodeClassStatus target = new EC2NodeClassStatus(
          patch.amis() != null ? patch.amis() : stored == null ? null : stored.amis(),
          patch.subnets() != null ? patch.subnets() : stored == null ? null : stored.subnets(),
          patch.securityGroups() != null ? patch.securityGroups() : stored == null ? null : stored.securityGroups(),
          patch.instanceProfile() != null ? patch.instanceProfile() : stored == null ? null : stored.instanceProfile(),
          patch.capacityReservations() != null ? patch.capacityReservations() : stored == null ? null : stored.capacityReservations(),
          mergeConditions(storedConditions, observedAt(current, patch.conditions())));
      return statusPatch(stored, target);
    });
    return require(outcome, EC2NodeClass.KIND, name);
  }

  @Override
  public NodePool patchNodePoolStatus(String name, NodePoolStatus patch) {
    var outcome = patcher.apply(NodePool.class, name, true, current -> {
      NodePoolStatus stored = current.getStatus();
      NodePoolStatus target = new NodePoolStatus(
          patch.resources() != null ? patch.resources() : stored == null ? null : stored.resources(),
          patch.nodes() != null ? patch.nodes() : stored == null ? null : stored.nodes(),
          mergeConditions(stored == null ? null : stored.conditions(), observedAt(current, patch.conditions())),
          patch.nodeClassObservedGeneration() != null ? patch.nodeClassObservedGeneration()
              : stored == null ? null : stored.nodeClassObservedGeneration());
      return statusPatch(stored, target);
    });
    return require(outcome, NodePool.KIND, name);
  }

  @Override
  public NodeOverlay patchNodeOverlayStatus(String name, NodeOverlayStatus patch) {
    var outcome = patcher.apply(NodeOverlay.class, name, true, current -> {
      NodeOverlayStatus stored = current.getStatus();
      NodeOverlayStatus target = new NodeOverlayStatus(
          mergeConditions(stored == null ? null : stored.conditions(), observedAt(current, patch.conditions())));
      return statusPatch(stored, target);
    });
    return require(outcome, NodeOverlay.KIND, name);
  }
}
