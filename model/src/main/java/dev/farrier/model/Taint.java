package dev.farrier.model;

/** A node taint; {@code value} may be empty. */
public record Taint(String key, String value, String effect) {}
