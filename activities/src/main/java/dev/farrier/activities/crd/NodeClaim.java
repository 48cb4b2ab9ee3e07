package dev.farrier.activities.crd;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;
import java.io.Serial;

/** {@code karpenter.sh/v1 NodeClaim} (cluster-scoped): Farrier's request for one node. */
@Group(NodePool.GROUP)
@Version(NodePool.VERSION)
@Kind(NodeClaim.KIND)
@Plural("nodeclaims")
public class NodeClaim extends CustomResource<NodeClaimSpec, NodeClaimStatus> {
  @Serial
  private static final long serialVersionUID = 1L;

  public static final String KIND = "NodeClaim";
}
