package dev.farrier.planner;

import java.util.List;

/**
 * The cloud provider's half of drift, as Karpenter's AWS provider checks it: the EC2NodeClass hash first (its static
 * fields), then the image, the security groups and the subnet, all from what the claim recorded at launch
 * ({@link LaunchedWith}) against what the class holds now ({@link NodeClassView}, {@code status} written by the status
 * loop), so the planning round makes no cloud call.
 */
final class NodeClassDrift {
  private NodeClassDrift() {}

  static void check(LaunchedWith launched, NodeClassView nodeClass, List<String> imagesForArch, NodeClaimView claim,
      DriftCheck.Findings findings) {
    boolean recorded = launched.nodeClassHash() != null || launched.subnetId() != null || !launched.securityGroupIds().isEmpty();
    if (nodeClass == null && recorded) {
      findings.notChecked("ec2nodeclass " + claim.nodeClassName() + " unknown, its drift not checked");
    } else if (nodeClass != null) {
      hash(launched, nodeClass, findings);
    } else {
      findings.note("ec2nodeclass-hash not compared (missing)");
    }
    image(claim, imagesForArch, findings);
    if (nodeClass != null) {
      securityGroups(launched, nodeClass, findings);
      subnet(launched, nodeClass, findings);
    }
  }

  private static void hash(LaunchedWith launched, NodeClassView nodeClass, DriftCheck.Findings findings) {
    if (launched.nodeClassHash() == null || nodeClass.hash() == null) {
      findings.note("ec2nodeclass-hash not compared (missing)");
    } else if (launched.nodeClassHashVersion() == null || !launched.nodeClassHashVersion().equals(nodeClass.hashVersion())) {
      findings.note("ec2nodeclass-hash not compared (hash version " + launched.nodeClassHashVersion() + ", now "
          + nodeClass.hashVersion() + ")");
    } else if (!launched.nodeClassHash().equals(nodeClass.hash())) {
      findings.drift(DriftCheck.NODECLASS_DRIFT, "ec2nodeclass-hash " + launched.nodeClassHash() + " differs from ec2nodeclass "
          + nodeClass.name() + "'s " + nodeClass.hash());
    } else {
      findings.note("ec2nodeclass-hash matches");
    }
  }

  private static void image(NodeClaimView claim, List<String> resolvedForArch, DriftCheck.Findings findings) {
    if (claim.imageId() == null) {
      findings.notChecked("image unknown");
    } else if (resolvedForArch.isEmpty()) {
      findings.notChecked("no images resolved for " + claim.arch() + ", image drift not checked");
    } else if (!resolvedForArch.contains(claim.imageId())) {
      findings.drift(DriftCheck.AMI_DRIFT, "image " + claim.imageId() + " is not among " + DriftCheck.ids(resolvedForArch)
          + " resolved for " + claim.arch());
    } else {
      findings.note("image " + claim.imageId() + " is current for " + claim.arch());
    }
  }

  /** Karpenter compares the sets: a group added to the class drifts its nodes as well as one removed. */
  private static void securityGroups(LaunchedWith launched, NodeClassView nodeClass, DriftCheck.Findings findings) {
    if (launched.securityGroupIds().isEmpty()) {
      findings.note("security groups not compared (not recorded at launch)");
    } else if (nodeClass.securityGroupIds().isEmpty()) {
      findings.notChecked("no security groups resolved for ec2nodeclass " + nodeClass.name() + ", security group drift not checked");
    } else if (!DriftCheck.sameSet(launched.securityGroupIds(), nodeClass.securityGroupIds())) {
      findings.drift(DriftCheck.SECURITY_GROUP_DRIFT, "security groups " + DriftCheck.ids(launched.securityGroupIds())
          + " differ from " + DriftCheck.ids(nodeClass.securityGroupIds()) + " resolved for ec2nodeclass " + nodeClass.name());
    } else {
      findings.note("security groups match");
    }
  }

  private static void subnet(LaunchedWith launched, NodeClassView nodeClass, DriftCheck.Findings findings) {
    if (launched.subnetId() == null) {
      findings.note("subnet not compared (not recorded at launch)");
    } else if (nodeClass.subnetIds().isEmpty()) {
      findings.notChecked("no subnets resolved for ec2nodeclass " + nodeClass.name() + ", subnet drift not checked");
    } else if (!nodeClass.subnetIds().contains(launched.subnetId())) {
      findings.drift(DriftCheck.SUBNET_DRIFT, "subnet " + launched.subnetId() + " is not among "
          + DriftCheck.ids(nodeClass.subnetIds()) + " resolved for ec2nodeclass " + nodeClass.name());
    } else {
      findings.note("subnet " + launched.subnetId() + " is resolved");
    }
  }
}
