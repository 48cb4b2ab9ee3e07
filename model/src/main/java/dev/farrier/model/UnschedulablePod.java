package dev.farrier.model;

/** A pending pod no NodePool can take, with the reason (which constraint excluded which NodePool). */
public record UnschedulablePod(PodRef pod, String reason) {}
