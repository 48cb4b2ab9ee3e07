package dev.farrier.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.Resources;
import dev.farrier.planner.ClaimNamer;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.OfferingView;
import dev.farrier.planner.ProvisioningPlanner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodClassBoundTest {
  private static final long MIB = 1L << 20;
  private static final long GIB = 1L << 30;

  /**
   * Ten 1-CPU pods and one 4Gi pod: the summed-request bound buys the 4Gi as cheap memory spread over small nodes,
   * but that pod needs one node with 4Gi, which only the big type has.
   */
  @Test
  void aPodTooBigForTheCheapTypeIsChargedToTheTypesThatHoldIt() {
    InstanceTypeView small = type("s.large", 2, 2, 11, 0.01);
    InstanceTypeView big = type("b.large", 2, 16, 29, 0.05);
    List<InstanceTypeView> types = List.of(small, big);
    List<long[]> pods = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      pods.add(new long[] {1000, 100 * MIB});
    }
    pods.add(new long[] {100, 4 * GIB});
    long cpu = pods.stream().mapToLong(p -> p[0]).sum();
    long memory = pods.stream().mapToLong(p -> p[1]).sum();

    double summed = PriceBound.of(types, cpu, memory).perHour();
    double classes = PodClassBound.of(types, pods).perHour();
    assertTrue(classes > summed * 1.05, "classes " + classes + " vs summed " + summed);
    // A real placement: each 1-CPU pod on its own small node (1,930m allocatable), the 4Gi pod on a big one.
    assertTrue(classes <= 10 * 0.01 + 0.05 + 1e-12, "never above a real placement: " + classes);
  }

  @Test
  void oneClassOfEqualPodsIsTheSummedBoundWithPodSlots() {
    InstanceTypeView m = type("m.large", 2, 8, 29, 0.10);
    List<long[]> pods = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      pods.add(new long[] {500, 512 * MIB});
    }
    double summed = PriceBound.of(List.of(m), 2000, 2048 * MIB).perHour();
    assertEquals(summed, PodClassBound.of(List.of(m), pods).perHour(), 1e-9);
  }

  /** Soundness on the real catalogue: the planner's plans (valid placements) never cost less than the bound. */
  @Test
  void neverAboveThePlannersPlansAndNeverBelowTheSummedBound() {
    List<InstanceTypeView> types = BenchCatalog.instanceTypes(400);
    PlanPrice price = new PlanPrice(types);
    for (int seed = 1; seed <= 6; seed++) {
      List<BenchPod> pods = new Workloads(seed).pods(Workloads.Mix.GENERIC, 40 * seed);
      ProvisioningPlan plan = new ProvisioningPlanner().plan(PlannerInput.snapshot(pods, types), "t", ClaimNamer.standard());
      assertTrue(plan.unschedulable().isEmpty());
      List<long[]> requests = pods.stream().map(p -> new long[] {p.milliCpu(), p.memoryBytes()}).toList();
      double bound = PodClassBound.of(types, requests).perHour();
      double summed = PriceBound.of(types, requests.stream().mapToLong(r -> r[0]).sum(),
          requests.stream().mapToLong(r -> r[1]).sum()).perHour();
      assertTrue(bound <= price.perHour(plan) + 1e-9, "seed " + seed + ": bound " + bound + " above a plan's price");
      assertTrue(bound >= summed - 1e-9, "seed " + seed + ": bound " + bound + " below the summed bound " + summed);
    }
  }

  /**
   * On Karpenter's fake catalogue the bounds use its overhead (100m and 10Mi, nothing else): pods requesting exactly
   * the largest type's allocatable need one node of it. Under the EKS defaults no type would hold the big pod.
   */
  @Test
  void onKarpentersCatalogueTheBoundsUseItsOverhead() {
    Catalog catalog = Catalog.named("karpenter");
    long cpu = 400_000 - 100;
    long memory = 800 * GIB - 10 * MIB;
    double largest = 400 * 0.3147483648;
    assertEquals(largest, PriceBound.of(catalog.types(), catalog.kubelet(), cpu, memory).perHour(), 1e-9);
    assertEquals(largest, PodClassBound.of(catalog.types(), catalog.kubelet(), List.<long[]>of(new long[] {cpu, memory}))
        .perHour(), 1e-9);
  }

  /** Soundness on Karpenter's catalogue, in its benchmark's shape: never above the planner's plans. */
  @Test
  void onKarpentersCatalogueNeverAboveThePlannersPlans() {
    Catalog catalog = Catalog.named("karpenter");
    PlanPrice price = new PlanPrice(catalog.types());
    for (int seed = 1; seed <= 4; seed++) {
      Workloads.Mix mix = seed % 2 == 0 ? Workloads.Mix.GENERIC : Workloads.Mix.DIVERSE;
      List<BenchPod> pods = new Workloads(seed, Workloads.Shape.KARPENTER).pods(mix, 50 * seed);
      ProvisioningPlan plan = SchedulingCase.plan(PlannerInput.snapshot(pods, catalog));
      assertTrue(plan.unschedulable().isEmpty());
      List<long[]> requests = pods.stream().map(p -> new long[] {p.milliCpu(), p.memoryBytes()}).toList();
      double bound = PodClassBound.of(catalog.types(), catalog.kubelet(), requests).perHour();
      double summed = PriceBound.of(catalog.types(), catalog.kubelet(), requests.stream().mapToLong(r -> r[0]).sum(),
          requests.stream().mapToLong(r -> r[1]).sum()).perHour();
      assertTrue(bound <= price.perHour(plan) + 1e-9, "seed " + seed + ": bound " + bound + " above a plan's price");
      assertTrue(bound >= summed - 1e-9, "seed " + seed + ": bound " + bound + " below the summed bound " + summed);
    }
  }

  private static InstanceTypeView type(String name, int vcpu, int memoryGiB, int maxPods, double price) {
    return new InstanceTypeView(name, "amd64", Map.of(), Resources.of(vcpu * 1000L, memoryGiB * GIB, maxPods),
        List.of(new OfferingView("zone-a", "on-demand", price, true)));
  }
}
