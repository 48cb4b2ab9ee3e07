package dev.farrier.worker;

import io.micronaut.context.ApplicationContext;
import java.util.concurrent.CountDownLatch;

/** The process users run in-cluster: {@code java -cp ... dev.farrier.worker.WorkerMain}. */
public final class WorkerMain {
  private WorkerMain() {}

  public static void main(String[] args) throws InterruptedException {
    ApplicationContext context;
    FarrierWorker worker;
    try {
      context = ApplicationContext.run();
      // The settings are checked when the worker's bean is made: a bad one must end here too, not in a stack trace.
      worker = context.getBean(FarrierWorker.class);
    } catch (RuntimeException e) {
      System.err.println("farrier worker: cannot start: " + rootMessage(e));
      System.exit(2);
      return;
    }
    var stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      worker.close();
      context.close();
      stopped.countDown();
    }, "farrier-shutdown"));
    worker.start();
    stopped.await();
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }
}
