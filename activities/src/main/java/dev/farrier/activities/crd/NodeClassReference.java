package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/** Names the node class of a NodePool or NodeClaim: for Farrier {@code karpenter.k8s.aws / EC2NodeClass / <name>}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record NodeClassReference(String group, String kind, String name) {
  public static NodeClassReference ec2NodeClass(String name) {
    return new NodeClassReference(EC2NodeClass.GROUP, EC2NodeClass.KIND, name);
  }
}
