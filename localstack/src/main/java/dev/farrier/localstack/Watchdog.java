package dev.farrier.localstack;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A tiny bash process that ends the stack's components when the JVM that started them dies without running its
 * shutdown hooks (kill -9, OOM kill, a crashed test fork).
 *
 * <p>The JVM tells it which component pids to guard over its stdin ({@code +pid} / {@code -pid} lines). The
 * watchdog notices the owner is gone in two ways: its stdin reaches end of file (the kernel closes the pipe when
 * the JVM dies, whatever the signal), or the owner pid stops answering {@code kill -0} (checked every second, in
 * case some other process inherited the pipe). It then sends SIGTERM to every guarded pid and its descendants,
 * and SIGKILL to whatever is left after five seconds. It ignores SIGINT and SIGHUP so Ctrl-C in a terminal, which
 * reaches the whole process group, does not take it down before the JVM's shutdown hook has run.
 *
 * <p>A normal {@link LocalStack#close()} stops the components itself, forgets their pids here, and closes the
 * pipe; the watchdog then has nothing to kill and exits.
 */
final class Watchdog implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Watchdog.class);

  static final String SCRIPT = """
      owner=$1
      trap '' INT HUP
      guarded=" "
      while :; do
        if IFS= read -r -t 1 line; then
          case "$line" in
            +*) guarded="$guarded${line#+} " ;;
            -*) guarded="${guarded/ ${line#-} / }" ;;
          esac
        elif [ $? -gt 128 ]; then
          kill -0 "$owner" 2>/dev/null || break
        else
          break
        fi
      done
      tree() { for child in $(pgrep -P "$1" 2>/dev/null); do tree "$child"; done; echo "$1"; }
      victims=""
      for pid in $guarded; do victims="$victims $(tree "$pid")"; done
      [ -z "${victims// /}" ] && exit 0
      echo "watchdog: owner $owner is gone, stopping:$victims"
      kill -TERM $victims 2>/dev/null
      for _ in 1 2 3 4 5 6 7 8 9 10; do
        alive=""
        for pid in $victims; do kill -0 "$pid" 2>/dev/null && alive="$alive $pid"; done
        [ -z "$alive" ] && exit 0
        sleep 0.5
      done
      echo "watchdog: killing:$alive"
      kill -KILL $alive 2>/dev/null
      exit 0
      """;

  private final Process process;
  private final OutputStream commands;

  private Watchdog(Process process) {
    this.process = process;
    this.commands = process.getOutputStream();
  }

  /** Starts a watchdog guarding for the current JVM. */
  static Watchdog start(Path logFile) {
    return start(ProcessHandle.current().pid(), logFile);
  }

  /** Starts a watchdog guarding for {@code ownerPid}; tests use a stand-in owner. */
  static Watchdog start(long ownerPid, Path logFile) {
    try {
      Files.createDirectories(logFile.getParent());
      Process process = new ProcessBuilder(List.of("bash", "-c", SCRIPT, "farrier-watchdog", Long.toString(ownerPid)))
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
          .start();
      log.info("watchdog started pid={} owner={}", process.pid(), ownerPid);
      return new Watchdog(process);
    } catch (IOException e) {
      throw new LocalStackException("watchdog", "cannot start bash", e);
    }
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  synchronized void guard(long pid) {
    send("+" + pid);
  }

  synchronized void forget(long pid) {
    send("-" + pid);
  }

  private void send(String line) {
    try {
      commands.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
      commands.flush();
    } catch (IOException e) {
      throw new LocalStackException("watchdog", "watchdog pid " + process.pid() + " no longer reads its pipe", e);
    }
  }

  /**
   * Closes the pipe, which the watchdog treats like the owner's death: anything still guarded is stopped. Callers
   * forget the pids they stopped themselves first.
   */
  @Override
  public synchronized void close() {
    try {
      commands.close();
    } catch (IOException e) {
      log.debug("watchdog pipe already closed pid={}", process.pid());
    }
    try {
      if (!process.waitFor(15, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
