package dev.farrier.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Karpenter's plan for the benchmark's pods as its priced run wrote it (tools/karpenter-peer, one line per new
 * NodeClaim: its pod count and its cheapest launch offering, priced as {@link PlanPrice} prices Farrier's claims).
 */
record KarpenterPlan(List<Claim> claims) {
  KarpenterPlan {
    claims = List.copyOf(claims);
  }

  record Claim(int pods, String instanceType, String zone, String capacityType, double pricePerHour) {}

  static KarpenterPlan read(Path file) throws IOException {
    return parse(Files.readAllLines(file));
  }

  static KarpenterPlan parse(List<String> lines) {
    return new KarpenterPlan(lines.stream().filter(l -> !l.isBlank() && !l.startsWith("#")).map(KarpenterPlan::claim).toList());
  }

  private static Claim claim(String line) {
    String[] f = line.split("\t");
    if (f.length != 5) {
      throw new IllegalArgumentException("not a claim line (pods, type, zone, capacity type, price): " + line);
    }
    return new Claim(Integer.parseInt(f[0]), f[1], f[2], f[3], Double.parseDouble(f[4]));
  }

  double pricePerHour() {
    return claims.stream().mapToDouble(Claim::pricePerHour).sum();
  }

  int pods() {
    return claims.stream().mapToInt(Claim::pods).sum();
  }

  /**
   * Fails unless every claim's price is what {@code catalog} asks for its type, in its zone and capacity type: the
   * check that Farrier's copy of Karpenter's catalogue prices as Karpenter's own does.
   */
  void checkPrices(Catalog catalog) {
    for (Claim c : claims) {
      double ours = catalog.types().stream().filter(t -> t.name().equals(c.instanceType()))
          .flatMap(t -> t.offerings().stream())
          .filter(o -> o.zone().equals(c.zone()) && o.capacityType().equals(c.capacityType()))
          .mapToDouble(o -> o.pricePerHour()).findFirst()
          .orElseThrow(() -> new IllegalStateException("the " + catalog.name() + " catalogue has no offering " + c));
      if (ours != c.pricePerHour()) {
        throw new IllegalStateException("the " + catalog.name() + " catalogue prices " + c + " at " + ours);
      }
    }
  }
}
