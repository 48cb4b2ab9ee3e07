package dev.farrier.activities.crd;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;
import java.io.Serial;

/** {@code karpenter.sh/v1 NodePool} (cluster-scoped). */
@Group(NodePool.GROUP)
@Version(NodePool.VERSION)
@Kind(NodePool.KIND)
@Plural("nodepools")
public class NodePool extends CustomResource<NodePoolSpec, NodePoolStatus> {
  @Serial
  private static final long serialVersionUID = 1L;

  public static final String GROUP = "karpenter.sh";
  public static final String VERSION = "v1";
  public static final String KIND = "NodePool";
}
