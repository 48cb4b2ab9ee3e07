package dev.farrier.localstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The Helm chart as helm renders it: linted, checked against the API server's schemas, and what it promises. */
@ExtendWith(LocalStackExtension.class)
class FarrierChartIT {
  private static final Path CHART = HelmChart.locate(Path.of(""));
  private static final Path DEFAULT_VALUES = CHART.resolve("ci/default-values.yaml");
  private static final Path FULL_VALUES = CHART.resolve("ci/full-values.yaml");
  private static final Path DEPLOY = CHART.getParent().getParent();

  /** Every setting of the worker the chart must set (the issue 12 contract and application.yml). */
  private static final Set<String> WORKER_SETTINGS = Set.of("POD_NAME", "POD_NAMESPACE", "FARRIER_CLUSTER_NAME",
      "FARRIER_CLOUD", "FARRIER_AWS_CLUSTER_ENDPOINT", "FARRIER_AWS_CLUSTER_CA_BUNDLE", "FARRIER_AWS_SERVICE_CIDR",
      "FARRIER_INTERRUPTION_QUEUE", "FARRIER_TEMPORAL_ADDRESS", "FARRIER_TEMPORAL_NAMESPACE",
      "FARRIER_TEMPORAL_TASK_QUEUE", "FARRIER_TEMPORAL_TLS_ENABLED", "FARRIER_HEALTH_PORT", "FARRIER_METRICS_PORT",
      "FARRIER_LOG_FORMAT", "FARRIER_LEADER_ELECTION_ENABLED", "FARRIER_LEADER_ELECTION_NAME",
      "FARRIER_LEADER_ELECTION_NAMESPACE", "FARRIER_FEATURE_GATES_NODE_REPAIR",
      "FARRIER_FEATURE_GATES_SPOT_TO_SPOT_CONSOLIDATION");

  @Test
  void lintPassesWithTheDefaultAndTheFullValues(LocalStack stack) {
    HelmChart chart = HelmChart.forStack(stack, CHART);
    for (Path values : List.of(DEFAULT_VALUES, FULL_VALUES)) {
      String report = chart.lint(Map.of(), List.of(values));
      assertTrue(report.contains("0 chart(s) failed"), report);
    }
  }

  @Test
  void defaultValuesRunTwoHardenedWorkersSpreadOverZonesAndHosts(LocalStack stack) {
    HelmChart.Rendered rendered = render(stack, DEFAULT_VALUES);
    Deployment deployment = rendered.one(Deployment.class);
    PodSpec pod = deployment.getSpec().getTemplate().getSpec();
    Container worker = pod.getContainers().getFirst();

    assertEquals(2, deployment.getSpec().getReplicas());
    assertEquals("farrier-worker:" + chartAppVersion(rendered), worker.getImage());
    assertEquals(65532L, pod.getSecurityContext().getRunAsUser());
    assertTrue(pod.getSecurityContext().getRunAsNonRoot());
    assertEquals("RuntimeDefault", pod.getSecurityContext().getSeccompProfile().getType());
    assertTrue(worker.getSecurityContext().getReadOnlyRootFilesystem());
    assertFalse(worker.getSecurityContext().getAllowPrivilegeEscalation());
    assertEquals(List.of("ALL"), worker.getSecurityContext().getCapabilities().getDrop());
    assertEquals("RuntimeDefault", worker.getSecurityContext().getSeccompProfile().getType());
    assertEquals("tmp", mountAt(worker, "/tmp").getName());
    assertTrue(volume(pod, "tmp").getEmptyDir() != null, "/tmp is an emptyDir");
    assertTrue(worker.getResources().getLimits().containsKey("memory"), "a memory limit");
    assertEquals(60L, pod.getTerminationGracePeriodSeconds());

    assertEquals("/healthz", worker.getLivenessProbe().getHttpGet().getPath());
    assertEquals("/readyz", worker.getReadinessProbe().getHttpGet().getPath());
    Map<String, Integer> ports = worker.getPorts().stream()
        .collect(Collectors.toMap(p -> p.getName(), p -> p.getContainerPort()));
    assertEquals(Map.of("http-metrics", 8080, "http-health", 8081), ports);
    assertEquals("http-health", worker.getLivenessProbe().getHttpGet().getPort().getStrVal());

    Map<String, String> selector = deployment.getSpec().getSelector().getMatchLabels();
    List<TopologySpreadConstraint> spread = pod.getTopologySpreadConstraints();
    assertEquals(Set.of("topology.kubernetes.io/zone", "kubernetes.io/hostname"),
        spread.stream().map(TopologySpreadConstraint::getTopologyKey).collect(Collectors.toSet()));
    spread.forEach(c -> assertEquals(selector, c.getLabelSelector().getMatchLabels(), "spread of the workers' own pods"));

    assertEquals(1, rendered.one(PodDisruptionBudget.class).getSpec().getMaxUnavailable().getIntVal());
    assertEquals(selector, rendered.one(PodDisruptionBudget.class).getSpec().getSelector().getMatchLabels());
    assertEquals(8080, rendered.one(Service.class).getSpec().getPorts().getFirst().getPort());
    assertTrue(rendered.all(GenericKubernetesResource.class).isEmpty(), "no ServiceMonitor by default");
    assertEquals("farrier", pod.getServiceAccountName());

    Map<String, String> env = WorkerSettingsFromChart.of(rendered).environment("farrier-abc", "farrier");
    assertEquals(Set.of(), difference(WORKER_SETTINGS, env.keySet()), "settings the chart does not set");
    assertEquals("farrier-abc", env.get("POD_NAME"));
    assertEquals("farrier", env.get("POD_NAMESPACE"));
    assertEquals("farrier-ci", env.get("FARRIER_CLUSTER_NAME"));
    assertEquals("aws", env.get("FARRIER_CLOUD"));
    assertEquals("false", env.get("FARRIER_TEMPORAL_TLS_ENABLED"));
    assertEquals("true", env.get("FARRIER_LEADER_ELECTION_ENABLED"));
    assertEquals("farrier", env.get("FARRIER_LEADER_ELECTION_NAMESPACE"));
    assertEquals("8081", env.get("FARRIER_HEALTH_PORT"));
    assertEquals("false", env.get("FARRIER_FEATURE_GATES_NODE_REPAIR"), "node repair off by default, as Karpenter's gate");
    assertEquals("false", env.get("FARRIER_FEATURE_GATES_SPOT_TO_SPOT_CONSOLIDATION"), "spot-to-spot off by default, as Karpenter's gate");
    assertTrue(WorkerSettingsFromChart.of(rendered).secretFiles().isEmpty());
  }

  @Test
  void fullValuesMountTheTemporalSecretsReadOnlyAndAnnotateTheServiceAccount(LocalStack stack) {
    HelmChart.Rendered rendered = render(stack, FULL_VALUES);
    WorkerSettingsFromChart worker = WorkerSettingsFromChart.of(rendered);
    Map<String, String> env = worker.environment("p", "ns");

    assertEquals("true", env.get("FARRIER_TEMPORAL_TLS_ENABLED"));
    assertEquals("farrier.a1b2c.tmprl.cloud:7233", env.get("FARRIER_TEMPORAL_ADDRESS"));
    assertEquals("farrier.a1b2c", env.get("FARRIER_TEMPORAL_NAMESPACE"));
    assertEquals("farrier.a1b2c.tmprl.cloud", env.get("FARRIER_TEMPORAL_TLS_SERVER_NAME"));
    assertEquals("eu-west-1", env.get("FARRIER_REGION"));
    assertEquals("text", env.get("FARRIER_LOG_FORMAT"));
    assertEquals("true", env.get("FARRIER_FEATURE_GATES_NODE_REPAIR"));
    assertEquals("true", env.get("FARRIER_FEATURE_GATES_SPOT_TO_SPOT_CONSOLIDATION"));
    assertEquals("-XX:MaxRAMPercentage=75", env.get("JAVA_TOOL_OPTIONS"));
    assertEquals(Map.of(
        "FARRIER_TEMPORAL_TLS_CA_FILE", new WorkerSettingsFromChart.SecretFile("farrier-temporal-mtls", "ca.crt", "/etc/farrier/temporal-tls/ca.crt"),
        "FARRIER_TEMPORAL_TLS_CERT_FILE", new WorkerSettingsFromChart.SecretFile("farrier-temporal-mtls", "tls.crt", "/etc/farrier/temporal-tls/tls.crt"),
        "FARRIER_TEMPORAL_TLS_KEY_FILE", new WorkerSettingsFromChart.SecretFile("farrier-temporal-mtls", "tls.key", "/etc/farrier/temporal-tls/tls.key"),
        "FARRIER_TEMPORAL_API_KEY_FILE", new WorkerSettingsFromChart.SecretFile("farrier-temporal-api-key", "key", "/etc/farrier/temporal-api-key/key")),
        worker.secretFiles());
    for (String dir : List.of("/etc/farrier/temporal-tls", "/etc/farrier/temporal-api-key")) {
      assertTrue(mountAt(worker.container(), dir).getReadOnly(), dir + " read-only");
    }
    assertEquals("registry.example.com/farrier-worker@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
        worker.container().getImage());
    assertEquals("arn:aws:iam::111122223333:role/FarrierWorker",
        rendered.one(ServiceAccount.class).getMetadata().getAnnotations().get("eks.amazonaws.com/role-arn"));

    GenericKubernetesResource monitor = rendered.one(GenericKubernetesResource.class);
    assertEquals("ServiceMonitor", monitor.getKind());
    assertEquals("monitoring.coreos.com/v1", monitor.getApiVersion());
    Service service = rendered.one(Service.class);
    Map<String, Object> endpoint = monitor.get("spec", "endpoints", 0);
    assertEquals(service.getSpec().getPorts().getFirst().getName(), endpoint.get("port"));
    assertEquals("30s", endpoint.get("interval"));
    assertEquals(service.getMetadata().getLabels().get("app.kubernetes.io/name"),
        monitor.<String>get("spec", "selector", "matchLabels", "app.kubernetes.io/name"));
    assertEquals("prometheus", monitor.getMetadata().getLabels().get("release"));
  }

  @Test
  void everythingTheChartRendersFitsTheApiServersSchemas(LocalStack stack, @TempDir Path dir) throws Exception {
    List<Path> inputs = new ArrayList<>();
    Set<String> apiVersions = new TreeSet<>(Set.of("apiextensions.k8s.io/v1"));
    for (Path values : List.of(DEFAULT_VALUES, FULL_VALUES)) {
      HelmChart.Rendered rendered = render(stack, values);
      rendered.objects().forEach(o -> apiVersions.add(o.getApiVersion()));
      Path file = dir.resolve(values.getFileName());
      Files.writeString(file, rendered.yaml());
      inputs.add(file);
    }
    try (Stream<Path> crds = Files.list(CHART.resolve("crds"))) {
      crds.sorted().forEach(inputs::add);
    }
    apiVersions.remove("monitoring.coreos.com/v1");
    Path schemas = dir.resolve("schemas");
    try (KubernetesClient admin = admin(stack)) {
      assertTrue(OpenApiJsonSchemas.write(admin, apiVersions, schemas) > 0);
    }

    CommandLine.Result valid = kubeconform(stack, schemas, inputs);
    assertEquals(0, valid.exitCode(), valid.output());
    // 2 x (ServiceAccount, ClusterRole, ClusterRoleBinding, 2 Roles, 2 RoleBindings, Service, Deployment, PDB) and 4 CRDs.
    assertTrue(valid.output().contains("Valid: 24, Invalid: 0, Errors: 0, Skipped: 1"), valid.output());

    // The check has teeth: a misspelt field and a wrong type fail it.
    Path broken = dir.resolve("broken.yaml");
    Files.writeString(broken, Files.readString(inputs.getFirst())
        .replace("  replicas: 2\n", "  replicas: two\n").replace("revisionHistoryLimit:", "revisionHistoryLimmit:"));
    CommandLine.Result invalid = kubeconform(stack, schemas, List.of(broken));
    assertEquals(1, invalid.exitCode(), invalid.output());
    assertTrue(invalid.output().contains("Invalid: 1"), invalid.output());
    assertTrue(invalid.output().contains("revisionHistoryLimmit") && invalid.output().contains("replicas"), invalid.output());
  }

  @Test
  void theValuesSchemaAndRequiredValuesRefuseBadValues(LocalStack stack) {
    HelmChart chart = HelmChart.forStack(stack, CHART);
    Map<String, Object> named = Map.of("settings", Map.of("clusterName", "c", "clusterEndpoint", "https://api", "clusterCABundle", "Q0E=",
        "serviceCIDR", "10.100.0.0/16"));
    assertRefused(chart, Map.of("replicas", "two"), "replicas");
    assertRefused(chart, Map.of("replica", 2), "replica");
    assertRefused(chart, Map.of("logFormat", "xml"), "logFormat");
    // Micronaut reads 90s, not Go's 1m30s: the schema refuses what the worker could not start with.
    assertRefusedOverDefaults(chart, Map.of("settings", Map.of("batchMaxDuration", "1m30s")), "batchMaxDuration");
    assertRefusedOverDefaults(chart, Map.of("settings", Map.of("featureGates", Map.of("nodeRepair", "yes"))), "nodeRepair");
    assertRefusedOverDefaults(chart, Map.of("settings", Map.of("featureGates", Map.of("spotToSpotConsolidation", "on"))),
        "spotToSpotConsolidation");
    assertRefusedOverDefaults(chart, Map.of("settings", Map.of("featureGates", Map.of("NodeRepair", true))), "NodeRepair");
    assertRefusedOverDefaults(chart, Map.of("replicas", 2, "settings", Map.of("leaderElection", Map.of("enabled", false))),
        "leaderElection.enabled=false");
    assertEquals(1, chart.template("farrier", "farrier", Map.of("replicas", 1, "settings", Map.of("leaderElection", Map.of("enabled", false))),
        List.of(DEFAULT_VALUES)).one(Deployment.class).getSpec().getReplicas(), "one worker without leader election is fine");
    assertRefused(chart, Map.of("settings", Map.of("clusterName", "c", "temporal", Map.of("address", "no-port"))), "address");
    assertRefused(chart, Map.of(), "settings.clusterName is required");
    // What nodes join goes into their user data: without it the worker could not start, so helm refuses at once.
    assertRefused(chart, Map.of("settings", Map.of("clusterName", "c")), "settings.clusterEndpoint is required");
    assertRefused(chart, Map.of("settings", Map.of("clusterName", "c", "clusterEndpoint", "https://api")), "settings.clusterCABundle is required");
    assertRefused(chart, Map.of("settings", Map.of("clusterName", "c", "clusterEndpoint", "https://api", "clusterCABundle", "Q0E=")),
        "settings.serviceCIDR is required");
    assertEquals(3, chart.template("farrier", "farrier", Map.of("replicas", 3), List.of(DEFAULT_VALUES))
        .one(Deployment.class).getSpec().getReplicas());
    assertEquals(2, chart.template("farrier", "farrier", named).one(Deployment.class).getSpec().getReplicas());
  }

  private static void assertRefusedOverDefaults(HelmChart chart, Map<String, Object> values, String naming) {
    var refused = assertThrows(HelmChart.HelmException.class, () -> chart.template("farrier", "farrier", values, List.of(DEFAULT_VALUES)));
    assertTrue(refused.getMessage().contains(naming), refused.getMessage());
  }

  private static void assertRefused(HelmChart chart, Map<String, Object> values, String naming) {
    var refused = assertThrows(HelmChart.HelmException.class, () -> chart.template("farrier", "farrier", values,
        values.containsKey("settings") || values.isEmpty() ? List.of() : List.of(DEFAULT_VALUES)));
    assertTrue(refused.getMessage().contains(naming), refused.getMessage());
  }

  @Test
  void theRbacIsTheSameAsDeployRbac(LocalStack stack) throws Exception {
    HelmChart.Rendered rendered = render(stack, DEFAULT_VALUES);
    List<HasMetadata> plain = HelmChart.parse(Files.readString(DEPLOY.resolve("rbac/worker-rbac.yaml")));

    assertEquals(one(plain, ClusterRole.class).getRules(), rendered.one(ClusterRole.class).getRules(),
        "deploy/rbac/worker-rbac.yaml and the chart's templates/clusterrole.yaml grant different rules");
    for (String role : List.of("leader-election", "headroom")) {
      assertEquals(role(plain, role).getRules(), role(rendered.objects(), role).getRules(),
          "deploy/rbac/worker-rbac.yaml and the chart's templates/role.yaml grant different " + role + " rules");
    }
    assertEquals(rendered.one(Deployment.class).getMetadata().getNamespace(), role(rendered.objects(), "headroom").getMetadata().getNamespace(),
        "the headroom's Deployments are created and deleted in the release namespace only");
    ClusterRoleBinding binding = rendered.one(ClusterRoleBinding.class);
    assertEquals(rendered.one(ClusterRole.class).getMetadata().getName(), binding.getRoleRef().getName());
    assertEquals(rendered.one(ServiceAccount.class).getMetadata().getName(), binding.getSubjects().getFirst().getName());
  }

  /** The JVM is tuned in one place for both: the image's default JDK_JAVA_OPTIONS and the chart's are the same. */
  @Test
  void theChartsJvmOptionsAreTheImagesAndSizeTheHeapFromTheMemoryLimit(LocalStack stack) throws Exception {
    WorkerSettingsFromChart worker = WorkerSettingsFromChart.of(render(stack, DEFAULT_VALUES));
    var pom = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(DEPLOY.getParent().resolve("worker/pom.xml").toFile());
    String image = pom.getElementsByTagName("JDK_JAVA_OPTIONS").item(0).getTextContent().strip();

    Map<String, String> env = worker.environment("p", "ns");
    String chart = env.get("JDK_JAVA_OPTIONS");
    assertEquals(image, chart, "worker/pom.xml's image environment and the chart's controller.jvmOptions differ");
    assertTrue(chart.contains("-XX:MaxRAMPercentage="), "the heap follows the container's memory limit: " + chart);
    assertTrue(chart.contains("-XX:+ExitOnOutOfMemoryError"), "a worker out of memory restarts instead of limping: " + chart);
    String arenas = pom.getElementsByTagName("MALLOC_ARENA_MAX").item(0).getTextContent().strip();
    assertEquals(arenas, env.get("MALLOC_ARENA_MAX"), "the image's and the chart's malloc arenas differ");
    assertEquals(1L << 30, worker.memoryLimitBytes().orElseThrow(), "the default memory limit, 1Gi");
  }

  /** The one Role whose name ends in {@code -suffix}. */
  private static Role role(List<HasMetadata> objects, String suffix) {
    var roles = objects.stream().filter(Role.class::isInstance).map(Role.class::cast)
        .filter(r -> r.getMetadata().getName().endsWith("-" + suffix)).toList();
    assertEquals(1, roles.size(), "one Role *-" + suffix + ": " + roles);
    return roles.getFirst();
  }

  private static <T extends HasMetadata> T one(List<HasMetadata> objects, Class<T> type) {
    return new HelmChart.Rendered("", objects).one(type);
  }

  private static HelmChart.Rendered render(LocalStack stack, Path values) {
    return HelmChart.forStack(stack, CHART).template("farrier", "farrier", Map.of(), List.of(values));
  }

  private static CommandLine.Result kubeconform(LocalStack stack, Path schemas, List<Path> inputs) throws InterruptedException {
    List<String> command = new ArrayList<>(List.of(stack.binDir().resolve("kubeconform").toString(), "-strict", "-summary",
        "-kubernetes-version", stack.kubernetesVersion().substring(1), "-skip", "ServiceMonitor",
        "-schema-location", schemas + OpenApiJsonSchemas.LOCATION));
    inputs.forEach(p -> command.add(p.toString()));
    return CommandLine.run(command, Duration.ofMinutes(2));
  }

  private static KubernetesClient admin(LocalStack stack) throws Exception {
    return new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(stack.kubeconfig()))).build();
  }

  private static String chartAppVersion(HelmChart.Rendered rendered) {
    return rendered.one(Deployment.class).getMetadata().getLabels().get("app.kubernetes.io/version");
  }

  private static VolumeMount mountAt(Container container, String path) {
    return container.getVolumeMounts().stream().filter(m -> m.getMountPath().equals(path)).findFirst()
        .orElseThrow(() -> new AssertionError("nothing mounted at " + path));
  }

  private static Volume volume(PodSpec pod, String name) {
    return pod.getVolumes().stream().filter(v -> v.getName().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no volume " + name));
  }

  private static Set<String> difference(Set<String> wanted, Set<String> present) {
    Set<String> missing = new TreeSet<>(wanted);
    missing.removeAll(present);
    return missing;
  }
}
