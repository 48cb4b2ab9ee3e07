package dev.farrier.localstack;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One component process: its output goes to {@code logs/<name>.log}, and {@link #stop} ends it together with every
 * process it started.
 */
final class ManagedProcess {
  private static final Logger log = LoggerFactory.getLogger(ManagedProcess.class);

  private final String name;
  private final Process process;
  private final Path logFile;

  private ManagedProcess(String name, Process process, Path logFile) {
    this.name = name;
    this.process = process;
    this.logFile = logFile;
  }

  static ManagedProcess start(String name, List<String> command, Path logFile, Map<String, String> environment) {
    try {
      Files.createDirectories(logFile.getParent());
      ProcessBuilder builder = new ProcessBuilder(command)
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
          .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
      builder.environment().putAll(environment);
      Files.writeString(logFile, "# " + String.join(" ", command) + "\n", StandardCharsets.UTF_8,
          java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
      Process process = builder.start();
      log.info("component started component={} pid={} log={}", name, process.pid(), logFile);
      return new ManagedProcess(name, process, logFile);
    } catch (IOException e) {
      throw new LocalStackException(name, "cannot start " + command.getFirst(), e);
    }
  }

  String name() {
    return name;
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** The exit code, or -1 while the process runs. */
  int exitCode() {
    return process.isAlive() ? -1 : process.exitValue();
  }

  /** This process and its live descendants, the set {@link #stop} ends. */
  List<ProcessHandle> tree() {
    List<ProcessHandle> handles = new ArrayList<>();
    handles.add(process.toHandle());
    try (Stream<ProcessHandle> descendants = process.descendants()) {
      descendants.forEach(handles::add);
    }
    return handles;
  }

  /**
   * Sends SIGTERM to the process and its descendants, waits up to {@code grace} for all of them, then SIGKILLs the
   * survivors and waits for them too. The descendants are captured before the signal because they are reparented
   * (and no longer listed) once their parent exits.
   */
  void stop(Duration grace) {
    List<ProcessHandle> tree = tree();
    tree.forEach(ProcessHandle::destroy);
    if (!awaitExit(tree, grace)) {
      log.warn("component ignored SIGTERM, killing component={} pid={} grace={}", name, pid(), grace);
      tree.forEach(ProcessHandle::destroyForcibly);
      if (!awaitExit(tree, Duration.ofSeconds(10))) {
        throw new LocalStackException(name, "process tree survived SIGKILL: " + tree.stream()
            .filter(ProcessHandle::isAlive).map(h -> Long.toString(h.pid())).toList(), "");
      }
    }
    log.info("component stopped component={} pid={} exitCode={}", name, pid(), reapedExitCode());
  }

  /** SIGKILL to the process and its descendants, as a crash or the OOM killer ends it; waits until they are gone. */
  void kill() {
    List<ProcessHandle> tree = tree();
    tree.forEach(ProcessHandle::destroyForcibly);
    if (!awaitExit(tree, Duration.ofSeconds(10))) {
      throw new LocalStackException(name, "process tree survived SIGKILL", "");
    }
    log.info("component killed component={} pid={}", name, pid());
  }

  /**
   * Sends {@code signal} ({@code STOP} or {@code CONT}) to the process and its descendants with the system's
   * {@code kill}: a stopped server keeps its sockets open and answers nothing, as a hung or partitioned one looks to
   * its clients.
   */
  void signal(String signal) {
    List<String> command = new ArrayList<>(List.of("kill", "-" + signal));
    tree().forEach(h -> command.add(Long.toString(h.pid())));
    CommandLine.Result result;
    try {
      result = CommandLine.run(command, Duration.ofSeconds(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LocalStackException(name, "interrupted while sending SIG" + signal, e);
    }
    if (!result.succeeded()) {
      throw new LocalStackException(name, "kill -" + signal + " failed: " + result.output(), "");
    }
    log.info("component signalled component={} pid={} signal={}", name, pid(), signal);
  }

  /**
   * The exit code once the JDK has reaped the process. The tree's {@code onExit} can complete a moment before the
   * {@link Process} object records its own exit, and {@code exitValue()} then throws though the process is gone.
   */
  private String reapedExitCode() {
    try {
      return process.waitFor(5, TimeUnit.SECONDS) ? Integer.toString(process.exitValue()) : "not reaped yet";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown (interrupted)";
    }
  }

  private static boolean awaitExit(List<ProcessHandle> tree, Duration timeout) {
    CompletableFuture<?>[] exits = tree.stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new);
    try {
      CompletableFuture.allOf(exits).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return tree.stream().noneMatch(ProcessHandle::isAlive);
    } catch (java.util.concurrent.ExecutionException e) {
      return tree.stream().noneMatch(ProcessHandle::isAlive);
    }
  }

  /** The last {@code lines} lines of the log, read from its end so a large log costs nothing. */
  String logTail(int lines) {
    return tail(logFile, lines);
  }

  static String tail(Path file, int lines) {
    if (!Files.exists(file)) {
      return "";
    }
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
      long length = raf.length();
      int chunk = (int) Math.min(length, 64 * 1024L);
      byte[] bytes = new byte[chunk];
      raf.seek(length - chunk);
      raf.readFully(bytes);
      String text = new String(bytes, StandardCharsets.UTF_8);
      String[] all = text.split("\n");
      int from = Math.max(0, all.length - lines);
      return String.join("\n", java.util.Arrays.copyOfRange(all, from, all.length));
    } catch (IOException e) {
      return "(cannot read " + file + ": " + e.getMessage() + ")";
    }
  }
}
