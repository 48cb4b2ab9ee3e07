package dev.farrier.sandbox;

import dev.farrier.activities.cloud.simulated.AmiCatalog;
import dev.farrier.activities.cloud.simulated.CloudCallLog;
import dev.farrier.activities.cloud.simulated.SimulatedCloudConfig;
import dev.farrier.workflows.FarrierSearchAttributes;
import dev.farrier.workflows.WorkflowIds;
import java.io.PrintStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code make sandbox}: the local stack plays a named scenario end to end and prints what happened (the drift-upgrade
 * blueprint by default). {@code --keep} leaves everything running for kubectl and the Temporal UI, with a console
 * ({@link SandboxConsole}) that stops, kills and starts workers, until Ctrl-C.
 */
public final class Sandbox {
  static final String CLUSTER = "sandbox";
  public static final String FROM_VERSION = "1.34";
  static final String TO_VERSION = "1.35";

  /** The scenarios, by the name {@code --scenario} takes; the first is the default. */
  static final Map<String, String> SCENARIOS = scenarios();

  private Sandbox() {}

  private static Map<String, String> scenarios() {
    var all = new LinkedHashMap<String, String>();
    all.put("drift-upgrade", "the blueprint \"Update nodes using drift\": a drifted node replaced first, drained within its PDB");
    all.put("blocked-drain", "the same drift with a PDB allowing no eviction: the replacement names the PDB and its pods, "
        + "the PDB is relaxed, the drain goes on by itself");
    all.put("cloud-faults", "launches throttled, the catalogue failing and slow while the blueprint provisions (retried, "
        + "nothing launched twice); then every offering out of capacity: the NodePool says so, and when it is back");
    all.put("safety", "instances that are not exactly Farrier's survive garbage collection; a NodePool with an absurd limit "
        + "says why it is not Ready, and the good one still provisions");
    all.put("consolidation", "the blueprint's Deployment scaled down to one pod: its node, underutilized, is replaced by a"
        + " cheaper one once consolidateAfter (" + ConsolidationScenario.CONSOLIDATE_AFTER + ") has passed; then to none: the"
        + " empty node is removed");
    all.put("expiry", "the blueprint with expireAfter " + ExpiryScenario.EXPIRE_AFTER + ", terminationGracePeriod " + ExpiryScenario.GRACE
        + " and a PDB allowing no eviction: the expired node is drained at once, its replacement launched in parallel, the PDB"
        + " holds until the grace period ends, then its pods are deleted and move");
    all.put("upgrade", "farrier upgrade --wait as a CI job runs it: six nodes under a PDB rolled to the next AMI release, "
        + "canary of one, then batches of two, each gated; exit 0, every node on the new AMI");
    all.put("abort-then-upgrade", "two NodePools of two architectures on one EC2NodeClass: a rollout aborted during its "
        + "canary, then at once farrier upgrade --wait to the next AMI release; exit 0 only with every node on the new AMI, "
        + "the one the abort stopped included");
    all.put("upgrade-rolling", "the same rollout with --rolling: after the canary, up to two replacements in flight, each "
        + "gated on its own and its slot refilled as soon as it passed; exit 0, every node on the new AMI");
    all.put("bad-ami", "the same rollout to an AMI whose nodes never join: it stops after the canary, the old nodes stay, "
        + "the class is back on its images, farrier upgrade exits 5 naming the cause");
    all.put("gpu", "a pod asking for nvidia.com/gpu on an al2023@latest NodePool of NVIDIA types: a GPU type launched from the"
        + " alias's NVIDIA image, registered before its device plugin reports the GPU (" + GpuScenario.DEVICE_PLUGIN_DELAY + " later),"
        + " Initialized and the pod bound only once it does");
    all.put("overlay", "a NodeOverlay prices " + OverlayScenario.CHEAPENED_TYPE + " at $0.001/h: the pod of a NodePool of m5 and r5"
        + " types runs on one (else an m5.large); two overlays of equal weight marking up m5.large conflict, and the one left out"
        + " says so in its Ready condition");
    all.put("reserved", "a capacity reservation of " + ReservedScenario.RESERVED + " " + ReservedScenario.TYPE + " selected by the"
        + " EC2NodeClass and " + ReservedScenario.REPLICAS + " pods needing a node each: the reservation is filled first"
        + " (capacity type reserved, labelled with its id), the rest spill over to on-demand");
    all.put("static", "the blueprint's NodePool made static (replicas " + StaticScenario.REPLICAS + ", consolidateAfter 0s, no pods):"
        + " scaled to " + StaticScenario.SCALED_UP + " and back to " + StaticScenario.REPLICAS + " through the scale subresource"
        + " (kubectl scale nodepool); its empty nodes are never consolidated, only the scale-down removes two");
    all.put("headroom", "a NodePool annotated farrier.dev/headroom \"" + HeadroomScenario.HEADROOM + "\" (a refused value first, named in"
        + " its condition and an Event): two spare nodes with placeholders Running; a burst of " + HeadroomScenario.BURST + " pods runs on"
        + " them at once (placeholders preempted, no launch for the burst), new nodes come up for the displaced placeholders; the"
        + " annotation removed, the spare nodes are consolidated away");
    all.put("preview", "farrier upgrade --dry-run on the upgrade fleet with a do-not-disrupt pod: the canary and batches of"
        + " two, the held node, images before and after, no history yet, in text and JSON, and nothing moved; then farrier"
        + " upgrade preview on the rollout after its canary (what is left, the canary as history)");
    all.put("split", "a Deployment of " + SplitScenario.REPLICAS + " pods annotated farrier.dev/on-demand-min \"" + SplitScenario.MINIMUM
        + "\" and gated: at least 30% on on-demand, the rest on spot, kept after a spot interruption and a scale-out to "
        + SplitScenario.SCALED_OUT + " and back; raised by " + SplitScenario.RAISED_BY + " pods, spot pods evicted one at a time until it "
        + "holds; "
        + "a typo in the annotation keeps its pod gated with a Warning Event");
    all.put("migrate", "seed 002's v1alpha5 Provisioner (inline provider, empty-node TTL, expiry) and a Deployment on the old "
        + "label and annotation, migrated by farrier migrate --check, the v1 output applied: Farrier provisions its pods a node");
    all.put("surge", "a one-replica Deployment under a PDB minAvailable: 1 on a drifting node whose NodePool says farrier.dev/surge:"
        + " \"true\": refused while its maxSurge is 0 (SurgeRefused, the blocker says why), then surged: a rollout restart, the new"
        + " pod Ready on the replacement node before the old one goes, nothing evicted");
    return java.util.Collections.unmodifiableMap(all);
  }

  /** The command line, parsed by picocli; {@code --help} lists the scenarios. */
  @Command(name = "make sandbox SANDBOX_ARGS=\"...\"", sortOptions = false,
      description = "Brings up Temporal + Kubernetes + the simulated cloud and plays a scenario.")
  static final class Arguments implements Callable<Integer> {
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help, with the scenarios")
    boolean help;

    @Option(names = "--scenario", paramLabel = "NAME", description = "the scenario to play (default: ${DEFAULT-VALUE})",
        defaultValue = "drift-upgrade")
    String scenario;

    @Option(names = "--keep", description = "leave the stack up (kubectl, the farrier CLI, the Temporal UI) with a console "
        + "to stop, kill and start workers, until Ctrl-C or 'quit'")
    boolean keep;

    @Option(names = "--run-dir", paramLabel = "DIR", description = "where the stack, its logs and the workers' logs go "
        + "(default: ${DEFAULT-VALUE})", defaultValue = ".run/sandbox")
    Path runDir;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      if (!SCENARIOS.containsKey(scenario)) {
        throw new ParameterException(spec.commandLine(), "unknown scenario '" + scenario + "'");
      }
      return run(runDir.toAbsolutePath(), scenario, keep, System.out);
    }
  }

  /** The command line; its help lists the scenarios, each on one line, after the options. */
  static CommandLine commandLine() {
    var cli = new CommandLine(new Arguments());
    cli.getHelpSectionMap().put("scenarios", help -> {
      var text = new StringBuilder("%nScenarios:%n".formatted());
      SCENARIOS.forEach((name, what) -> text.append(String.format("  %-14s %s%n", name, what)));
      return text.toString();
    });
    var keys = new java.util.ArrayList<>(cli.getHelpSectionKeys());
    keys.add(keys.indexOf(CommandLine.Model.UsageMessageSpec.SECTION_KEY_FOOTER), "scenarios");
    cli.setHelpSectionKeys(keys);
    return cli;
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  static int run(Path runDir, String scenarioName, boolean keep, PrintStream out) throws Exception {
    SandboxEnvironment.recreate(runDir);
    var started = Instant.now();
    out.println("== starting the local stack in " + runDir);
    try (var env = SandboxEnvironment.start(runDir, CLUSTER, 8233)) {
      out.printf("   Temporal %s (UI %s), kube-apiserver %s (%.1fs)%n", env.stack().temporalAddress(), env.stack().temporalUiUrl(),
          env.stack().apiServerUrl(), Duration.between(started, Instant.now()).toMillis() / 1000.0);
      boolean safety = scenarioName.equals("safety");
      boolean rollout = scenarioName.equals("upgrade") || scenarioName.equals("upgrade-rolling") || scenarioName.equals("bad-ami")
          || scenarioName.equals("abort-then-upgrade") || scenarioName.equals("preview");
      boolean gpu = scenarioName.equals("gpu");
      var worker = safety ? env.startWorker(SandboxEnvironment.FAST_GC)
          : rollout ? env.startWorker(Map.of("FARRIER_LAUNCH_REGISTRATION_TIMEOUT", UpgradeScenario.REGISTRATION_TIMEOUT))
          : gpu ? env.startWorker(Map.of("FARRIER_SIMULATED_DEVICE_PLUGIN_DELAY", GpuScenario.DEVICE_PLUGIN_DELAY))
          : env.startWorker();
      out.println("== farrier worker running (pid " + worker.pid() + ", log " + worker.log() + ")");
      if (gpu) {
        out.println("== applying a GPU NodePool (al2023@latest, NVIDIA types, tainted nvidia.com/gpu) and pod " + GpuScenario.POD
            + " asking for one GPU");
        GpuScenario.report(new GpuScenario(env.kube(), CLUSTER, AmiCatalog.load(SimulatedCloudConfig.DEFAULT_KUBERNETES_VERSION),
            Duration.ofMinutes(5)).play(), out);
        return finish(env, keep, out);
      }
      if (scenarioName.equals("overlay")) {
        out.println("== applying a NodePool of m5 and r5 types, three NodeOverlays and pod " + OverlayScenario.POD);
        OverlayScenario.report(new OverlayScenario(env.kube(), CLUSTER, Duration.ofMinutes(5)).play(), out);
        return finish(env, keep, out);
      }
      if (scenarioName.equals("migrate")) {
        var migrate = new MigrateScenario(env, Duration.ofMinutes(5));
        try (var recorder = new ClusterRecorder(env.kube(), DriftScenario.NAMESPACE, DriftScenario.APP)) {
          MigrateScenario.report(migrate.play(Path.of("bin", "farrier").toAbsolutePath(), runDir.resolve("migrate"), out), out);
          printTimeline(env, recorder, started, out);
        }
        return finish(env, keep, out);
      }
      if (scenarioName.equals("reserved")) {
        var helpers = blueprint(env);
        try (var recorder = new ClusterRecorder(env.kube(), DriftScenario.NAMESPACE, DriftScenario.APP)) {
          ReservedScenario.report(new ReservedScenario(env, helpers, Duration.ofMinutes(5)).play(out), out);
          printTimeline(env, recorder, started, out);
        }
        return finish(env, keep, out);
      }
      if (scenarioName.equals("headroom")) {
        var helpers = blueprint(env);
        try (var recorder = new ClusterRecorder(env.kube(), DriftScenario.NAMESPACE, DriftScenario.APP)) {
          HeadroomScenario.report(new HeadroomScenario(env, helpers, Duration.ofMinutes(5)).play(out), out);
          out.println("== the placeholders: Deployment " + HeadroomScenario.deployment() + " (gone now), PriorityClass "
              + dev.farrier.activities.headroom.HeadroomPlaceholders.PRIORITY_CLASS);
          printTimeline(env, recorder, started, out);
        }
        return finish(env, keep, out);
      }
      if (scenarioName.equals("split")) {
        var helpers = blueprint(env);
        try (var recorder = new ClusterRecorder(env.kube(), DriftScenario.NAMESPACE, SplitScenario.APP)) {
          SplitScenario.report(new SplitScenario(env, helpers, Duration.ofMinutes(5)).play(out), out);
          printTimeline(env, recorder, started, out);
        }
        return finish(env, keep, out);
      }
      if (scenarioName.equals("surge")) {
        var helpers = blueprint(env);
        new SurgeScenario(env, helpers, Duration.ofMinutes(5)).play(out);
        return finish(env, keep, out);
      }
      if (scenarioName.equals("static")) {
        var helpers = blueprint(env);
        StaticScenario.report(new StaticScenario(env, helpers, Duration.ofMinutes(5)).play(out), out);
        return finish(env, keep, out);
      }
      if (scenarioName.equals("preview")) {
        var played = new PreviewScenario(env, Duration.ofMinutes(10)).play(Path.of("bin", "farrier").toAbsolutePath(), out);
        var problems = PreviewScenario.problems(played);
        if (!problems.isEmpty()) {
          throw new IllegalStateException("the preview scenario saw what it did not expect:\n   " + String.join("\n   ", problems));
        }
        out.println("== preview: as expected (Temporal UI " + env.stack().temporalUiUrl() + ": preview/" + UpgradeScenario.NODE_POOL
            + "/..., the rollout it previewed and its Preview Update)");
        return finish(env, keep, out);
      }
      if (rollout) {
        var fleet = new UpgradeScenario(env, Duration.ofMinutes(15));
        var farrier = Path.of("bin", "farrier").toAbsolutePath();
        if (scenarioName.equals("abort-then-upgrade")) {
          new AbortThenUpgradeScenario(env, Duration.ofMinutes(15)).play(farrier, out);
          out.println("== workflows (Temporal UI " + env.stack().temporalUiUrl() + "): the aborted rollout upgrade/nodeclass="
              + AbortThenUpgradeScenario.NODE_CLASS + "/k8s-" + AbortThenUpgradeScenario.FIRST_TARGET + ", the one after it and their"
              + " disrupt/<nodeclaim> replacements");
          return finish(env, keep, out);
        }
        if (scenarioName.equals("upgrade")) {
          fleet.playGood(farrier, List.of(), out);
        } else if (scenarioName.equals("upgrade-rolling")) {
          fleet.playGood(farrier, List.of("--rolling"), out);
        } else {
          fleet.playBadAmi(farrier, out);
        }
        out.println("== workflows (Temporal UI " + env.stack().temporalUiUrl() + "): the rollout upgrade/" + UpgradeScenario.NODE_POOL
            + "/..., its disrupt/<nodeclaim> replacements and their launch/<nodeclaim> children");
        return finish(env, keep, out);
      }
      var amis = new BlueprintAmis(AmiCatalog.load(SimulatedCloudConfig.DEFAULT_KUBERNETES_VERSION));
      var scenario = new DriftScenario(env.kube(), env.temporal(), CLUSTER, amis::al2, Duration.ofMinutes(5));
      try (var recorder = new ClusterRecorder(env.kube(), DriftScenario.NAMESPACE, DriftScenario.APP)) {
        out.printf("== applying the blueprint pinned to Kubernetes %s AMIs (%s, %s)%n", FROM_VERSION,
            amis.al2(FROM_VERSION, "amd64"), amis.al2(FROM_VERSION, "arm64"));
        boolean blockedDrain = scenarioName.equals("blocked-drain");
        var blocking = BlockedDrainScenario.blocking(BlockedDrainScenario.Budget.MAX_UNAVAILABLE_ZERO);
        if (blockedDrain) {
          out.println("   with PodDisruptionBudget " + BlockedDrainScenario.PDB + " at maxUnavailable: 0 (no eviction allowed)");
        }
        var faults = scenarioName.equals("cloud-faults") ? new CloudFaultsScenario(env, Duration.ofMinutes(5)) : null;
        if (faults != null) {
          faults.injectApiFaults(out);
        }
        boolean consolidation = scenarioName.equals("consolidation");
        boolean expiry = scenarioName.equals("expiry");
        var old = blockedDrain ? scenario.provision(FROM_VERSION, blocking)
            : consolidation ? scenario.provision(FROM_VERSION, ConsolidationScenario::edit)
            : expiry ? scenario.provision(FROM_VERSION, ExpiryScenario::edit) : scenario.provision(FROM_VERSION);
        out.printf("   %d inflate pods Ready on %s (nodeclaim %s, instance %s, image %s) after %.1fs%n", DriftScenario.REPLICAS,
            old.node(), old.nodeClaim(), old.instanceId(), old.imageId(), Duration.between(started, old.at()).toMillis() / 1000.0);
        if (safety) {
          new SafetyScenario(env, scenario, worker.log(), Duration.ofMinutes(5)).play(old, out);
          return finish(env, keep, out);
        }
        if (consolidation) {
          var consolidating = new ConsolidationScenario(env.kube(), scenario, Duration.ofMinutes(5));
          out.println("== scaling " + DriftScenario.APP + " to 1 replica (NodePool WhenEmptyOrUnderutilized, consolidateAfter "
              + ConsolidationScenario.CONSOLIDATE_AFTER + ", on-demand)");
          var replaced = consolidating.scaleDownAndAwaitReplacement(old);
          ConsolidationScenario.report(replaced, out);
          out.println("== scaling " + DriftScenario.APP + " to 0 replicas");
          ConsolidationScenario.report(consolidating.emptyAndAwaitRemoval(replaced.replacement()), out);
          printTimeline(env, recorder, started, out);
          return finish(env, keep, out);
        }
        if (expiry) {
          out.println("== waiting for the node to expire (expireAfter " + ExpiryScenario.EXPIRE_AFTER + ", terminationGracePeriod "
              + ExpiryScenario.GRACE + ", PDB maxUnavailable: 0)");
          ExpiryScenario.report(new ExpiryScenario(env.kube(), scenario, Duration.ofMinutes(5)).awaitExpiry(old), out);
          printTimeline(env, recorder, started, out);
          return finish(env, keep, out);
        }
        if (faults != null) {
          faults.reportApiFaults(out);
          faults.playCapacityLoss(out);
          return finish(env, keep, out);
        }
        out.printf("== switching the EC2NodeClass to Kubernetes %s AMIs (%s, %s)%n", TO_VERSION,
            amis.al2(TO_VERSION, "amd64"), amis.al2(TO_VERSION, "arm64"));
        var up = blockedDrain ? playBlockedDrain(env, scenario, old, out) : scenario.upgrade(old, TO_VERSION);
        out.printf("   replaced by %s (nodeclaim %s, image %s) in %.1fs; %d pods evicted; outcome %s%n", up.newNode(), up.newNodeClaim(),
            up.newImageId(), Duration.between(up.switchedAt(), up.doneAt()).toMillis() / 1000.0, up.result().evictedPods(), up.result().outcome());

        printTimeline(env, recorder, started, out);
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
      return finish(env, keep, out);
    }
  }

  /** The drift-upgrade blueprint on its AL2 images, whose steps (class, NodePool, workload, waits) the other scenarios reuse. */
  private static DriftScenario blueprint(SandboxEnvironment env) {
    var amis = new BlueprintAmis(AmiCatalog.load(SimulatedCloudConfig.DEFAULT_KUBERNETES_VERSION));
    return new DriftScenario(env.kube(), env.temporal(), CLUSTER, amis::al2, Duration.ofMinutes(5));
  }

  /** Farrier's Events, the app's pods and the cloud's calls, in time order. */
  private static void printTimeline(SandboxEnvironment env, ClusterRecorder recorder, Instant started, PrintStream out) {
    out.println("== timeline");
    var timeline = new Timeline().addFarrierEvents(env.kube()).addRecorder(recorder);
    for (var call : new CloudCallLog(env.cloudDir()).read()) {
      timeline.add(new Timeline.Entry(call.time(), "ec2", call.instanceId(), call.operation() + " " + call.detail()));
    }
    timeline.print(out, started);
  }

  /** Leaves the stack up until Ctrl-C with {@code --keep}, else returns 0. */
  private static int finish(SandboxEnvironment env, boolean keep, PrintStream out) throws Exception {
    if (keep) {
      out.println("== --keep: the stack stays up until Ctrl-C");
      out.println("   export KUBECONFIG=" + env.stack().kubeconfig() + "   # kubectl: " + env.stack().kubectl());
      out.println("   bin/farrier plan --cluster " + CLUSTER + " --address " + env.stack().temporalAddress());
      out.println("   bin/farrier list --cluster " + CLUSTER + " --address " + env.stack().temporalAddress());
      out.println("   Temporal UI: " + env.stack().temporalUiUrl());
      new SandboxConsole(env, out).run(System.in);
    }
    out.println("== done");
    return 0;
  }

  /** Switches the AMIs, shows the replacement held by the PDB and what names it, relaxes the PDB, waits for the end. */
  private static DriftScenario.Upgraded playBlockedDrain(SandboxEnvironment env, DriftScenario scenario,
      DriftScenario.Provisioned old, PrintStream out) {
    var blockedDrain = new BlockedDrainScenario(env.kube(), env.temporal(), scenario, Duration.ofMinutes(5));
    var switchedAt = scenario.switchImages(TO_VERSION);
    var blocked = blockedDrain.awaitBlocked(old);
    var progress = blocked.progress();
    out.printf("   %s draining since %.1fs after the switch; blocker named %.1fs later:%n", blocked.workflowId(),
        Duration.between(switchedAt, blocked.drainingAt()).toMillis() / 1000.0,
        Duration.between(blocked.drainingAt(), blocked.namedAt()).toMillis() / 1000.0);
    out.printf("     phase %s, blocked by %s%n     pods held %s, evicted %s, replacement %s%n", progress.phase(), progress.blockedBy(),
        progress.blocker().pods(), progress.evicted(), progress.replacement());
    for (var kind : new String[] {"Node", "NodeClaim"}) {
      String name = kind.equals("Node") ? old.node() : old.nodeClaim();
      for (var event : blockedDrain.events(kind, name, "DrainBlocked")) {
        out.printf("     Event %s/%s %s %s: %s%n", kind, name, event.getType(), event.getReason(), event.getMessage());
      }
    }
    out.println("   see it: bin/farrier status " + old.nodeClaim() + " --address " + env.stack().temporalAddress()
        + "; bin/farrier list --blocked --address " + env.stack().temporalAddress());
    out.println("   Temporal UI: " + env.stack().temporalUiUrl() + "/namespaces/default/workflows?query="
        + URLEncoder.encode(FarrierSearchAttributes.BLOCKED_REPLACEMENTS_QUERY, StandardCharsets.UTF_8).replace("+", "%20"));
    var relaxedAt = blockedDrain.relax();
    out.println("== relaxed " + BlockedDrainScenario.PDB + " to minAvailable: " + DriftScenario.MIN_AVAILABLE);
    var resumedAt = blockedDrain.awaitFirstEviction(blocked);
    out.printf("   the drain went on by itself %.1fs later%n", Duration.between(relaxedAt, resumedAt).toMillis() / 1000.0);
    return scenario.awaitUpgrade(old, switchedAt);
  }

}
