package dev.farrier.migrate;

import java.util.List;

/** The input cannot be migrated as it stands; nothing was produced. Each problem names its object, field and line. */
public final class MigrationException extends RuntimeException {
  private final List<String> problems;

  public MigrationException(List<String> problems) {
    super(String.join("\n", problems), null, false, false);
    this.problems = List.copyOf(problems);
  }

  public List<String> problems() {
    return problems;
  }
}
