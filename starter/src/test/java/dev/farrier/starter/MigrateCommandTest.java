package dev.farrier.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code farrier migrate} as a user runs it: files, directories, standard input, -o, --check, bad input. */
class MigrateCommandTest {
  static final Path SEEDS = Path.of("..", "migrate", "src", "test", "resources", "seeds");

  private static final String UBUNTU = """
      apiVersion: karpenter.k8s.aws/v1beta1
      kind: EC2NodeClass
      metadata: {name: ubuntu}
      spec:
        amiFamily: Ubuntu
        role: r
        subnetSelectorTerms: [{tags: {a: b}}]
        securityGroupSelectorTerms: [{tags: {a: b}}]
      """;

  private static FarrierCliTest.Run run(String stdin, String... args) {
    var cli = new FarrierCli();
    var cl = FarrierCli.commandLine(cli);
    MigrateCommand migrate = cl.getSubcommands().get("migrate").getCommand();
    migrate.stdin = new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
    return FarrierCliTest.execute(cli, cl, args);
  }

  @Test
  void standardInToStandardOutWithTheReportOnStandardError() {
    var run = run("""
        apiVersion: karpenter.sh/v1beta1
        kind: NodePool
        metadata: {name: a}
        spec:
          template:
            spec:
              nodeClassRef: {apiVersion: karpenter.k8s.aws/v1beta1, kind: EC2NodeClass, name: c}
        """, "migrate", "-f", "-");
    assertEquals(0, run.exitCode(), run::toString);
    assertTrue(run.out().startsWith("apiVersion: karpenter.sh/v1\nkind: NodePool\n"), run.out());
    assertTrue(run.out().contains("group: karpenter.k8s.aws"), run.out());
    assertTrue(run.err().contains("# farrier migrate: stdin.yaml"), run.err());
    assertTrue(run.err().contains("apiVersion became group"), run.err());
  }

  @Test
  void aDirectoryIsWrittenFileForFileWithAReportBesideEach(@TempDir Path tmp, @TempDir Path out) throws Exception {
    // Under a hidden directory (as .run is), with a hidden one inside that is skipped (as .git is).
    Path in = tmp.resolve(".run").resolve("manifests");
    Files.createDirectories(in.resolve("apps"));
    Files.createDirectories(in.resolve(".git"));
    Files.writeString(in.resolve(".git").resolve("config.yaml"), "not: [yaml");
    Files.copy(SEEDS.resolve("mixed.yaml"), in.resolve("apps").resolve("mixed.yaml"));
    Files.copy(SEEDS.resolve("seed-003-v1beta1.yaml"), in.resolve("seed-003-v1beta1.yaml"));
    Files.writeString(in.resolve("notes.txt"), "not a manifest");
    var run = run("", "migrate", "-f", in.toString(), "-o", out.toString(), "--default-instance-profile", "profile");
    assertEquals(0, run.exitCode(), run::toString);
    try (Stream<Path> files = Files.walk(out)) {
      assertEquals(List.of("apps/mixed.yaml", "apps/mixed.yaml.migration.md", "seed-003-v1beta1.yaml",
          "seed-003-v1beta1.yaml.migration.md"),
          files.filter(Files::isRegularFile).map(p -> out.relativize(p).toString()).sorted().toList());
    }
    assertTrue(Files.readString(out.resolve("seed-003-v1beta1.yaml")).contains("alias: al2023@latest"));
    assertTrue(Files.readString(out.resolve("seed-003-v1beta1.yaml.migration.md")).contains("httpPutResponseHopLimit: 2"));
    assertTrue(run.err().contains("2 input(s), 2 changed, 0 with something that needs a person"), run.err());

    // Migrating the output again changes nothing.
    var again = run("", "migrate", "-f", out.toString(), "-o", out.resolve("again").toString());
    assertEquals(0, again.exitCode(), again::toString);
    for (String name : List.of("apps/mixed.yaml", "seed-003-v1beta1.yaml")) {
      assertEquals(Files.readString(out.resolve(name)), Files.readString(out.resolve("again").resolve(name)), name);
    }
  }

  @Test
  void checkExitsSevenWhenAPersonIsNeededAndStillWrites(@TempDir Path out) throws Exception {
    var run = run(UBUNTU, "migrate", "-f", "-", "-o", out.toString(), "--check");
    assertEquals(ExitCodes.NEEDS_PERSON, run.exitCode(), run::toString);
    assertTrue(Files.readString(out.resolve("stdin.yaml.migration.md")).contains("v1 has no Ubuntu family"));
    assertEquals(0, run(UBUNTU, "migrate", "-f", "-").exitCode());
    assertEquals(0, run(UBUNTU.replace("Ubuntu", "AL2023"), "migrate", "-f", "-", "--check").exitCode());
  }

  @Test
  void badInputWritesNothingAndNamesEveryProblem(@TempDir Path in, @TempDir Path out) throws Exception {
    Files.writeString(in.resolve("good.yaml"), UBUNTU);
    Files.writeString(in.resolve("bad.yaml"), "apiVersion: karpenter.sh/v1alpha5\nkind: Provisioner\nmetadata: {name: p}\n"
        + "spec:\n  provider: {}\n  providerRef: {name: x}\n");
    var run = run("", "migrate", "-f", in.toString(), "-o", out.toString());
    assertEquals(ExitCodes.USAGE, run.exitCode(), run::toString);
    assertTrue(run.err().contains("farrier migrate: bad.yaml:5: Provisioner/p: spec.provider: a Provisioner takes provider "
        + "or providerRef (line 6), not both"), run.err());
    assertTrue(run.err().contains("nothing written: 1 problem(s) in the input"), run.err());
    try (Stream<Path> files = Files.list(out)) {
      assertEquals(0, files.count());
    }
  }

  @Test
  void noInputIsAUsageError() {
    var run = run("", "migrate");
    assertEquals(ExitCodes.USAGE, run.exitCode());
    assertTrue(run.err().contains("migrate needs -f FILE|DIR|- or --from-cluster"), run.err());
    assertTrue(run(UBUNTU, "migrate", "-f", "no-such.yaml").err().contains("no such file or directory: no-such.yaml"));
  }

  @Test
  void aDirectoryWithoutManifestsIsAUsageError(@TempDir Path in) throws Exception {
    Files.writeString(in.resolve("README.md"), "# not a manifest");
    var run = run("", "migrate", "-f", in.toString());
    assertEquals(ExitCodes.USAGE, run.exitCode(), run::toString);
    assertTrue(run.err().contains("no *.yaml or *.yml file under " + in), run.err());
  }

  @Test
  void twoInputsOfOneNameAreRefusedRatherThanOneLost(@TempDir Path in) throws Exception {
    Files.createDirectories(in.resolve("a"));
    Files.createDirectories(in.resolve("b"));
    Files.writeString(in.resolve("a").resolve("pool.yaml"), UBUNTU);
    Files.writeString(in.resolve("b").resolve("pool.yaml"), UBUNTU.replace("name: ubuntu", "name: other"));
    var run = run("", "migrate", "-f", in.resolve("a").resolve("pool.yaml").toString(), "-f", in.resolve("b").resolve("pool.yaml").toString());
    assertEquals(ExitCodes.USAGE, run.exitCode(), run::toString);
    assertTrue(run.err().contains("two inputs are named pool.yaml"), run.err());
  }

  @Test
  void theCurrentDirectoryIsAnOutputDirectoryLikeAnyOtherAndNothingGoesOutside() {
    assertEquals(Path.of("").toAbsolutePath().resolve("x.yaml"), MigrateCommand.target(Path.of("."), "x.yaml"));
    assertEquals(Path.of("").toAbsolutePath().resolve("a/x.yaml"), MigrateCommand.target(Path.of("a/.."), "a/x.yaml"));
    var e = org.junit.jupiter.api.Assertions.assertThrows(CliException.class, () -> MigrateCommand.target(Path.of("out"), "../x.yaml"));
    assertEquals(ExitCodes.USAGE, e.exitCode());
  }

  @Test
  void standardOutSeparatesInputsEvenWhenOneLacksItsLastNewline(@TempDir Path in) throws Exception {
    Files.writeString(in.resolve("a.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}");
    Files.writeString(in.resolve("b.yaml"), UBUNTU.replace("Ubuntu", "AL2023"));
    var run = run("", "migrate", "-f", in.toString());
    assertEquals(0, run.exitCode(), run::toString);
    assertTrue(run.out().contains("metadata: {name: a}\n---\n# farrier migrate: b.yaml\n"), run.out());
  }
}
