package dev.farrier.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** docs/reference/cli.md is what the commands' own help says, so the reference cannot drift from the code. */
class CliReferenceTest {
  static final Path PAGE = Path.of("..", "docs", "reference", "cli.md");

  @Test
  void theCliReferenceIsTheCommandsOwnHelp() throws IOException, InterruptedException {
    String java = ProcessHandle.current().info().command().orElseThrow();
    var builder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), CliReference.class.getName());
    builder.environment().keySet().removeIf(name -> name.startsWith("FARRIER_") || name.equals("USER"));
    builder.redirectErrorStream(true);
    Process process = builder.start();
    String page = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the generator ended");
    assertEquals(0, process.exitValue(), page);
    assertTrue(page.contains("## farrier upgrade status") && page.contains("--temporal-api-key-file"), page);
    Path generated = Path.of("target", "cli.md");
    Files.writeString(generated, page);
    assertEquals(page, Files.exists(PAGE) ? Files.readString(PAGE) : "",
        "docs/reference/cli.md is out of date: cp starter/target/cli.md docs/reference/cli.md");
  }
}
