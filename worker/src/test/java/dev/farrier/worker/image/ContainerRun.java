package dev.farrier.worker.image;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * An image's entrypoint run in its unpacked root as a container runtime would, with no container engine: util-linux
 * {@code unshare} makes a user namespace in which this machine's user is the image's user (65532, so no root
 * inside and no privilege needed outside), a mount and a PID namespace with a fresh /proc, changes root into the
 * unpacked image and its working directory, and runs the entrypoint with the image's environment plus the test's.
 * The network namespace is this machine's, so the test reaches the ports the process opens on 127.0.0.1. The root
 * must have a /proc directory to mount on (the JVM finds its home through /proc/self/exe).
 */
final class ContainerRun implements AutoCloseable {
  private final Process process;
  private final Path log;

  private ContainerRun(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  static ContainerRun start(Path root, JsonNode config, Map<String, String> env, Path log) throws IOException {
    String[] user = config.path("User").asText("0").split(":", 2);
    List<String> command = new ArrayList<>(List.of(unshare(), "--user", "--map-user=" + user[0],
        "--map-group=" + (user.length > 1 ? user[1] : user[0]), "--mount", "--pid", "--fork", "--kill-child",
        "--mount-proc=/proc", "--root=" + root, "--wd=" + config.path("WorkingDir").asText("/")));
    config.path("Entrypoint").forEach(arg -> command.add(arg.asText()));
    config.path("Cmd").forEach(arg -> command.add(arg.asText()));
    var builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().clear();
    config.path("Env").forEach(entry -> {
      String[] pair = entry.asText().split("=", 2);
      builder.environment().put(pair[0], pair.length > 1 ? pair[1] : "");
    });
    builder.environment().putAll(env);
    return new ContainerRun(builder.start(), log);
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** The exit code, once the process ended within {@code bound}; else fails the test with what it printed. */
  int exitCode(Duration bound) throws InterruptedException, IOException {
    if (!process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError("still running after " + bound + "; its output:\n" + output());
    }
    return process.exitValue();
  }

  String output() throws IOException {
    return Files.readString(log);
  }

  /** Kills the process tree: the entrypoint's process inside the namespace and unshare outside it. */
  @Override
  public void close() throws InterruptedException {
    try (Stream<ProcessHandle> descendants = process.descendants()) {
      descendants.forEach(ProcessHandle::destroyForcibly);
    }
    process.destroyForcibly().waitFor();
  }

  private static String unshare() {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
      Path candidate = Path.of(dir, "unshare");
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    throw new IllegalStateException("running the image needs util-linux's unshare on PATH (Debian package util-linux)");
  }
}
