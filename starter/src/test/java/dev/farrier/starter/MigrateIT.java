package dev.farrier.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.localstack.LocalStack;
import dev.farrier.localstack.LocalStackExtension;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.FieldValidateable;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code farrier migrate}'s output applies cleanly to Farrier's CRDs on a real kube-apiserver (server-side apply, dry
 * run, strict field validation, so an unknown field or a broken CEL rule fails), and {@code --from-cluster} reads the
 * old objects a cluster serves.
 */
@ExtendWith(LocalStackExtension.class)
class MigrateIT {
  private static KubernetesClient kube;

  @BeforeAll
  static void connect(LocalStack stack) throws Exception {
    kube = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(stack.kubeconfig()))).build();
    try (var crds = Files.list(Path.of("..", "deploy", "crds"))) {
      for (Path crd : crds.sorted().toList()) {
        install(Files.readString(crd));
      }
    }
    install(Files.readString(Path.of("src", "test", "resources", "migrate", "old-crds.yaml")));
  }

  private static void install(String yaml) {
    for (HasMetadata item : kube.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items()) {
      kube.resource(item).forceConflicts().serverSideApply();
      kube.apiextensions().v1().customResourceDefinitions().withName(item.getMetadata().getName())
          .waitUntilCondition(MigrateIT::established, 60, TimeUnit.SECONDS);
    }
  }

  private static boolean established(CustomResourceDefinition crd) {
    return crd != null && crd.getStatus() != null && crd.getStatus().getConditions() != null
        && crd.getStatus().getConditions().stream().anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  @AfterAll
  static void disconnect() {
    kube.close();
  }

  private static FarrierCliTest.Run migrate(String... args) {
    var cli = new FarrierCli();
    return FarrierCliTest.execute(cli, FarrierCli.commandLine(cli), args);
  }

  /** Every object of the file, applied as a dry run with strict field validation; returns the kinds applied. */
  private static List<String> dryRunApply(Path file) throws Exception {
    var items = kube.load(Files.newInputStream(file)).items();
    for (HasMetadata item : items) {
      try {
        var resource = List.of("NodePool", "EC2NodeClass").contains(item.getKind()) ? kube.resource(item)
            : kube.resource(item).inNamespace("default");
        resource.dryRun().fieldValidation(FieldValidateable.Validation.STRICT).serverSideApply();
      } catch (KubernetesClientException e) {
        throw new AssertionError(file.getFileName() + ": " + item.getKind() + "/" + item.getMetadata().getName()
            + " refused: " + e.getMessage() + "\n" + Files.readString(file), e);
      }
    }
    return items.stream().map(i -> i.getKind() + "/" + i.getMetadata().getName()).toList();
  }

  @Test
  void theSeedsMigratedApplyToFarriersCrds(@TempDir Path out) throws Exception {
    Path seeds = MigrateCommandTest.SEEDS;
    var seed002 = migrate("migrate", "-f", seeds.resolve("seed-002-provisioner.yaml").toString(), "-o", out.toString(),
        "--default-instance-profile", "KarpenterNodeInstanceProfile-karpenter-demo", "--check");
    assertEquals(0, seed002.exitCode(), seed002::toString);
    assertEquals(List.of("EC2NodeClass/default", "NodePool/default"), dryRunApply(out.resolve("seed-002-provisioner.yaml")));

    var seed003 = migrate("migrate", "-f", seeds.resolve("seed-003-v1beta1.yaml").toString(), "-o", out.toString(), "--check");
    assertEquals(0, seed003.exitCode(), seed003::toString);
    assertEquals(List.of("EC2NodeClass/default", "NodePool/default"), dryRunApply(out.resolve("seed-003-v1beta1.yaml")));

    var mixed = migrate("migrate", "-f", seeds.resolve("mixed.yaml").toString(), "-o", out.toString(),
        "--default-instance-profile", "profile", "--check");
    assertEquals(0, mixed.exitCode(), mixed::toString);
    assertEquals(List.of("EC2NodeClass/apps", "NodePool/apps", "Deployment/inflate"), dryRunApply(out.resolve("mixed.yaml")));
  }

  @Test
  void theApiServerRefusesWhatNeedsAPersonSoCheckIsRight(@TempDir Path out) throws Exception {
    Files.writeString(out.resolve("in.yaml"), """
        apiVersion: karpenter.k8s.aws/v1alpha1
        kind: AWSNodeTemplate
        metadata: {name: no-profile}
        spec:
          subnetSelector: {a: b}
          securityGroupSelector: {a: b}
        """);
    var run = migrate("migrate", "-f", out.resolve("in.yaml").toString(), "-o", out.resolve("out").toString(), "--check");
    assertEquals(ExitCodes.NEEDS_PERSON, run.exitCode(), run::toString);
    var refused = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class, () -> dryRunApply(out.resolve("out").resolve("in.yaml")));
    assertTrue(refused.getMessage().contains("must specify exactly one of ['role', 'instanceProfile']"), refused.getMessage());
  }

  @Test
  void fromClusterReadsTheOldObjectsTheClusterServes(LocalStack stack, @TempDir Path out) throws Exception {
    install(Files.readString(Path.of("src", "test", "resources", "migrate", "old-crds.yaml")));
    String old = """
        apiVersion: karpenter.k8s.aws/v1alpha1
        kind: AWSNodeTemplate
        metadata:
          name: from-cluster
          annotations:
            kubectl.kubernetes.io/last-applied-configuration: '{"apiVersion":"karpenter.k8s.aws/v1alpha1"}'
        spec:
          instanceProfile: node-profile
          subnetSelector: {karpenter.sh/discovery: demo}
          securityGroupSelector: {karpenter.sh/discovery: demo}
        ---
        apiVersion: karpenter.sh/v1alpha5
        kind: Provisioner
        metadata: {name: from-cluster}
        spec:
          providerRef: {name: from-cluster}
          ttlSecondsAfterEmpty: 60
          kubeletConfiguration: {maxPods: 40}
        """;
    for (HasMetadata item : kube.load(new ByteArrayInputStream(old.getBytes(StandardCharsets.UTF_8))).items()) {
      kube.resource(item).forceConflicts().serverSideApply();
    }
    var run = migrate("migrate", "--from-cluster", "--kubeconfig", stack.kubeconfig().toString(), "-o", out.toString(), "--check");
    assertEquals(0, run.exitCode(), run::toString);
    String migrated = Files.readString(out.resolve("cluster.yaml"));
    assertTrue(migrated.contains("maxPods: 40"), migrated);
    assertTrue(!migrated.contains("last-applied-configuration") && !migrated.contains("resourceVersion"), migrated);
    assertEquals(List.of("EC2NodeClass/from-cluster", "NodePool/from-cluster"), dryRunApply(out.resolve("cluster.yaml")));
  }
}
