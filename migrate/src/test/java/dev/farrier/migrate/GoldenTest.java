package dev.farrier.migrate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The seeds' migrations, whole: the v1 manifests (comments, key order, styles) and the report, line for line, as
 * reviewed. A rule that stops writing its change or its line in the report shows here.
 */
class GoldenTest {
  @ParameterizedTest
  @ValueSource(strings = {"seed-002-provisioner", "seed-003-v1beta1", "mixed"})
  void manifestsAndReportAreAsReviewed(String seed) {
    var file = Migrator.migrate(List.of(new Source(seed + ".yaml", MigratorTest.resource(seed + ".yaml"))),
        new Migrator.Options("KarpenterNodeInstanceProfile-karpenter-demo")).getFirst();
    assertEquals(golden(seed + ".yaml"), file.text());
    assertEquals(golden(seed + ".yaml.migration.md"), Report.render(file));
  }

  private static String golden(String name) {
    return MigratorTest.resource("../golden/" + name);
  }
}
