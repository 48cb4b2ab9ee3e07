package dev.farrier.workflows.activities;

/** An offering (instance type x zone x capacity type) the cloud just took back, so launches avoid it for a while. */
public record MarkUnavailableRequest(String instanceType, String zone, String capacityType, String reason) {}
