package dev.farrier.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityOptions;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The worker's options put workflow code on virtual threads (a burst of launches otherwise holds a platform thread, its
 * stack outside the heap, per cached workflow) and keep activities on platform threads, where their CPU-bound work does
 * not take the carrier threads workflow tasks run on.
 */
class VirtualThreadsTest {
  private static final String QUEUE = "virtual-threads";

  @WorkflowInterface
  public interface Where {
    @WorkflowMethod
    String run();
  }

  @ActivityInterface
  public interface Here {
    boolean virtual();
  }

  public static final class WhereImpl implements Where {
    @Override
    public String run() {
      boolean workflow = Thread.currentThread().isVirtual();
      boolean activity = Workflow.newActivityStub(Here.class,
          ActivityOptions.newBuilder().setStartToCloseTimeout(Duration.ofSeconds(10)).build()).virtual();
      return "workflow " + workflow + ", activity " + activity;
    }
  }

  public static final class HereImpl implements Here {
    @Override
    public boolean virtual() {
      return Thread.currentThread().isVirtual();
    }
  }

  @Test
  void workflowsRunOnVirtualThreadsAndActivitiesOnPlatformThreads() {
    try (var env = TestWorkflowEnvironment.newInstance(
        TestEnvironmentOptions.newBuilder().setWorkerFactoryOptions(TemporalWorkerFactory.FACTORY_OPTIONS).build())) {
      var worker = env.newWorker(QUEUE, TemporalWorkerFactory.WORKER_OPTIONS);
      worker.registerWorkflowImplementationTypes(WhereImpl.class);
      worker.registerActivitiesImplementations(new HereImpl());
      env.start();
      String where = env.getWorkflowClient()
          .newWorkflowStub(Where.class, WorkflowOptions.newBuilder().setTaskQueue(QUEUE).build()).run();
      assertEquals("workflow true, activity false", where);
    }
  }
}
