package dev.farrier.workflows.violation;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Deliberately breaks "workflows do no I/O" for RulesCatchViolationsTest; never part of a production jar. */
public final class WorkflowReadingAFile {
  public String settings() throws IOException {
    return Files.readString(Path.of("/etc/farrier.yaml"));
  }
}
