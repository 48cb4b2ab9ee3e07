package dev.farrier.model;

/** A pod toleration; operator Equal (default) or Exists; empty effect tolerates every effect. */
public record Toleration(String key, String operator, String value, String effect) {}
