package dev.farrier.activities.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/reference/crds.md is what deploy/crds says, so the reference cannot drift from the schemas. */
class CrdReferenceTest {
  @Test
  void theCrdReferenceIsWhatTheSchemasSay() throws IOException {
    String page = CrdReference.render(CompatibilityTest.ROOT.resolve("deploy").resolve("crds"));
    assertTrue(page.contains("## EC2NodeClass") && page.contains("| `spec.disruption.budgets[].schedule` | string |"), page);
    Path generated = Path.of("target", "crds.md");
    Files.createDirectories(generated.getParent());
    Files.writeString(generated, page);
    Path checkedIn = CompatibilityTest.ROOT.resolve("docs").resolve("reference").resolve("crds.md");
    assertEquals(page, Files.exists(checkedIn) ? Files.readString(checkedIn) : "",
        "docs/reference/crds.md is out of date: cp activities/target/crds.md docs/reference/crds.md");
  }
}
