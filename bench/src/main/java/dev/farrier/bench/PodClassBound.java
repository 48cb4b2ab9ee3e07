package dev.farrier.bench;

import dev.farrier.model.Resources;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.KubeletSettings;
import dev.farrier.planner.NodeAllocatable;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * A sounder lower bound than {@link PriceBound} on the hourly price of any placement of {@code pods}: it also knows
 * that a pod lands whole on one node, so a big pod can only use the capacity of types at least as big.
 *
 * <p>Classes: for every CPU request value {@code c} and memory request value {@code m} the pods have, class
 * {@code (c, m)} is the pods requesting at least {@code c} CPU and at least {@code m} memory. Each of them runs on
 * a node whose allocatable holds it, so of a type in {@code T(c, m)} (allocatable CPU at least {@code c}, memory at
 * least {@code m}). The nodes of those types together must give the class's pods their summed CPU, their summed
 * memory and a pod slot each (max pods). With {@code x_t} the node count of type {@code t} in any valid placement,
 * that is, for every class {@code k}: {@code sum_{t in T_k} cpu_t x_t >= C_k}, the same for memory and pod slots.
 * So the placement's price is at least the optimum of the linear program "min sum p_t x_t over real x_t >= 0 under
 * those constraints" ({@code p_t}: the type's cheapest offering). The class of the smallest values is all pods, so
 * this is never below {@link PriceBound} (which drops pod slots and every other class).
 *
 * <p>How it is computed, soundly whatever the rounding: by weak duality any {@code y >= 0} with
 * {@code sum_k a_kt y_k <= p_t} for every type gives the lower bound {@code sum_k b_k y_k}. A simplex on that dual
 * (origin feasible, Bland's rule) finds the best such {@code y}; it is then checked against every type and scaled
 * down by its worst violation, if rounding left any, before the bound is taken.
 */
record PodClassBound(double perHour, int classes) {
  private static final double EPS = 1e-9;

  /** {@code pods}: the placed pods' requests, each {milliCpu, memoryBytes}. */
  static PodClassBound of(List<InstanceTypeView> types, List<long[]> pods) {
    return of(types, KubeletSettings.DEFAULTS, pods);
  }

  /** The same under the node class's {@code kubelet} settings, which make each type's allocatable. */
  static PodClassBound of(List<InstanceTypeView> types, KubeletSettings kubelet, List<long[]> pods) {
    if (pods.isEmpty()) {
      return new PodClassBound(0, 0);
    }
    TreeSet<Long> cpuValues = new TreeSet<>();
    TreeSet<Long> memValues = new TreeSet<>();
    pods.forEach(p -> {
      cpuValues.add(p[0]);
      memValues.add(p[1]);
    });
    List<double[]> typeRows = new ArrayList<>();
    List<Double> prices = new ArrayList<>();
    for (InstanceTypeView t : types) {
      double price = BenchCatalog.cheapestPrice(t);
      Resources a = NodeAllocatable.of(t, kubelet);
      if (Double.isFinite(price) && a.pods() > 0) {
        typeRows.add(new double[] {a.milliCpu(), a.memoryBytes(), a.pods()});
        prices.add(price);
      }
    }
    // Constraint k: class index * 3 + resource (0 cpu, 1 memory, 2 pod slots); units scaled to cores and GiB.
    List<long[]> classes = new ArrayList<>();
    List<double[]> demand = new ArrayList<>();
    for (long c : cpuValues) {
      for (long m : memValues) {
        double cpu = 0;
        double mem = 0;
        double count = 0;
        for (long[] p : pods) {
          if (p[0] >= c && p[1] >= m) {
            cpu += p[0] / 1000.0;
            mem += p[1] / (double) (1L << 30);
            count++;
          }
        }
        if (count > 0) {
          classes.add(new long[] {c, m});
          demand.add(new double[] {cpu, mem, count});
        }
      }
    }
    int n = typeRows.size();
    int m = classes.size() * 3;
    double[][] a = new double[n][m];
    double[] b = new double[m];
    for (int k = 0; k < classes.size(); k++) {
      for (int r = 0; r < 3; r++) {
        b[k * 3 + r] = demand.get(k)[r];
      }
      for (int t = 0; t < n; t++) {
        double[] row = typeRows.get(t);
        if (row[0] >= classes.get(k)[0] && row[1] >= classes.get(k)[1]) {
          a[t][k * 3] = row[0] / 1000.0;
          a[t][k * 3 + 1] = row[1] / (double) (1L << 30);
          a[t][k * 3 + 2] = row[2];
        }
      }
    }
    double[] p = prices.stream().mapToDouble(Double::doubleValue).toArray();
    double[] y = maximiseDual(a, p, b);
    double worst = 1;
    for (int t = 0; t < n; t++) {
      double used = 0;
      for (int k = 0; k < m; k++) {
        used += a[t][k] * y[k];
      }
      worst = Math.max(worst, used / p[t]);
    }
    double bound = 0;
    for (int k = 0; k < m; k++) {
      bound += b[k] * y[k] / worst;
    }
    return new PodClassBound(bound, classes.size());
  }

  /** max b.y subject to a y <= p (one row per type), y >= 0, with p >= 0: the origin is feasible. */
  static double[] maximiseDual(double[][] a, double[] p, double[] b) {
    int n = a.length;
    int m = b.length;
    int cols = m + n + 1;
    double[][] tab = new double[n + 1][cols];
    int[] basis = new int[n];
    for (int r = 0; r < n; r++) {
      System.arraycopy(a[r], 0, tab[r], 0, m);
      tab[r][m + r] = 1;
      tab[r][cols - 1] = p[r];
      basis[r] = m + r;
    }
    for (int k = 0; k < m; k++) {
      tab[n][k] = -b[k];
    }
    for (int iteration = 0; iteration < 100_000; iteration++) {
      int enter = -1;
      for (int j = 0; j < cols - 1; j++) {
        if (tab[n][j] < -EPS) {
          enter = j; // Bland: the first improving column, so the simplex cannot cycle
          break;
        }
      }
      if (enter < 0) {
        break;
      }
      int leave = -1;
      double bestRatio = Double.POSITIVE_INFINITY;
      for (int r = 0; r < n; r++) {
        if (tab[r][enter] > EPS) {
          double ratio = tab[r][cols - 1] / tab[r][enter];
          if (ratio < bestRatio - EPS || (ratio <= bestRatio + EPS && leave >= 0 && basis[r] < basis[leave])) {
            bestRatio = ratio;
            leave = r;
          }
        }
      }
      if (leave < 0) {
        throw new IllegalStateException("unbounded dual: some class has demand no type can serve");
      }
      double pivot = tab[leave][enter];
      for (int j = 0; j < cols; j++) {
        tab[leave][j] /= pivot;
      }
      for (int r = 0; r <= n; r++) {
        double f = tab[r][enter];
        if (r != leave && f != 0) {
          for (int j = 0; j < cols; j++) {
            tab[r][j] -= f * tab[leave][j];
          }
        }
      }
      basis[leave] = enter;
    }
    double[] y = new double[m];
    for (int r = 0; r < n; r++) {
      if (basis[r] < m) {
        y[basis[r]] = Math.max(0, tab[r][cols - 1]);
      }
    }
    return y;
  }
}
