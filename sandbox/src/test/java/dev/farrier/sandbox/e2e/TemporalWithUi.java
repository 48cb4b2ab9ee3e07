package dev.farrier.sandbox.e2e;

import dev.farrier.localstack.LocalStack;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.worker.WorkerFactory;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A Temporal-only local stack with its Web UI on a free port, Farrier's search attributes, a client and a worker
 * running the given stand-in workflows on {@code taskQueue}: what the UI tests stand on.
 */
final class TemporalWithUi implements AutoCloseable {
  final LocalStack stack;
  final WorkflowClient client;
  private final WorkflowServiceStubs stubs;
  private final WorkerFactory workers;

  private TemporalWithUi(LocalStack stack, WorkflowServiceStubs stubs, WorkflowClient client, WorkerFactory workers) {
    this.stack = stack;
    this.stubs = stubs;
    this.client = client;
    this.workers = workers;
  }

  static TemporalWithUi start(Path runDir, String taskQueue, Class<?>... workflowTypes) throws IOException {
    var stack = LocalStack.builder().runDir(runDir.resolve("stack")).kubernetes(false).temporalUiPort(0)
        .searchAttributes(LocalStack.FARRIER_SEARCH_ATTRIBUTES).start();
    var stubs = WorkflowServiceStubs.newServiceStubs(
        WorkflowServiceStubsOptions.newBuilder().setTarget(stack.temporalAddress()).build());
    var client = WorkflowClient.newInstance(stubs);
    var workers = WorkerFactory.newInstance(client);
    workers.newWorker(taskQueue).registerWorkflowImplementationTypes(workflowTypes);
    workers.start();
    return new TemporalWithUi(stack, stubs, client, workers);
  }

  @Override
  public void close() {
    workers.shutdownNow();
    stubs.shutdownNow();
    stack.close();
  }
}
