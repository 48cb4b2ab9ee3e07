package dev.farrier.activities.cloud;

import dev.farrier.activities.crd.ResolvedSubnet;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one subnet per zone a launch uses, as karpenter-provider-aws chooses it: in each zone the subnet with the most
 * free IPv4 addresses (ties by id), never one with none left, so a zone whose subnets are all exhausted drops out of
 * the launch. A subnet whose count is unknown (the cloud did not report it) is still used, after any with a known
 * count, rather than leaving its zone out on a guess.
 */
public final class ZonalSubnets {
  private ZonalSubnets() {}

  /**
   * @param freeAddresses free addresses by subnet id, as the cloud reports them now; a subnet missing here is unknown
   * @return the chosen subnet by zone, sorted by zone; a zone is missing when all its subnets are exhausted
   */
  public static Map<String, ResolvedSubnet> choose(List<ResolvedSubnet> subnets, Map<String, Integer> freeAddresses) {
    Comparator<ResolvedSubnet> emptierFirst = Comparator
        .<ResolvedSubnet>comparingInt(s -> freeAddresses.getOrDefault(s.id(), -1)).reversed()
        .thenComparing(ResolvedSubnet::id);
    Map<String, ResolvedSubnet> byZone = new TreeMap<>();
    subnets.stream()
        .filter(s -> !isExhausted(s.id(), freeAddresses))
        .sorted(emptierFirst)
        .forEach(s -> byZone.putIfAbsent(s.zone(), s));
    return byZone;
  }

  /** True when the cloud reports no free address left in the subnet. */
  public static boolean isExhausted(String subnetId, Map<String, Integer> freeAddresses) {
    Integer free = freeAddresses.get(subnetId);
    return free != null && free <= 0;
  }
}
