package dev.farrier.activities;

import dev.farrier.activities.cloud.NodeClassLaunch;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.EC2NodeClassStatus;
import dev.farrier.activities.crd.ResolvedSecurityGroup;
import java.util.ArrayList;
import java.util.List;

/**
 * What an EC2NodeClass gives a launch: boot settings from its spec, subnets, security groups and instance profile
 * from the status the status loop wrote. A class whose status lacks any of them is not ready to launch from.
 */
final class NodeClassLaunches {
  private NodeClassLaunches() {}

  /**
   * Throws {@code NodeClassNotResolved} (retried) while the status loop has not yet written a Ready condition, and
   * {@code NodeClassNotReady} (permanent) naming every missing piece once it has.
   */
  static NodeClassLaunch of(EC2NodeClass nodeClass) {
    var spec = nodeClass.getSpec();
    var status = nodeClass.getStatus();
    String name = nodeClass.getMetadata().getName();
    List<String> missing = new ArrayList<>();
    if (status == null || status.subnets() == null || status.subnets().isEmpty()) {
      missing.add("status.subnets (subnetSelectorTerms resolved to no subnet yet)");
    }
    if (status == null || status.securityGroups() == null || status.securityGroups().isEmpty()) {
      missing.add("status.securityGroups (securityGroupSelectorTerms resolved to no security group yet)");
    }
    if (status == null || status.instanceProfile() == null || status.instanceProfile().isBlank()) {
      missing.add("status.instanceProfile (spec.role or spec.instanceProfile not resolved yet)");
    }
    if (!missing.isEmpty() && (status == null || Conditions.find(status.conditionsOrEmpty(), EC2NodeClassStatus.READY).isEmpty())) {
      throw Failures.nodeClassNotResolved("EC2NodeClass " + name + " has not been resolved by the status loop yet; its status lacks "
          + String.join(", ", missing));
    }
    if (!missing.isEmpty()) {
      throw Failures.nodeClassNotReady("EC2NodeClass " + name + " cannot launch nodes: its status lacks " + String.join(", ", missing));
    }
    return new NodeClassLaunch(amiFamily(nodeClass), status.subnets(),
        status.securityGroups().stream().map(ResolvedSecurityGroup::id).toList(), status.instanceProfile(), spec.userData(),
        spec.kubelet(), spec.metadataOptions(), spec.blockDeviceMappings(), spec.tagsOrEmpty(),
        ProvisioningSnapshots.kubelet(nodeClass));
  }

  /** {@code spec.amiFamily}, or the family an alias term names ({@link dev.farrier.activities.crd.EC2NodeClassSpec#resolvedAmiFamily}). */
  static String amiFamily(EC2NodeClass nodeClass) {
    return nodeClass.getSpec().resolvedAmiFamily();
  }

}
