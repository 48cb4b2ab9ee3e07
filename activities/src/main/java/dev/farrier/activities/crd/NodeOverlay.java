package dev.farrier.activities.crd;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;
import java.io.Serial;

/**
 * {@code karpenter.sh/v1alpha1 NodeOverlay} (cluster-scoped): a price or price adjustment, and extended resources, for
 * the instance types and offerings its requirements select, by weight.
 */
@Group(NodeOverlay.GROUP)
@Version(NodeOverlay.VERSION)
@Kind(NodeOverlay.KIND)
@Plural("nodeoverlays")
public class NodeOverlay extends CustomResource<NodeOverlaySpec, NodeOverlayStatus> {
  @Serial
  private static final long serialVersionUID = 1L;

  public static final String GROUP = "karpenter.sh";
  public static final String VERSION = "v1alpha1";
  public static final String KIND = "NodeOverlay";
}
