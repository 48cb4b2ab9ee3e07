package dev.farrier.model;

/** Karpenter v1's well-known labels, annotations, taints and finalizers, plus Farrier's own. */
public final class WellKnown {
  private WellKnown() {}

  public static final String NODEPOOL_LABEL = "karpenter.sh/nodepool";
  public static final String CAPACITY_TYPE_LABEL = "karpenter.sh/capacity-type";
  public static final String INITIALIZED_LABEL = "karpenter.sh/initialized";
  public static final String REGISTERED_LABEL = "karpenter.sh/registered";
  public static final String INSTANCE_TYPE_LABEL = "node.kubernetes.io/instance-type";
  public static final String ZONE_LABEL = "topology.kubernetes.io/zone";
  public static final String REGION_LABEL = "topology.kubernetes.io/region";
  public static final String ARCH_LABEL = "kubernetes.io/arch";
  public static final String OS_LABEL = "kubernetes.io/os";
  /** The Windows Server build a Windows node's kubelet labels it with ({@code 10.0.20348}). */
  public static final String WINDOWS_BUILD_LABEL = "node.kubernetes.io/windows-build";
  public static final String HOSTNAME_LABEL = "kubernetes.io/hostname";
  public static final String INSTANCE_CATEGORY_LABEL = "karpenter.k8s.aws/instance-category";
  public static final String INSTANCE_FAMILY_LABEL = "karpenter.k8s.aws/instance-family";
  public static final String INSTANCE_GENERATION_LABEL = "karpenter.k8s.aws/instance-generation";
  public static final String INSTANCE_SIZE_LABEL = "karpenter.k8s.aws/instance-size";
  public static final String INSTANCE_CPU_LABEL = "karpenter.k8s.aws/instance-cpu";
  public static final String INSTANCE_MEMORY_LABEL = "karpenter.k8s.aws/instance-memory";
  public static final String INSTANCE_HYPERVISOR_LABEL = "karpenter.k8s.aws/instance-hypervisor";
  public static final String INSTANCE_CPU_MANUFACTURER_LABEL = "karpenter.k8s.aws/instance-cpu-manufacturer";
  public static final String INSTANCE_CPU_SUSTAINED_CLOCK_SPEED_MHZ_LABEL = "karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz";
  public static final String INSTANCE_LOCAL_NVME_LABEL = "karpenter.k8s.aws/instance-local-nvme";
  public static final String INSTANCE_NETWORK_BANDWIDTH_LABEL = "karpenter.k8s.aws/instance-network-bandwidth";
  public static final String INSTANCE_EBS_BANDWIDTH_LABEL = "karpenter.k8s.aws/instance-ebs-bandwidth";
  public static final String INSTANCE_GPU_NAME_LABEL = "karpenter.k8s.aws/instance-gpu-name";
  public static final String INSTANCE_GPU_MANUFACTURER_LABEL = "karpenter.k8s.aws/instance-gpu-manufacturer";
  public static final String INSTANCE_GPU_COUNT_LABEL = "karpenter.k8s.aws/instance-gpu-count";
  public static final String INSTANCE_GPU_MEMORY_LABEL = "karpenter.k8s.aws/instance-gpu-memory";
  public static final String INSTANCE_ACCELERATOR_NAME_LABEL = "karpenter.k8s.aws/instance-accelerator-name";
  public static final String INSTANCE_ACCELERATOR_MANUFACTURER_LABEL = "karpenter.k8s.aws/instance-accelerator-manufacturer";
  public static final String INSTANCE_ACCELERATOR_COUNT_LABEL = "karpenter.k8s.aws/instance-accelerator-count";
  public static final String INSTANCE_CAPABILITY_FLEX_LABEL = "karpenter.k8s.aws/instance-capability-flex";
  public static final String INSTANCE_ENCRYPTION_IN_TRANSIT_LABEL = "karpenter.k8s.aws/instance-encryption-in-transit-supported";
  /** The zone's id ({@code use1-az1}), the same zone in every account, unlike its name. */
  public static final String ZONE_ID_LABEL = "topology.k8s.aws/zone-id";
  public static final String NODECLASS_LABEL = "karpenter.k8s.aws/ec2nodeclass";

  public static final String CAPACITY_ON_DEMAND = "on-demand";
  public static final String CAPACITY_SPOT = "spot";
  /** Karpenter's capacity type of an instance launched into a capacity reservation (ReservedCapacity, on by default). */
  public static final String CAPACITY_RESERVED = "reserved";
  public static final String CAPACITY_RESERVATION_ID_LABEL = "karpenter.k8s.aws/capacity-reservation-id";
  /** {@code default} (an On-Demand Capacity Reservation) or {@code capacity-block}. */
  public static final String CAPACITY_RESERVATION_TYPE_LABEL = "karpenter.k8s.aws/capacity-reservation-type";
  public static final String CAPACITY_RESERVATION_INTERRUPTIBLE_LABEL = "karpenter.k8s.aws/capacity-reservation-interruptible";

  public static final String DO_NOT_DISRUPT_ANNOTATION = "karpenter.sh/do-not-disrupt";
  public static final String NODEPOOL_HASH_ANNOTATION = "karpenter.sh/nodepool-hash";
  public static final String NODEPOOL_HASH_VERSION_ANNOTATION = "karpenter.sh/nodepool-hash-version";
  public static final String NODECLASS_HASH_ANNOTATION = "karpenter.k8s.aws/ec2nodeclass-hash";
  public static final String NODECLASS_HASH_VERSION_ANNOTATION = "karpenter.k8s.aws/ec2nodeclass-hash-version";

  public static final String DISRUPTED_TAINT_KEY = "karpenter.sh/disrupted";
  public static final String UNREGISTERED_TAINT_KEY = "karpenter.sh/unregistered";
  public static final Taint DISRUPTED_TAINT = new Taint(DISRUPTED_TAINT_KEY, "", "NoSchedule");
  public static final Taint UNREGISTERED_TAINT = new Taint(UNREGISTERED_TAINT_KEY, "", "NoExecute");

  public static final String TERMINATION_FINALIZER = "karpenter.sh/termination";

  /** Tag keys Farrier puts on every instance it launches; terminate refuses an instance without them. */
  public static final String TAG_CLUSTER = "eks:eks-cluster-name";
  public static final String TAG_NODEPOOL = "karpenter.sh/nodepool";
  public static final String TAG_NODECLAIM = "karpenter.sh/nodeclaim";
  public static final String TAG_NODECLASS = "karpenter.k8s.aws/ec2nodeclass";
  public static final String TAG_OWNER = "farrier.dev/owner";

  /** Farrier-only annotations (never schema changes). */
  public static final String FARRIER_ABORTED_ANNOTATION = "farrier.dev/replacement-aborted";
  /** On a NodePool: {@code "true"} replaces its nodes when EC2 recommends rebalancing them (otherwise only an Event). */
  public static final String REBALANCE_REPLACEMENT_ANNOTATION = "farrier.dev/rebalance-replacement";
  /**
   * On a Node of an opted-in NodePool: when EC2 recommended rebalancing its instance away. The disruption planner
   * replaces it as a voluntary disruption (budgets, do-not-disrupt).
   */
  public static final String REBALANCE_RECOMMENDED_ANNOTATION = "farrier.dev/rebalance-recommended";
  /**
   * On a NodePool: {@code "true"} makes each planned replacement of its nodes wait for an operator's Approve once the
   * new node is up, before the old one is cordoned and drained (interruptions and forceful expiries never wait).
   */
  public static final String APPROVE_REPLACEMENTS_ANNOTATION = "farrier.dev/approve-replacements";
  /**
   * On a NodePool: the fleet upgrade ({@code upgrade/...} workflow id) that owns it. While set, the NodePool's drifted
   * nodes are replaced only in that rollout's batches, never by the reconciler's drift planning.
   */
  public static final String ROLLOUT_ANNOTATION = "farrier.dev/rollout";
  /**
   * Farrier-only, on a NodePool, a Deployment or its pod template: {@code "true"} surges the PDB-held single-replica
   * pods of a drain (a rollout restart), {@code "false"} opts a workload out (docs/surge.md).
   */
  public static final String SURGE_ANNOTATION = "farrier.dev/surge";
  /**
   * On a NodeClaim: the UIDs, comma-separated, of the pending pods it was created for. The planning activity keeps
   * their room on it while the kube-scheduler binds them; the provisioning-latency benchmark reads it for the launch
   * planned for each pod. {@link PlannedPods} writes and reads it.
   */
  public static final String PLANNED_PODS_ANNOTATION = "farrier.dev/planned-pods";
  /**
   * On a NodeClaim of a multi-node consolidation's group: the claim replaced for the whole group (its replacement is
   * sized for this claim's pods too). Written by the planning activity when it decides the group; while that claim is
   * being disrupted this one is no candidate of its own.
   */
  public static final String CONSOLIDATED_WITH_ANNOTATION = "farrier.dev/consolidated-with";
  /**
   * On a NodePool: how its expired nodes are disrupted. Absent (or {@code forceful}): as Karpenter v1, drained at once
   * past budgets and do-not-disrupt with the replacement launched in parallel; {@code replace-first}: within budgets,
   * held by do-not-disrupt, the replacement initialized before the drain.
   */
  public static final String EXPIRY_ANNOTATION = "farrier.dev/expiry";
  /**
   * On a NodePool: spare capacity kept ready as placeholder pods that real pods preempt at once, e.g.
   * {@code pods=4,cpu=1,memory=2Gi} or {@code cpu=10%} (docs/headroom.md).
   */
  public static final String HEADROOM_ANNOTATION = "farrier.dev/headroom";
  /** On a headroom's Deployment and its placeholder pods: the NodePool they keep room in. */
  public static final String HEADROOM_NODEPOOL_LABEL = "farrier.dev/headroom-nodepool";
  /**
   * On a NodeClaim, written at launch: the subnet and the security groups (comma-separated) its instance was launched
   * with, compared with its EC2NodeClass's resolved ones for subnet and security group drift without asking the cloud.
   */
  public static final String SUBNET_ID_ANNOTATION = "farrier.dev/subnet-id";
  public static final String SECURITY_GROUP_IDS_ANNOTATION = "farrier.dev/security-group-ids";
  /** On an EC2NodeClass: its {@code amiSelectorTerms} before a rollout changed them (JSON), for a person to read. */
  public static final String PREVIOUS_AMI_TERMS_ANNOTATION = "farrier.dev/previous-ami-selector-terms";
}
