package dev.farrier.activities.cloud.simulated;

/** One offering of the simulated cloud: an instance type in a zone with a capacity type (on-demand, spot). */
public record OfferingKey(String instanceType, String zone, String capacityType) {}
