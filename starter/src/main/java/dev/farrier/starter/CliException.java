package dev.farrier.starter;

/** A failure the CLI explains itself: printed as {@code farrier: <message>}, exiting with {@link #exitCode()}. */
final class CliException extends RuntimeException {
  private final int exitCode;

  CliException(int exitCode, String message) {
    super(message, null, false, false);
    this.exitCode = exitCode;
  }

  int exitCode() {
    return exitCode;
  }
}
