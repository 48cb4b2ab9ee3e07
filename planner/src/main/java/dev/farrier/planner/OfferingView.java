package dev.farrier.planner;

/**
 * Where and how an instance type can be bought: zone, capacity type ({@code on-demand}, {@code spot}, {@code reserved}),
 * price.
 *
 * @param reservation the capacity reservation a {@code reserved} offering launches into; null for any other
 */
public record OfferingView(String zone, String capacityType, double pricePerHour, boolean available, Reservation reservation) {
  public OfferingView(String zone, String capacityType, double pricePerHour, boolean available) {
    this(zone, capacityType, pricePerHour, available, null);
  }

  /**
   * A capacity reservation behind a {@code reserved} offering: what its node is labelled with, and how many instances
   * it can still take ({@link ReservationLedger} plans no more claims into it than that).
   *
   * @param type          {@code default} or {@code capacity-block}
   * @param capacity      the instances it can still take
   */
  public record Reservation(String id, String type, boolean interruptible, int capacity) {}
}
