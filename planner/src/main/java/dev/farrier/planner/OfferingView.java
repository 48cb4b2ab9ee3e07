package dev.farrier.planner;

/** Where and how an instance type can be bought: zone, capacity type ({@code on-demand}, {@code spot}), price. */
public record OfferingView(String zone, String capacityType, double pricePerHour, boolean available) {}
