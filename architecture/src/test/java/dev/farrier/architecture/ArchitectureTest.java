package dev.farrier.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every module's production classes against {@link FarrierRules}: no test classes, no test jars (the bench's class path
 * has the workflows' test jar), no classes Micronaut generates ({@code $Name$Definition}: they name every bean type).
 */
class ArchitectureTest {
  private static final Pattern MICRONAUT_GENERATED = Pattern.compile(".*/\\$[^/]*\\.class");
  private static JavaClasses production;

  @BeforeAll
  static void importProduction() {
    production = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TEST_FIXTURES)
        .withImportOption(location -> !location.contains("-tests.jar"))
        .withImportOption(location -> !location.matches(MICRONAUT_GENERATED))
        .importPackages("dev.farrier");
  }

  @Test
  void noPackageCycles() {
    FarrierRules.NO_PACKAGE_CYCLES.check(production);
  }

  @Test
  void workflowsDoNoIo() {
    FarrierRules.WORKFLOWS_DO_NO_IO.check(production);
  }

  @Test
  void thePlannerIsPure() {
    FarrierRules.PLANNER_IS_PURE.check(production);
  }

  @Test
  void theModelIsPlainRecords() {
    FarrierRules.MODEL_IS_PLAIN_RECORDS.check(production);
  }

  @Test
  void onlyTheCompositionRootTakesTheWholeCluster() {
    FarrierRules.ONLY_THE_ROOT_TAKES_THE_WHOLE_CLUSTER.check(production);
  }

  @Test
  void theActivitiesUseCasesStayApart() {
    FarrierRules.USE_CASES_STAY_APART.check(production);
  }
}
