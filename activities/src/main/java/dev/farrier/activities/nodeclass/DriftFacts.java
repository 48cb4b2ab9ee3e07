package dev.farrier.activities.nodeclass;

import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.cloud.InstanceTypeLabels;
import dev.farrier.activities.cloud.WindowsFamily;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.EC2NodeClassHash;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.ResolvedSecurityGroup;
import dev.farrier.activities.crd.ResolvedSubnet;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.LaunchedWith;
import dev.farrier.planner.NodeClassView;
import io.fabric8.kubernetes.api.model.Node;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What drift compares beyond the image and the NodePool hash, as Farrier keeps it on Kubernetes objects: written on
 * the NodeClaim once, by the launch, from the instance the cloud returned and the EC2NodeClass it was launched from;
 * read back by every planning round with the class as it is now. So the 10 s planning round never asks the cloud
 * (Karpenter's AWS provider describes the instance, through a cache, on each drift check).
 */
public final class DriftFacts {
  private DriftFacts() {}

  /**
   * The labels Karpenter puts on a launched NodeClaim: the instance type's own (arch, os, type, {@code instance-*};
   * a Windows family's nodes are {@code windows} with their {@code windows-build}),
   * the zone, its id when known (from the subnet the instance was launched into) and the capacity type. Requirements
   * drift checks them against the NodePool's requirements.
   */
  public static Map<String, String> launchLabels(Instance instance, Optional<InstanceType> type, List<ResolvedSubnet> subnets,
      String amiFamily) {
    Map<String, String> labels = new LinkedHashMap<>();
    type.ifPresent(t -> {
      labels.putAll(InstanceTypeLabels.of(t));
      labels.put(WellKnown.ARCH_LABEL, t.kubernetesArch());
      labels.putAll(WindowsFamily.of(amiFamily).map(WindowsFamily::nodeLabels).orElse(Map.of(WellKnown.OS_LABEL, "linux")));
    });
    labels.put(WellKnown.INSTANCE_TYPE_LABEL, instance.instanceType());
    labels.put(WellKnown.ZONE_LABEL, instance.zone());
    subnets.stream().filter(s -> instance.zone().equals(s.zone()) && s.zoneID() != null && !s.zoneID().isBlank())
        .sorted(java.util.Comparator.comparing((ResolvedSubnet s) -> !s.id().equals(instance.subnetId())))
        .findFirst().ifPresent(s -> labels.put(WellKnown.ZONE_ID_LABEL, s.zoneID()));
    labels.put(WellKnown.CAPACITY_TYPE_LABEL, instance.capacityType());
    return labels;
  }

  /** The class's hash (and its version) and the instance's subnet and security groups, as annotations. */
  public static Map<String, String> launchAnnotations(EC2NodeClass nodeClass, Instance instance) {
    Map<String, String> annotations = new LinkedHashMap<>();
    annotations.put(WellKnown.NODECLASS_HASH_ANNOTATION, EC2NodeClassHash.of(nodeClass));
    annotations.put(WellKnown.NODECLASS_HASH_VERSION_ANNOTATION, EC2NodeClassHash.VERSION);
    if (instance.subnetId() != null && !instance.subnetId().isBlank()) {
      annotations.put(WellKnown.SUBNET_ID_ANNOTATION, instance.subnetId());
    }
    if (!instance.securityGroupIds().isEmpty()) {
      annotations.put(WellKnown.SECURITY_GROUP_IDS_ANNOTATION, String.join(",", instance.securityGroupIds().stream().sorted().toList()));
    }
    return annotations;
  }

  /** What the launch recorded on {@code claim}; nulls for a claim launched before it was recorded. */
  public static LaunchedWith launchedWith(NodeClaim claim) {
    Map<String, String> annotations = claim.getMetadata().getAnnotations() == null ? Map.of() : claim.getMetadata().getAnnotations();
    String groups = annotations.get(WellKnown.SECURITY_GROUP_IDS_ANNOTATION);
    return new LaunchedWith(annotations.get(WellKnown.NODECLASS_HASH_ANNOTATION), annotations.get(WellKnown.NODECLASS_HASH_VERSION_ANNOTATION),
        annotations.get(WellKnown.SUBNET_ID_ANNOTATION),
        groups == null ? List.of() : Arrays.stream(groups.split(",")).map(String::trim).filter(g -> !g.isEmpty()).toList());
  }

  /**
   * The claim's labels, with its Node's for keys the claim lacks (a claim launched before Farrier recorded the instance
   * type's labels on it, on a cloud whose Node has them).
   */
  public static Map<String, String> labels(NodeClaim claim, Node node) {
    Map<String, String> labels = new LinkedHashMap<>();
    if (node != null && node.getMetadata().getLabels() != null) {
      labels.putAll(node.getMetadata().getLabels());
    }
    if (claim.getMetadata().getLabels() != null) {
      labels.putAll(claim.getMetadata().getLabels());
    }
    return labels;
  }

  /** The class as drift compares it now: its hash and what the status loop resolved its subnets and groups to. */
  public static NodeClassView nodeClass(EC2NodeClass nodeClass) {
    var status = nodeClass.getStatus();
    return new NodeClassView(nodeClass.getMetadata().getName(), EC2NodeClassHash.of(nodeClass), EC2NodeClassHash.VERSION,
        status == null || status.subnets() == null ? List.of() : status.subnets().stream().map(ResolvedSubnet::id).toList(),
        status == null || status.securityGroups() == null ? List.of()
            : status.securityGroups().stream().map(ResolvedSecurityGroup::id).toList());
  }
}
