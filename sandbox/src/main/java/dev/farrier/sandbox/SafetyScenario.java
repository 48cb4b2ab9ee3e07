package dev.farrier.sandbox;

import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.cloud.simulated.SimulatedCloud;
import dev.farrier.activities.cloud.simulated.SimulatedCloudConfig;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The safety probes a reviewer ran from outside, played against the real worker: instances in the cluster's account
 * that are not exactly Farrier's (another owner, only some of the tags) survive garbage collection past its grace; a
 * NodePool with a limit too large to count is not Ready and says why on a condition and in an Event; and the good
 * NodePool still provisions a new node next to it. Throws (the sandbox exits non-zero) when a promise is broken.
 */
final class SafetyScenario {
  /** The worker's garbage collection in this scenario: short, so several passes run past the grace within a minute. */
  static final String HOSTILE_POOL = "absurd-limits";
  static final String PROBE_APP = "after-hostile";

  private final SandboxEnvironment env;
  private final DriftScenario drift;
  private final Path workerLog;
  private final Duration timeout;

  SafetyScenario(SandboxEnvironment env, DriftScenario drift, Path workerLog, Duration timeout) {
    this.env = env;
    this.drift = drift;
    this.workerLog = workerLog;
    this.timeout = timeout;
  }

  void play(DriftScenario.Provisioned old, PrintStream out) throws IOException {
    var cloud = new SimulatedCloud(SimulatedCloudConfig.defaults(env.cloudDir()).withCluster(env.cluster()));
    String zone = cloud.get(old.instanceId()).orElseThrow().zone();
    Map<String, String> almost = Map.of(WellKnown.TAG_CLUSTER, env.cluster(), WellKnown.TAG_OWNER, "someone-else",
        WellKnown.TAG_NODEPOOL, DriftScenario.NODE_POOL, WellKnown.TAG_NODECLAIM, DriftScenario.NODE_POOL + "-not-ours");
    Instance otherOwner = cloud.registerForeignInstance("m5.large", zone, almost);
    Instance someTags = cloud.registerForeignInstance("m5.large", zone,
        Map.of(WellKnown.TAG_CLUSTER, env.cluster(), WellKnown.TAG_OWNER, "farrier"));
    var registeredAt = System.nanoTime();
    out.printf("== two instances that are not Farrier's in the cluster's account: %s (%s: someone-else), %s (only the cluster"
        + " and owner tags)%n", otherOwner.id(), WellKnown.TAG_OWNER, someTags.id());

    env.kube().load(new ByteArrayInputStream(hostilePool().getBytes(StandardCharsets.UTF_8))).serverSideApply();
    var condition = Await.until("NodePool " + HOSTILE_POOL + " to say why it cannot be used", timeout,
        () -> NodePoolConditions.find(env.kube(), HOSTILE_POOL, "ValidationSucceeded"), drift::diagnostics);
    if (!"False".equals(condition.get("status"))) {
      throw new IllegalStateException("NodePool " + HOSTILE_POOL + " with an absurd limit passed validation: " + condition);
    }
    Event event = Await.until("an Event on NodePool " + HOSTILE_POOL, timeout, () -> env.kube().v1().events().inAnyNamespace().list()
        .getItems().stream().filter(e -> HOSTILE_POOL.equals(e.getInvolvedObject().getName())).findFirst().orElse(null), drift::diagnostics);
    out.printf("== NodePool %s (limits.cpu 9223372036854775807) is not Ready:%n     condition ValidationSucceeded=False %s: %s%n"
        + "     Event %s %s: %s%n", HOSTILE_POOL, condition.get("reason"), condition.get("message"), event.getType(), event.getReason(),
        event.getMessage());

    env.kube().resource(probeDeployment()).serverSideApply();
    String newNode = Await.until(PROBE_APP + " pod Ready on a new node of " + DriftScenario.NODE_POOL, timeout, () -> probePods().stream()
        .filter(p -> p.getStatus() != null && p.getStatus().getConditions() != null && p.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())))
        .map(p -> p.getSpec().getNodeName()).filter(n -> n != null && !n.equals(old.node())).findFirst().orElse(null), drift::diagnostics);
    out.printf("   the good NodePool still provisions: %s pod Ready on new node %s%n", PROBE_APP, newNode);

    long waitMillis = Duration.ofSeconds(45).toMillis() - Duration.ofNanos(System.nanoTime() - registeredAt).toMillis();
    if (waitMillis > 0) {
      try {
        Thread.sleep(waitMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
    String log = Files.readString(workerLog);
    for (Instance foreign : List.of(otherOwner, someTags)) {
      String state = cloud.get(foreign.id()).orElseThrow().state();
      if (!"running".equals(state) || log.contains("gc terminated orphan instance=" + foreign.id())) {
        throw new IllegalStateException("garbage collection touched " + foreign.id() + ", which Farrier did not launch: " + state);
      }
    }
    out.printf("== 45s later (garbage collection every 5s, grace 20s) both are still running: %s, %s%n", otherOwner.id(), someTags.id());
  }

  private List<Pod> probePods() {
    return env.kube().pods().inNamespace(DriftScenario.NAMESPACE).withLabel("app", PROBE_APP).list().getItems();
  }

  private static String hostilePool() {
    return """
        apiVersion: karpenter.sh/v1
        kind: NodePool
        metadata:
          name: %s
        spec:
          limits:
            cpu: "9223372036854775807"
          template:
            spec:
              nodeClassRef:
                group: karpenter.k8s.aws
                kind: EC2NodeClass
                name: %s
              requirements:
                - key: kubernetes.io/arch
                  operator: In
                  values: ["amd64"]
        """.formatted(HOSTILE_POOL, DriftScenario.NODE_CLASS);
  }

  /** One pod that may not share a node with the blueprint's pods, so it needs a new node of the good NodePool. */
  private static Deployment probeDeployment() {
    return new DeploymentBuilder()
        .withNewMetadata().withName(PROBE_APP).withNamespace(DriftScenario.NAMESPACE).endMetadata()
        .withNewSpec()
            .withReplicas(1)
            .withNewSelector().addToMatchLabels("app", PROBE_APP).endSelector()
            .withNewTemplate()
                .withNewMetadata().addToLabels("app", PROBE_APP).endMetadata()
                .withNewSpec()
                    .addToNodeSelector(WellKnown.NODEPOOL_LABEL, DriftScenario.NODE_POOL)
                    .withNewAffinity().withNewPodAntiAffinity()
                        .addNewRequiredDuringSchedulingIgnoredDuringExecution()
                            .withNewLabelSelector().addToMatchLabels("app", DriftScenario.APP).endLabelSelector()
                            .withTopologyKey("kubernetes.io/hostname")
                        .endRequiredDuringSchedulingIgnoredDuringExecution()
                    .endPodAntiAffinity().endAffinity()
                    .addNewContainer()
                        .withName("pause")
                        .withImage("public.ecr.aws/eks-distro/kubernetes/pause:3.7")
                        .withNewResources().addToRequests("cpu", new Quantity("500m")).endResources()
                    .endContainer()
                .endSpec()
            .endTemplate()
        .endSpec()
        .build();
  }
}
