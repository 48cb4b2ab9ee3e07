package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The {@code karpenter.k8s.aws/ec2nodeclass-hash} value of an EC2NodeClass: a stable hash of the parts of its spec
 * whose change must drift (replace) the nodes launched from it. Written on every NodeClaim at launch and compared by
 * the disruption planner with the class's hash now ({@code NodeClassDrift}).
 *
 * <p>What is hashed mirrors karpenter-provider-aws's {@code EC2NodeClass.Hash()} (hashstructure of the spec plus the
 * resolved AMI family, with {@code SlicesAsSets}, {@code IgnoreZeroValue}, {@code ZeroNil}, skipping fields tagged
 * {@code hash:"ignore"}):
 * <ul>
 *   <li>hashed: the AMI family as resolved (the field, else the alias's family: writing {@code amiFamily: AL2023} next to
 *       {@code al2023@latest} changes nothing), role, instanceProfile, userData, tags, kubelet (hashed since
 *       Karpenter v1.1), metadataOptions, blockDeviceMappings (a set, a volume's {@code volumeInitializationRate} with
 *       it), instanceStorePolicy, associatePublicIPAddress, detailedMonitoring, connectionTracking, cpuOptions and
 *       context.</li>
 *   <li>not hashed: {@code amiSelectorTerms}, {@code subnetSelectorTerms} and {@code securityGroupSelectorTerms}: they
 *       drift nodes through what they resolve to ({@code status.amis}, {@code status.subnets},
 *       {@code status.securityGroups}: {@code AMIDrift}, {@code SubnetDrift}, {@code SecurityGroupDrift}), not as
 *       written; {@code ipPrefixCount} (tagged {@code hash:"ignore"} upstream: a new count reaches new nodes only);
 *       the literal {@code amiFamily}; and the status.</li>
 * </ul>
 * Zero values count as absent (false, an empty string, list or map equal an unset field), and an absent
 * {@code metadataOptions} counts as the API server's default, so a class read from a file hashes like the same class
 * read back from the cluster. Quantities (a volume's size) are hashed as written.
 *
 * <p>The value has Karpenter's shape (a decimal unsigned 64-bit number) but not its bits: the first 8 bytes of a SHA-256
 * over a canonical JSON form. {@link #VERSION} therefore differs from Karpenter's; a claim recorded with another version
 * is not compared, as Karpenter does after a hash version change.
 */
public final class EC2NodeClassHash {
  /** The value of {@code karpenter.k8s.aws/ec2nodeclass-hash-version} written next to hashes computed here. */
  public static final String VERSION = "farrier-v1";

  /** Sorted keys and no zero values: a map's order and an unset field never change the hash. */
  private static final ObjectMapper CANONICAL = JsonMapper.builder()
      .configure(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY, true)
      .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true)
      .defaultPropertyInclusion(JsonInclude.Value.construct(JsonInclude.Include.NON_DEFAULT, JsonInclude.Include.NON_DEFAULT))
      .build();

  private EC2NodeClassHash() {}

  public static String of(EC2NodeClass nodeClass) {
    return CanonicalHash.of(canonical(nodeClass));
  }

  /** The canonical JSON that is hashed; package-private so tests can show what a change did. */
  static String canonical(EC2NodeClass nodeClass) {
    EC2NodeClassSpec spec = Objects.requireNonNull(nodeClass.getSpec(), "EC2NodeClass has no spec");
    Map<String, Object> hashed = new TreeMap<>();
    putUnlessZero(hashed, "amiFamily", spec.resolvedAmiFamily());
    putUnlessZero(hashed, "role", spec.role());
    putUnlessZero(hashed, "instanceProfile", spec.instanceProfile());
    putUnlessZero(hashed, "userData", spec.userData());
    putUnlessZero(hashed, "tags", spec.tags());
    putUnlessZero(hashed, "kubelet", kubeletAsSet(spec.kubelet()));
    putUnlessZero(hashed, "metadataOptions", spec.metadataOptionsOrDefault());
    putUnlessZero(hashed, "blockDeviceMappings", spec.blockDeviceMappings() == null ? null
        : spec.blockDeviceMappings().stream().map(EC2NodeClassHash::json).sorted().distinct().toList());
    putUnlessZero(hashed, "instanceStorePolicy", spec.instanceStorePolicy());
    putUnlessZero(hashed, "associatePublicIPAddress", spec.associatePublicIPAddress());
    putUnlessZero(hashed, "detailedMonitoring", spec.detailedMonitoring());
    putUnlessZero(hashed, "connectionTracking", spec.connectionTracking());
    putUnlessZero(hashed, "cpuOptions", spec.cpuOptions());
    putUnlessZero(hashed, "context", spec.context());
    return json(hashed);
  }

  private static void putUnlessZero(Map<String, Object> target, String key, Object value) {
    boolean zero = value == null || Boolean.FALSE.equals(value) || "".equals(value)
        || (value instanceof java.util.Collection<?> c && c.isEmpty()) || (value instanceof Map<?, ?> m && m.isEmpty());
    if (!zero) {
      target.put(key, value);
    }
  }

  /** The kubelet with {@code clusterDNS} sorted: a slice is a set to Karpenter's hash. */
  private static KubeletConfiguration kubeletAsSet(KubeletConfiguration k) {
    if (k == null || k.clusterDNS() == null) {
      return k;
    }
    return new KubeletConfiguration(List.copyOf(new TreeSet<>(k.clusterDNS())), k.maxPods(), k.podsPerCore(), k.systemReserved(),
        k.kubeReserved(), k.evictionHard(), k.evictionSoft(), k.evictionSoftGracePeriod(), k.evictionMaxPodGracePeriod(),
        k.imageGCHighThresholdPercent(), k.imageGCLowThresholdPercent(), k.cpuCFSQuota());
  }

  private static String json(Object value) {
    try {
      return CANONICAL.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize an EC2NodeClass spec", e);
    }
  }
}
