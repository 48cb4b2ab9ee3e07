package dev.farrier.model;

/** The instance a NodeClaim got: what the launch activity wrote into the NodeClaim's status. */
public record LaunchedInstance(
    String nodeClaim,
    String instanceId,
    String providerId,
    String instanceType,
    String zone,
    String capacityType,
    String imageId,
    double pricePerHour) {}
