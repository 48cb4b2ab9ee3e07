package dev.farrier.activities.cloud.aws;

import dev.farrier.activities.cloud.CsvResource;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * On-demand Linux prices per instance type for one region, from the table Farrier ships
 * ({@code ec2/on-demand-prices.csv}, columns {@code name,region,usd_per_hour}) or from an operator's file in the same
 * format (so prices can be refreshed without a new build; the file is re-read at every catalogue refresh).
 */
public final class OnDemandPrices {
  public static final String SHIPPED = "ec2/on-demand-prices.csv";

  private OnDemandPrices() {}

  /** Instance type -> USD per hour; throws {@link IllegalArgumentException} when the table has no price for the region. */
  public static Map<String, Double> load(String region, Path file) {
    List<Map<String, String>> rows = file == null ? CsvResource.read(SHIPPED) : CsvResource.read(file);
    Map<String, Double> prices = new HashMap<>();
    for (Map<String, String> row : rows) {
      if (region.equals(row.get("region"))) {
        prices.put(row.get("name"), Double.parseDouble(row.get("usd_per_hour")));
      }
    }
    if (prices.isEmpty()) {
      throw new IllegalArgumentException("the on-demand price table " + (file == null ? SHIPPED : file) + " has no prices for region " + region);
    }
    return prices;
  }
}
