package dev.farrier.migrate;

/**
 * One input of a migration.
 *
 * @param name the name reports use ({@code manifests/karpenter.yaml}, {@code -}, {@code cluster})
 * @param text its YAML, one or more documents
 */
public record Source(String name, String text) {}
