package dev.farrier.activities.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.compat.CompatibilityRows.Row;
import dev.farrier.localstack.LocalStack;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Drop-in means every field: each field of Karpenter's CRDs (the releases tools/install.sh upstream-crds downloads)
 * is in Farrier's CRDs and has a row in docs/compatibility.yaml that says it works (naming a test that exists) or is
 * refused (by a rule of Farrier's CRD whose message names it; CompatibilityRefusalsIT sends each to an API server).
 * docs/COMPATIBILITY.md is generated from the rows.
 */
class CompatibilityTest {
  static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  static final Path UPSTREAM = LocalStack.defaultBinDir().getParent().resolve("karpenter-upstream-crds");
  static final Path PAGE = ROOT.resolve("docs").resolve("COMPATIBILITY.md");
  /** Kind -> CRD file; the AWS provider ships the karpenter.sh CRDs its chart installs, core ships its own copies. */
  static final Map<String, String> FILES = new LinkedHashMap<>();

  static {
    FILES.put("NodePool", "karpenter.sh_nodepools.yaml");
    FILES.put("NodeClaim", "karpenter.sh_nodeclaims.yaml");
    FILES.put("EC2NodeClass", "karpenter.k8s.aws_ec2nodeclasses.yaml");
    FILES.put("NodeOverlay", "karpenter.sh_nodeoverlays.yaml");
  }

  private final CompatibilityRows rows = CompatibilityRows.read(ROOT.resolve("docs").resolve("compatibility.yaml"));

  static CrdFields upstream(String kind) {
    Path file = UPSTREAM.resolve("aws").resolve(FILES.get(kind));
    assertTrue(Files.isRegularFile(file), file + " is missing: run tools/install.sh upstream-crds (make test does)");
    return CrdFields.read(file);
  }

  static CrdFields farrier(String kind) {
    return CrdFields.read(ROOT.resolve("deploy").resolve("crds").resolve(FILES.get(kind)));
  }

  @Test
  void everyUpstreamFieldIsInFarriersCrds() {
    List<String> missing = new ArrayList<>();
    for (String kind : FILES.keySet()) {
      var ours = farrier(kind).byPath().keySet();
      List<Path> copies = new ArrayList<>(List.of(UPSTREAM.resolve("aws").resolve(FILES.get(kind))));
      if (Files.isRegularFile(UPSTREAM.resolve("core").resolve(FILES.get(kind)))) {
        copies.add(UPSTREAM.resolve("core").resolve(FILES.get(kind)));
      }
      for (Path copy : copies) {
        CrdFields.read(copy).byPath().keySet().stream().filter(p -> !ours.contains(p))
            .forEach(p -> missing.add(kind + " " + p + " (" + UPSTREAM.relativize(copy) + ")"));
      }
    }
    assertEquals(List.of(), missing, "fields of Karpenter's CRDs that Farrier's CRDs (deploy/crds) lack");
  }

  @Test
  void everyUpstreamFieldHasARowAndEveryRowAField() {
    List<String> problems = new ArrayList<>();
    for (String kind : FILES.keySet()) {
      CrdFields fields = upstream(kind);
      fields.byPath().keySet().stream().filter(p -> !fields.isGroup(p) && rows.covering(kind, p).isEmpty())
          .forEach(p -> problems.add(kind + " " + p + ": no row (nor one for a field above it)"));
      rows.rows(kind).keySet().stream().filter(p -> fields.schema(p) == null)
          .forEach(p -> problems.add(kind + " " + p + ": a row for a field Karpenter does not have"));
      rows.rows(kind).values().forEach(row -> problems.addAll(shapeProblems(kind, row)));
    }
    assertEquals(List.of(), problems);
  }

  private static List<String> shapeProblems(String kind, Row row) {
    List<String> problems = new ArrayList<>();
    long said = Stream.of(row.works(), row.refused(), row.notWritten()).filter(s -> s != null).count();
    if (said != 1) {
      problems.add(kind + " " + row.path() + ": says " + said + " of works / refused / notWritten, not exactly one");
    }
    if (!row.unknownKeys().isEmpty()) {
      problems.add(kind + " " + row.path() + ": unknown keys " + row.unknownKeys());
    }
    if (row.notWritten() != null && !row.path().startsWith("status.")) {
      problems.add(kind + " " + row.path() + ": only a status field can be notWritten; a spec field works or is refused");
    }
    if (row.refused() != null && row.example() == null) {
      problems.add(kind + " " + row.path() + ": refused without an example object that sets it");
    }
    return problems;
  }

  @Test
  void everyWorkingFieldNamesATestThatExists() {
    var tests = new TestMethods(ROOT);
    List<String> problems = new ArrayList<>();
    for (String kind : FILES.keySet()) {
      rows.rows(kind).values().stream().filter(r -> r.works() != null && tests.find(r.works()).isEmpty())
          .forEach(r -> problems.add(kind + " " + r.path() + ": " + r.works()
              + " is not one test class (by simple name) under */src/test/java declaring that method"));
    }
    assertEquals(List.of(), problems);
  }

  @Test
  void everyFarrierOnlyCapabilityIsComplete() {
    var tests = new TestMethods(ROOT);
    List<String> problems = new ArrayList<>();
    for (var capability : rows.farrierOnly()) {
      if (capability.capability() == null || capability.peers() == null || capability.turnOn() == null || capability.works() == null) {
        problems.add(capability + ": a Farrier-only row needs capability, peers, turnOn and works");
      } else if (tests.find(capability.works()).isEmpty()) {
        problems.add(capability.capability() + ": " + capability.works() + " is not one test class under */src/test/java declaring that method");
      }
      if (!capability.unknownKeys().isEmpty()) {
        problems.add(capability.capability() + ": unknown keys " + capability.unknownKeys());
      }
    }
    assertTrue(!rows.farrierOnly().isEmpty(), "docs/compatibility.yaml has no farrierOnly rows");
    assertEquals(List.of(), problems);
  }

  @Test
  void everyRefusalIsARuleOfFarriersCrdThatNamesTheField() {
    List<String> problems = new ArrayList<>();
    for (String kind : FILES.keySet()) {
      CrdFields ours = farrier(kind);
      for (Row row : rows.rows(kind).values()) {
        if (row.refused() != null) {
          if (!ours.ruleMessagesOnOrAbove(row.path()).contains(row.refused())) {
            problems.add(kind + " " + row.path() + ": no rule on it or above it answers '" + row.refused() + "'");
          }
          if (!row.refused().contains(CrdFields.name(row.path()))) {
            problems.add(kind + " " + row.path() + ": the message does not name the field");
          }
        }
        for (var value : row.refusedValues().values()) {
          boolean named = value.refused().contains(value.value()) || value.refused().contains(CrdFields.name(row.path()));
          if (!ours.ruleMessagesOnOrAbove(row.path()).contains(value.refused()) || !named || value.example() == null) {
            problems.add(kind + " " + row.path() + " = " + value.value() + ": needs a rule on or above the field whose message"
                + " names the value or the field, and an example");
          }
        }
      }
    }
    assertEquals(List.of(), problems);
  }

  @Test
  void everyUpstreamEnumValueIsInFarriersEnumAndWorksUnlessItsRowRefusesIt() {
    List<String> problems = new ArrayList<>();
    for (String kind : FILES.keySet()) {
      CrdFields theirs = upstream(kind);
      CrdFields ours = farrier(kind);
      for (String path : theirs.byPath().keySet()) {
        List<String> missing = theirs.enumValues(path).stream().filter(v -> !ours.enumValues(path).contains(v)).toList();
        if (!missing.isEmpty() && ours.schema(path) != null) {
          problems.add(kind + " " + path + ": Farrier's enum lacks " + missing + " (add it, and a rule refusing it if it does not work)");
        }
      }
      rows.rows(kind).values().forEach(row -> row.refusedValues().keySet().stream()
          .filter(v -> !theirs.enumValues(row.path()).isEmpty() && !theirs.enumValues(row.path()).contains(v))
          .forEach(v -> problems.add(kind + " " + row.path() + ": refuses " + v + ", which is not one of Karpenter's values")));
    }
    assertEquals(List.of(), problems);
  }

  @Test
  void theCompatibilityPageIsTheOneTheRowsMake() throws IOException {
    Map<String, CrdFields> upstream = new LinkedHashMap<>();
    FILES.keySet().forEach(kind -> upstream.put(kind, upstream(kind)));
    String page = CompatibilityPage.render(rows, upstream, new TestMethods(ROOT));
    Path generated = Path.of("target", "COMPATIBILITY.md");
    Files.createDirectories(generated.getParent());
    Files.writeString(generated, page);
    assertEquals(page, Files.exists(PAGE) ? Files.readString(PAGE) : "",
        "docs/COMPATIBILITY.md is out of date: cp activities/target/COMPATIBILITY.md docs/COMPATIBILITY.md");
  }
}
