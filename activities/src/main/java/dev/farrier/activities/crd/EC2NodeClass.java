package dev.farrier.activities.crd;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;
import java.io.Serial;

/** {@code karpenter.k8s.aws/v1 EC2NodeClass} (cluster-scoped). */
@Group(EC2NodeClass.GROUP)
@Version(EC2NodeClass.VERSION)
@Kind(EC2NodeClass.KIND)
@Plural("ec2nodeclasses")
public class EC2NodeClass extends CustomResource<EC2NodeClassSpec, EC2NodeClassStatus> {
  @Serial
  private static final long serialVersionUID = 1L;

  public static final String GROUP = "karpenter.k8s.aws";
  public static final String VERSION = "v1";
  public static final String KIND = "EC2NodeClass";
}
