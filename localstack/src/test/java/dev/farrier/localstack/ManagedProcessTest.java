package dev.farrier.localstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManagedProcessTest {
  @TempDir
  Path dir;

  @Test
  void stopKillsATreeThatIgnoresSigterm() throws Exception {
    // Ignored signals stay ignored across exec, so the sleep child ignores SIGTERM too.
    ManagedProcess process = ManagedProcess.start("stubborn",
        List.of("bash", "-c", "trap '' TERM; echo started; sleep 300 & wait; wait"), dir.resolve("stubborn.log"), Map.of());
    while (process.tree().size() < 2) {
      TimeUnit.MILLISECONDS.sleep(20);
    }
    List<ProcessHandle> tree = process.tree();

    process.stop(Duration.ofMillis(500));

    assertTrue(tree.stream().noneMatch(ProcessHandle::isAlive), "still alive: " + ProcessAwait.alive(tree));
    assertFalse(process.isAlive());
  }

  @Test
  void logHoldsTheCommandLineAndOutputAndTailReturnsTheLastLines() throws Exception {
    ManagedProcess process = ManagedProcess.start("counter",
        List.of("bash", "-c", "for i in $(seq 1 100); do echo line $i; done; echo oops >&2; exit 3"),
        dir.resolve("counter.log"), Map.of());
    while (process.isAlive()) {
      TimeUnit.MILLISECONDS.sleep(20);
    }

    assertEquals(3, process.exitCode());
    assertTrue(Files.readString(dir.resolve("counter.log")).startsWith("# bash -c "));
    assertEquals("line 99\nline 100\noops", process.logTail(3));
  }
}
