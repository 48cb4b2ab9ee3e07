package dev.farrier.planner;

import dev.farrier.model.Resources;
import dev.farrier.planner.InstanceTypeOptions.Option;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How big a new claim of one NodePool may grow, chosen by price: the instance type that buys the batch's pods most
 * cheaply, not the largest that still holds them.
 *
 * <p>Each candidate type (one that holds the claim's first pod, at its cheapest offering the claim's requirements
 * allow) is filled, biggest pod first, with the pods of the batch still waiting that could share its node
 * ({@link RemainingPods}). The filled demand is valued at the pool's <em>shadow prices</em> of a CPU core and of a
 * byte of memory: the dual optimum of the linear program "cover the batch's summed CPU and memory requests with
 * fractional nodes of the pool's types at their cheapest price". Those prices make no type cheaper than the
 * resources it gives ({@code price_t >= yCpu * cpu_t + yMem * mem_t}), and the batch's demand valued at them is the
 * program's optimum, a lower bound on any plan's price. So a claim's price divided by the value of what it holds is
 * at least 1, and a plan's price over that bound is the demand-weighted mean of those ratios: choosing, per claim,
 * the type with the lowest ratio is choosing the claim that wastes least. The claim then takes pods until that
 * type's allocatable is full ({@link Draft#cap}); it still lists every type, cheapest first, that holds what it got.
 *
 * <p>Cost: the shadow prices once per pool and batch (a ternary search over a concave function, O(types) each step);
 * a choice packs candidate types in order of the best ratio they could reach (price over the value of their whole
 * allocatable) and stops at the first that cannot beat the best found, each packing O(request vectors, which
 * {@link RemainingPods} rounds onto a coarse grid when a class has many); it is cached per requirement set and first
 * pod until the waiting pods change noticeably ({@link RemainingPods#version}).
 */
final class ClaimSizing {
  private static final int SEARCH_STEPS = 100;

  private final PoolContext pool;
  private final Resources batchDemand;
  private double yCpu = Double.NaN;
  private double yMem;
  private final Map<Key, Resources> cache = new HashMap<>();

  private record Key(Requirements requirements, Resources first, RemainingPods pods, int version) {}

  ClaimSizing(PoolContext pool, Resources batchDemand) {
    this.pool = pool;
    this.batchDemand = batchDemand;
  }

  /**
   * The allocatable of the type a claim opened for {@code first} (requests of one pod) should fill up to, among
   * {@code options} (types holding it under {@code requirements}); null when nothing limits it (no candidates or no
   * prices to compare).
   */
  Resources cap(Requirements requirements, List<Option> options, Resources first, RemainingPods pods) {
    if (options.isEmpty() || pods == null) {
      return null;
    }
    // Limits make the options depend on what else is planned: no caching then.
    Key key = pool.limited() ? null : new Key(requirements, first, pods, pods.version());
    if (key != null && cache.containsKey(key)) {
      return cache.get(key);
    }
    shadowPrices();
    // A type's price over the value of its whole allocatable is the best ratio it can reach: taking types in that
    // order, the search stops at the first that cannot beat the best found, usually after a few packings.
    int n = options.size();
    double[] floor = new double[n];
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      Option o = options.get(i);
      double full = value(o.facts().allocatable().minus(pool.daemonOverhead));
      floor[i] = full > 0 ? o.price() / full : Double.POSITIVE_INFINITY;
      order[i] = i;
    }
    java.util.Arrays.sort(order, (a, b) -> Double.compare(floor[a], floor[b]));
    Resources best = null;
    double bestRatio = Double.POSITIVE_INFINITY;
    double bestValue = 0;
    for (int i : order) {
      if (floor[i] > bestRatio + 1e-12) {
        break;
      }
      Option o = options.get(i);
      Resources room = o.facts().allocatable().minus(pool.daemonOverhead);
      double value = packedValue(room, first, pods);
      if (value <= 0) {
        continue;
      }
      double ratio = o.price() / value;
      if (ratio < bestRatio - 1e-12 || (ratio <= bestRatio + 1e-12 && value > bestValue)) {
        bestRatio = ratio;
        bestValue = value;
        best = o.facts().allocatable();
      }
    }
    if (key != null) {
      cache.put(key, best);
    }
    return best;
  }

  private double value(Resources r) {
    return yCpu * r.milliCpu() + yMem * r.memoryBytes();
  }

  /** The shadow-price value of {@code first} plus what of {@code pods} fits beside it in {@code room}, biggest first. */
  private double packedValue(Resources room, Resources first, RemainingPods pods) {
    if (!first.fitsIn(room)) {
      return 0;
    }
    // The first pod counted as the others are (rounded when they are), so every type is filled with one estimate.
    Resources rounded = pods.asCounted(first);
    Resources left = room.minus(rounded);
    double cpu = rounded.milliCpu();
    double mem = rounded.memoryBytes();
    int own = pods.indexOf(first);
    for (int i = 0; i < pods.counts.length; i++) {
      long n = pods.counts[i] - (i == own ? 1 : 0);
      if (n <= 0) {
        continue;
      }
      if (left.milliCpu() < pods.smallestCpu || left.memoryBytes() < pods.smallestMemory || left.pods() < 1) {
        break; // no waiting pod fits any more
      }
      Resources r = pods.requests.get(i);
      long k = Math.min(n, fitCount(left, r));
      if (k <= 0) {
        continue;
      }
      left = left.minus(times(r, k));
      cpu += (double) k * r.milliCpu();
      mem += (double) k * r.memoryBytes();
    }
    return yCpu * cpu + yMem * mem;
  }

  /** How many pods of {@code r} fit in {@code room}. */
  private static long fitCount(Resources room, Resources r) {
    long k = Long.MAX_VALUE;
    k = Math.min(k, per(room.milliCpu(), r.milliCpu()));
    k = Math.min(k, per(room.memoryBytes(), r.memoryBytes()));
    k = Math.min(k, per(room.ephemeralStorageBytes(), r.ephemeralStorageBytes()));
    k = Math.min(k, per(room.pods(), r.pods()));
    for (var e : r.extended().entrySet()) {
      k = Math.min(k, per(room.extended().getOrDefault(e.getKey(), 0L), e.getValue()));
    }
    return k;
  }

  private static long per(long room, long each) {
    return each <= 0 ? Long.MAX_VALUE : Math.max(0, room / each);
  }

  private static Resources times(Resources r, long k) {
    Map<String, Long> ext = new HashMap<>();
    r.extended().forEach((name, v) -> ext.put(name, v * k));
    return new Resources(r.milliCpu() * k, r.memoryBytes() * k, r.ephemeralStorageBytes() * k, r.pods() * k, ext);
  }

  /**
   * The dual of "min sum p_t x_t with sum cpu_t x_t >= C, sum mem_t x_t >= M": maximise C yCpu + M yMem under
   * {@code cpu_t yCpu + mem_t yMem <= p_t} for every type. For a fixed yCpu the best yMem is
   * {@code min_t (p_t - cpu_t yCpu) / mem_t}, so the objective is a concave function of yCpu alone: ternary search.
   */
  private void shadowPrices() {
    if (!Double.isNaN(yCpu)) {
      return;
    }
    Priced priced = Priced.of(pool.compatible(pool.requirements));
    double maxCpuPrice = Double.POSITIVE_INFINITY;
    double maxMemPrice = Double.POSITIVE_INFINITY;
    for (int i = 0; i < priced.price().length; i++) {
      maxCpuPrice = Math.min(maxCpuPrice, priced.price()[i] / priced.cpu()[i]);
      maxMemPrice = Math.min(maxMemPrice, priced.price()[i] / priced.mem()[i]);
    }
    if (!Double.isFinite(maxCpuPrice)) {
      yCpu = 0;
      yMem = 0;
      return;
    }
    double c = Math.max(0, batchDemand.milliCpu());
    double m = Math.max(0, batchDemand.memoryBytes());
    if (c == 0 && m == 0) {
      // Nothing to weigh by: value each resource at its cheapest price alone.
      yCpu = maxCpuPrice / 2;
      yMem = maxMemPrice / 2;
      return;
    }
    double lo = 0;
    double hi = maxCpuPrice;
    for (int step = 0; step < SEARCH_STEPS; step++) {
      double a = lo + (hi - lo) / 3;
      double b = hi - (hi - lo) / 3;
      if (c * a + m * priced.memPrice(a) < c * b + m * priced.memPrice(b)) {
        lo = a;
      } else {
        hi = b;
      }
    }
    yCpu = (lo + hi) / 2;
    yMem = priced.memPrice(yCpu);
    if (yCpu * c + yMem * m <= 0) {
      yCpu = maxCpuPrice / 2;
      yMem = maxMemPrice / 2;
    }
  }

  /**
   * The priced types' price, millicores and memory bytes side by side: the search evaluates {@link #memPrice} 200
   * times per pool and plan, over every type.
   */
  private record Priced(double[] price, double[] cpu, double[] mem) {
    static Priced of(List<Option> all) {
      int n = 0;
      double[] price = new double[all.size()];
      double[] cpu = new double[all.size()];
      double[] mem = new double[all.size()];
      for (Option o : all) {
        Resources a = o.facts().allocatable();
        if (a.milliCpu() > 0 && a.memoryBytes() > 0 && Double.isFinite(o.price())) {
          price[n] = o.price();
          cpu[n] = a.milliCpu();
          mem[n] = a.memoryBytes();
          n++;
        }
      }
      return new Priced(Arrays.copyOf(price, n), Arrays.copyOf(cpu, n), Arrays.copyOf(mem, n));
    }

    /** The best memory price for a CPU price of {@code yCpu}: {@code min_t (p_t - cpu_t yCpu) / mem_t}, at least 0. */
    double memPrice(double yCpu) {
      double best = Double.POSITIVE_INFINITY;
      for (int i = 0; i < price.length; i++) {
        best = Math.min(best, (price[i] - cpu[i] * yCpu) / mem[i]);
      }
      return Math.max(0, best);
    }
  }
}
