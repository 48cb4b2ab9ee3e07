package dev.farrier.architecture;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import dev.farrier.activities.drain.violation.DrainLaunchingANode;
import dev.farrier.activities.launch.NodeClaimActivitiesImpl;
import dev.farrier.activities.violation.ActivityTakingTheWholeCluster;
import dev.farrier.architecture.violations.a.CallsB;
import dev.farrier.architecture.violations.b.CallsA;
import dev.farrier.model.violation.ModelNamingAWorkflow;
import dev.farrier.planner.violation.PlannerCallingTemporal;
import dev.farrier.workflows.violation.WorkflowReadingAFile;
import org.junit.jupiter.api.Test;

/**
 * Each rule of {@link FarrierRules} fails on a class written to break it (this module's test sources, never in a
 * production jar), naming it; {@link ArchitectureTest} shows them passing on Farrier's own classes. A rule that cannot fail
 * guards nothing.
 */
class RulesCatchViolationsTest {
  @Test
  void aPackageCycleIsCaught() {
    assertCaught(FarrierRules.NO_PACKAGE_CYCLES, "violations.a", CallsB.class, CallsA.class);
  }

  @Test
  void aWorkflowClassReadingAFileIsCaught() {
    assertCaught(FarrierRules.WORKFLOWS_DO_NO_IO, WorkflowReadingAFile.class.getName(), WorkflowReadingAFile.class);
  }

  @Test
  void aPlannerClassCallingTemporalIsCaught() {
    assertCaught(FarrierRules.PLANNER_IS_PURE, PlannerCallingTemporal.class.getName(), PlannerCallingTemporal.class);
  }

  @Test
  void aModelRecordNamingWorkflowCodeIsCaught() {
    assertCaught(FarrierRules.MODEL_IS_PLAIN_RECORDS, ModelNamingAWorkflow.class.getName(), ModelNamingAWorkflow.class);
  }

  @Test
  void anActivityTakingTheWholeClusterIsCaught() {
    assertCaught(FarrierRules.ONLY_THE_ROOT_TAKES_THE_WHOLE_CLUSTER, ActivityTakingTheWholeCluster.class.getName(),
        ActivityTakingTheWholeCluster.class);
  }

  @Test
  void aUseCaseReachingIntoAnotherIsCaught() {
    assertCaught(FarrierRules.USE_CASES_STAY_APART, DrainLaunchingANode.class.getName(), DrainLaunchingANode.class,
        NodeClaimActivitiesImpl.class);
  }

  private static void assertCaught(ArchRule rule, String named, Class<?>... breaking) {
    var failure = assertThrows(AssertionError.class, () -> rule.check(classes(breaking)), rule.getDescription());
    assertTrue(failure.getMessage().contains(named), failure.getMessage());
  }

  private static JavaClasses classes(Class<?>... classes) {
    return new ClassFileImporter().importClasses(classes);
  }
}
