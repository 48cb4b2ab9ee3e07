package dev.farrier.catalog;

/** Prices a spot offering; the catalogue has only on-demand prices (EC2 publishes spot prices only at run time). */
@FunctionalInterface
public interface SpotPricer {
  double spotPrice(String instanceType, String zone, double onDemandPricePerHour);
}
