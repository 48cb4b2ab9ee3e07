package dev.farrier.activities.cloud.aws;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.model.DescribeSpotPriceHistoryResponse;
import software.amazon.awssdk.services.ec2.model.SpotPrice;

/** Current spot prices from DescribeSpotPriceHistory: the latest Linux/UNIX price per (instance type, zone). */
public final class SpotPrices {
  /** Instance type and zone. */
  public record Key(String instanceType, String zone) {}

  private final Ec2Api ec2;
  private final Clock clock;

  public SpotPrices(Ec2Api ec2, Clock clock) {
    this.ec2 = ec2;
    this.clock = clock;
  }

  /** Asking from "now" makes EC2 return the price in effect now for every type and zone (one entry each, or more). */
  public Map<Key, Double> fetch() {
    Instant now = clock.instant();
    List<SpotPrice> history = new ArrayList<>();
    String token = null;
    do {
      String next = token;
      DescribeSpotPriceHistoryResponse page;
      try {
        page = ec2.describeSpotPriceHistory(b -> b.startTime(now).productDescriptions("Linux/UNIX", "Linux/UNIX (Amazon VPC)")
            .maxResults(1000).nextToken(next));
      } catch (SdkException e) {
        throw Ec2Errors.map("DescribeSpotPriceHistory", e);
      }
      history.addAll(page.spotPriceHistory());
      token = page.nextToken();
    } while (token != null && !token.isEmpty());
    return latest(history);
  }

  /** The newest entry per (type, zone); entries without a parseable price are skipped. */
  public static Map<Key, Double> latest(List<SpotPrice> history) {
    Map<Key, SpotPrice> newest = new HashMap<>();
    for (SpotPrice p : history) {
      if (p.instanceTypeAsString() == null || p.availabilityZone() == null || p.spotPrice() == null) {
        continue;
      }
      newest.merge(new Key(p.instanceTypeAsString(), p.availabilityZone()), p, (a, b) ->
          b.timestamp() != null && (a.timestamp() == null || b.timestamp().isAfter(a.timestamp())) ? b : a);
    }
    Map<Key, Double> prices = new HashMap<>();
    newest.forEach((k, p) -> {
      try {
        prices.put(k, Double.parseDouble(p.spotPrice()));
      } catch (NumberFormatException e) {
        // A malformed price makes the offering unpriceable; leaving it out is safer than guessing.
      }
    });
    return prices;
  }
}
