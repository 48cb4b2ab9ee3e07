package dev.farrier.localstack;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WatchdogTest {
  @TempDir
  Path dir;

  private final List<Process> started = new ArrayList<>();

  @AfterEach
  void killLeftovers() {
    for (Process process : started) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
    }
  }

  /** A shell that keeps a child: the watchdog must end both, not only the pid it was given. */
  private Process processTree() throws IOException, InterruptedException {
    Process process = new ProcessBuilder("bash", "-c", "sleep 300 & wait").start();
    started.add(process);
    while (process.descendants().findAny().isEmpty()) {
      TimeUnit.MILLISECONDS.sleep(20);
    }
    return process;
  }

  private static List<ProcessHandle> treeOf(Process process) {
    List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
    tree.add(process.toHandle());
    return tree;
  }

  @Test
  void endOfPipeStopsEveryGuardedTree() throws Exception {
    Process guarded = processTree();
    List<ProcessHandle> tree = treeOf(guarded);
    Watchdog watchdog = Watchdog.start(dir.resolve("watchdog.log"));
    watchdog.guard(guarded.pid());

    watchdog.close();

    assertTrue(ProcessAwait.allExited(tree, Duration.ofSeconds(30)), "still alive: " + ProcessAwait.alive(tree));
  }

  @Test
  void forgottenProcessesAreLeftAlone() throws Exception {
    Process forgotten = processTree();
    Watchdog watchdog = Watchdog.start(dir.resolve("watchdog.log"));
    watchdog.guard(forgotten.pid());
    watchdog.forget(forgotten.pid());

    watchdog.close();

    assertFalse(watchdog.isAlive());
    assertTrue(forgotten.isAlive());
  }

  @Test
  void ownerDeathStopsEveryGuardedTreeEvenWhileThePipeIsOpen() throws Exception {
    Process owner = new ProcessBuilder("sleep", "300").start();
    started.add(owner);
    Process guarded = processTree();
    List<ProcessHandle> tree = treeOf(guarded);
    Watchdog watchdog = Watchdog.start(owner.pid(), dir.resolve("watchdog.log"));
    watchdog.guard(guarded.pid());

    owner.destroyForcibly().waitFor();

    assertTrue(ProcessAwait.allExited(tree, Duration.ofSeconds(30)), "still alive: " + ProcessAwait.alive(tree));
    watchdog.close();
  }
}
