package dev.farrier.localstack;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Runs a local stack until Ctrl-C, for developers: {@code LocalStackMain [--run-dir DIR] [--ui-port PORT]}.
 * Prints where the kubeconfig and Temporal are.
 */
public final class LocalStackMain {
  private LocalStackMain() {}

  public static void main(String[] args) throws InterruptedException {
    LocalStack.Builder builder = LocalStack.builder().searchAttributes(LocalStack.FARRIER_SEARCH_ATTRIBUTES);
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--run-dir" -> builder.runDir(Path.of(value(args, ++i)));
        case "--ui-port" -> builder.temporalUiPort(Integer.parseInt(value(args, ++i)));
        default -> {
          System.err.println("usage: LocalStackMain [--run-dir DIR] [--ui-port PORT]");
          System.exit(2);
        }
      }
    }
    LocalStack stack;
    try {
      stack = builder.start();
    } catch (LocalStackException e) {
      System.err.println("local stack failed to start: " + e.getMessage());
      System.exit(1);
      return;
    }
    System.out.printf("""
        Farrier local stack is up (%.1f s). Ctrl-C stops it.
          kubeconfig:  %s
                       kubectl --kubeconfig %s get nodes
          Temporal:    %s
          Temporal UI: %s
          logs:        %s
        """, stack.startupTime().toMillis() / 1000.0, stack.kubeconfig(), stack.kubeconfig(),
        stack.temporalAddress(), stack.temporalUiUrl(), stack.runDir().resolve("logs"));
    System.out.flush();
    // The stack's shutdown hook stops everything on Ctrl-C; this thread only has to stay alive until then.
    new CountDownLatch(1).await();
  }

  private static String value(String[] args, int index) {
    if (index >= args.length) {
      System.err.println("missing value for " + args[index - 1]);
      System.exit(2);
    }
    return args[index];
  }
}
