package dev.farrier.activities.kube;

import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.EC2NodeClassStatus;
import dev.farrier.activities.crd.NodeOverlay;
import dev.farrier.activities.crd.NodeOverlayStatus;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.crd.NodePoolStatus;

/**
 * Writes the status of NodePools and EC2NodeClasses (the status loop). The contracts of {@link Cluster} apply.
 */
public interface StatusWriter {
  /**
   * Patches the node class's status: non-null fields replace the stored ones, conditions merge by type (a
   * condition whose status is unchanged keeps its lastTransitionTime). Idempotent: the same patch twice leaves
   * the same status and the second is not sent. Throws {@link ObjectNotFoundException}.
   */
  EC2NodeClass patchNodeClassStatus(String name, EC2NodeClassStatus patch);

  /**
   * Patches the NodePool's status as {@link #patchNodeClassStatus} does (resources and nodes when non-null;
   * conditions merged by type). Idempotent for the same reason. Throws {@link ObjectNotFoundException}.
   */
  NodePool patchNodePoolStatus(String name, NodePoolStatus patch);

  /**
   * Merges the conditions into the NodeOverlay's status by type, as {@link #patchNodeClassStatus} does. Idempotent for
   * the same reason. Throws {@link ObjectNotFoundException}.
   */
  NodeOverlay patchNodeOverlayStatus(String name, NodeOverlayStatus patch);
}
