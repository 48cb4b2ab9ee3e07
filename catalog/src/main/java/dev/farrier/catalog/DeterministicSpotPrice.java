package dev.farrier.catalog;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The simulated spot price: a fixed fraction of the on-demand price per (instance type, zone), so the same type is
 * cheaper in some zones than in others, and every run, process and test sees the same numbers.
 *
 * <p>Rule: take the first four bytes of SHA-256 of {@code "<instance-type>/<zone>"} (UTF-8) as an unsigned 32-bit
 * integer {@code h}; {@code fraction = 0.30 + 0.40 * h / 2^32}, so {@code 0.30 <= fraction < 0.70}; the spot price
 * is {@code onDemand * fraction} rounded half-up to 6 decimal places (EC2 quotes spot prices to 6 places).
 */
public final class DeterministicSpotPrice implements SpotPricer {
  public static final double MIN_FRACTION = 0.30;
  public static final double MAX_FRACTION = 0.70;

  @Override
  public double spotPrice(String instanceType, String zone, double onDemandPricePerHour) {
    double price = onDemandPricePerHour * fraction(instanceType, zone);
    return Math.round(price * 1_000_000d) / 1_000_000d;
  }

  /** The fraction of on-demand a spot offering costs, in [0.30, 0.70). */
  public static double fraction(String instanceType, String zone) {
    byte[] digest = sha256(instanceType + "/" + zone);
    long h = ((digest[0] & 0xFFL) << 24) | ((digest[1] & 0xFFL) << 16) | ((digest[2] & 0xFFL) << 8) | (digest[3] & 0xFFL);
    return MIN_FRACTION + (MAX_FRACTION - MIN_FRACTION) * (h / 4_294_967_296d);
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK ships SHA-256", e);
    }
  }
}
