package dev.farrier.worker.sandbox;

import dev.farrier.activities.cloud.simulated.AmiCatalog;
import dev.farrier.activities.cloud.simulated.CloudCallLog;
import dev.farrier.activities.cloud.simulated.SimulatedCloudConfig;
import dev.farrier.workflows.WorkflowIds;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;

/**
 * {@code make sandbox}: the local stack plays the drift-upgrade blueprint end to end and prints what happened.
 * {@code --keep} leaves everything running for kubectl and the Temporal UI until Ctrl-C.
 */
public final class Sandbox {
  static final String CLUSTER = "sandbox";
  static final String FROM_VERSION = "1.34";
  static final String TO_VERSION = "1.35";

  private Sandbox() {}

  public static void main(String[] args) throws Exception {
    boolean keep = false;
    Path runDir = Path.of(".run", "sandbox").toAbsolutePath();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--keep" -> keep = true;
        case "--run-dir" -> runDir = Path.of(args[++i]).toAbsolutePath();
        default -> {
          System.err.println("usage: sandbox [--keep] [--run-dir DIR]");
          System.exit(2);
        }
      }
    }
    System.exit(run(runDir, keep, System.out));
  }

  static int run(Path runDir, boolean keep, PrintStream out) throws Exception {
    SandboxEnvironment.recreate(runDir);
    var started = Instant.now();
    out.println("== starting the local stack in " + runDir);
    try (var env = SandboxEnvironment.start(runDir, CLUSTER, 8233)) {
      out.printf("   Temporal %s (UI %s), kube-apiserver %s (%.1fs)%n", env.stack().temporalAddress(), env.stack().temporalUiUrl(),
          env.stack().apiServerUrl(), Duration.between(started, Instant.now()).toMillis() / 1000.0);
      var worker = env.startWorker();
      out.println("== farrier worker running (pid " + worker.pid() + ", log " + worker.log() + ")");
      var amis = new BlueprintAmis(AmiCatalog.load(SimulatedCloudConfig.DEFAULT_KUBERNETES_VERSION));
      var scenario = new DriftScenario(env.kube(), env.temporal(), CLUSTER, amis::al2, Duration.ofMinutes(5));
      try (var recorder = new ClusterRecorder(env.kube(), DriftScenario.NAMESPACE, DriftScenario.APP)) {
        out.printf("== applying the blueprint pinned to Kubernetes %s AMIs (%s, %s)%n", FROM_VERSION,
            amis.al2(FROM_VERSION, "amd64"), amis.al2(FROM_VERSION, "arm64"));
        var old = scenario.provision(FROM_VERSION);
        out.printf("   %d inflate pods Ready on %s (nodeclaim %s, instance %s, image %s) after %.1fs%n", DriftScenario.REPLICAS,
            old.node(), old.nodeClaim(), old.instanceId(), old.imageId(), Duration.between(started, old.at()).toMillis() / 1000.0);
        out.printf("== switching the EC2NodeClass to Kubernetes %s AMIs (%s, %s)%n", TO_VERSION,
            amis.al2(TO_VERSION, "amd64"), amis.al2(TO_VERSION, "arm64"));
        var up = scenario.upgrade(old, TO_VERSION);
        out.printf("   replaced by %s (nodeclaim %s, image %s) in %.1fs; %d pods evicted; outcome %s%n", up.newNode(), up.newNodeClaim(),
            up.newImageId(), Duration.between(up.switchedAt(), up.doneAt()).toMillis() / 1000.0, up.result().evictedPods(), up.result().outcome());

        out.println("== timeline");
        var timeline = new Timeline().addFarrierEvents(env.kube()).addRecorder(recorder);
        for (var call : new CloudCallLog(env.cloudDir()).read()) {
          timeline.add(new Timeline.Entry(call.time(), "ec2", call.instanceId(), call.operation() + " " + call.detail()));
        }
        timeline.print(out, started);
        out.println("== worker log");
        try (var lines = Files.lines(worker.log())) {
          lines.filter(l -> l.contains("disrupting nodeclaim")).forEach(l -> out.println("   " + l));
        }
        out.println("== workflows (Temporal UI " + env.stack().temporalUiUrl() + ")");
        for (var id : new String[] {WorkflowIds.reconciler(CLUSTER), WorkflowIds.provisioning(CLUSTER, 0), WorkflowIds.launch(old.nodeClaim()),
            up.replacementWorkflowId(), WorkflowIds.launch(up.newNodeClaim())}) {
          out.println("   " + id);
        }
      }
      if (keep) {
        out.println("== --keep: the stack stays up until Ctrl-C");
        out.println("   export KUBECONFIG=" + env.stack().kubeconfig() + "   # kubectl: " + env.stack().kubectl());
        out.println("   bin/farrier plan --cluster " + CLUSTER + " --address " + env.stack().temporalAddress());
        out.println("   Temporal UI: " + env.stack().temporalUiUrl());
        var done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(done::countDown));
        done.await();
      }
    }
    out.println("== done");
    return 0;
  }

}
