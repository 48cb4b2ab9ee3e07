package dev.farrier.activities.cloud;

/** Where and how an instance type can be bought: zone, capacity type (on-demand, spot), price, availability now. */
public record Offering(String zone, String capacityType, double pricePerHour, boolean available) {}
