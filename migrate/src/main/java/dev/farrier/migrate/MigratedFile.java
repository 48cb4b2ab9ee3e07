package dev.farrier.migrate;

import java.util.List;

/**
 * The migration of one input.
 *
 * @param source   the input's name
 * @param text     the v1 manifests: the input itself, byte for byte, when nothing in it needed a change
 * @param changed  whether {@code text} differs from the input
 * @param findings what the report says about the objects of this input
 */
public record MigratedFile(String source, String text, boolean changed, List<Finding> findings) {
  public boolean needsPerson() {
    return findings.stream().anyMatch(f -> f.kind() == Finding.Kind.NEEDS_PERSON);
  }
}
