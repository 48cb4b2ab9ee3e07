package dev.farrier.activities.cloud.aws;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Offerings (instance type, zone, capacity type) that recently failed for lack of capacity, remembered for
 * {@link #DEFAULT_TTL} as Karpenter does, so the next launch asks EC2 for other offerings instead of the same
 * empty pool. In memory only: after a worker restart EC2 is simply asked again.
 */
public final class UnavailableOfferings {
  /** Karpenter's UnavailableOfferingsTTL. */
  public static final Duration DEFAULT_TTL = Duration.ofMinutes(3);
  private static final Logger log = LoggerFactory.getLogger(UnavailableOfferings.class);

  private record Key(String instanceType, String zone, String capacityType) {}

  private final Map<Key, Instant> until = new ConcurrentHashMap<>();
  private final Clock clock;
  private final Duration ttl;

  public UnavailableOfferings(Clock clock, Duration ttl) {
    this.clock = clock;
    this.ttl = ttl;
  }

  public UnavailableOfferings(Clock clock) {
    this(clock, DEFAULT_TTL);
  }

  /** Idempotent: marking again only moves the expiry forward. */
  public void mark(String instanceType, String zone, String capacityType, String reason) {
    Instant expiry = clock.instant().plus(ttl);
    until.put(new Key(instanceType, zone, capacityType), expiry);
    log.info("offering unavailable instanceType={} zone={} capacityType={} reason={} until={}", instanceType, zone,
        capacityType, reason, expiry);
  }

  public boolean isUnavailable(String instanceType, String zone, String capacityType) {
    Key key = new Key(instanceType, zone, capacityType);
    Instant expiry = until.get(key);
    if (expiry == null) {
      return false;
    }
    if (!clock.instant().isBefore(expiry)) {
      until.remove(key, expiry);
      return false;
    }
    return true;
  }
}
