package dev.farrier.localstack;

import java.nio.file.Path;
import java.util.stream.Collectors;

/**
 * Child-JVM entry point for {@link LocalStackLifecycleIT}: starts a Temporal-only stack in {@code args[0]}, prints
 * {@code READY <pid> <pid> ...} (components and watchdog) and waits to be killed.
 */
public final class HeldStackMain {
  private HeldStackMain() {}

  public static void main(String[] args) throws InterruptedException {
    LocalStack stack = LocalStack.builder().kubernetes(false).temporalUiPort(0).runDir(Path.of(args[0])).start();
    System.out.println("READY " + stack.processTree().stream()
        .map(handle -> Long.toString(handle.pid())).collect(Collectors.joining(" ")));
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
