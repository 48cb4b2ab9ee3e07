package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.workflows.FarrierSearchAttributes;
import dev.farrier.workflows.replacement.Blocker;
import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import dev.farrier.sandbox.BlockedDrainScenario;
import dev.farrier.sandbox.DriftScenario;
import dev.farrier.sandbox.SandboxEnvironment;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The most common stuck replacement, end to end on the real local stack: a drifted node whose pods a
 * PodDisruptionBudget forbids evicting. The replacement names the PDB and the pods it protects within seconds of the
 * first refusal (in its query, its search attributes and Events on the Node and NodeClaim), evicts nothing while the
 * PDB holds, and goes on by itself once the PDB is relaxed; no activity outlives its heartbeat. Played once per kind of
 * budget, each a class of its own ({@link BlockedDrainMaxUnavailableIT}, {@link BlockedDrainMinAvailableIT}) so the
 * integration test JVMs share them out.
 */
abstract class BlockedDrainPlay {
  /** The promises: the blocker is named within 15 s of the first refusal; a relaxed PDB is noticed within 30 s. */
  private static final Duration NAMED_WITHIN = Duration.ofSeconds(15);
  private static final Duration RESUMED_WITHIN = Duration.ofSeconds(30);

  static void play(BlockedDrainScenario.Budget budget) throws Exception {
    var runDir = E2e.runDir("blocked-drain-" + budget.name().toLowerCase());
    try (var env = SandboxEnvironment.start(runDir, "e2e-blocked", 0)) {
      var worker = env.startWorker();
      var drift = E2e.scenario(env);
      var scenario = new BlockedDrainScenario(env.kube(), env.temporal(), drift, E2e.TIMEOUT);
      var old = drift.provision("1.34", BlockedDrainScenario.blocking(budget));
      Set<String> pods = drift.readyAppPods().stream()
          .map(p -> DriftScenario.NAMESPACE + "/" + p.getMetadata().getName()).collect(Collectors.toSet());
      var switchedAt = drift.switchImages("1.35");

      var blocked = scenario.awaitBlocked(old);

      var progress = blocked.progress();
      assertTrue(Duration.between(blocked.drainingAt(), blocked.namedAt()).compareTo(NAMED_WITHIN) <= 0,
          "blocker named " + Duration.between(blocked.drainingAt(), blocked.namedAt()) + " after the drain began");
      String pdb = DriftScenario.NAMESPACE + "/" + BlockedDrainScenario.PDB;
      assertEquals("PodDisruptionBudget " + pdb, progress.blockedBy());
      assertEquals(Blocker.Kind.PDB, progress.blocker().kind());
      assertEquals(List.of(pdb), progress.blocker().budgets());
      assertEquals(pods, Set.copyOf(progress.blocker().pods()), "the pods the PDB protects");
      var attributes = env.temporal().newUntypedWorkflowStub(blocked.workflowId()).describe().getTypedSearchAttributes();
      assertEquals("PodDisruptionBudget " + pdb, attributes.get(FarrierSearchAttributes.BLOCKER));
      assertEquals("Draining", attributes.get(FarrierSearchAttributes.PHASE));
      assertEquals(old.nodeClaim(), attributes.get(FarrierSearchAttributes.NODE_CLAIM));
      assertEquals("drifted", attributes.get(FarrierSearchAttributes.REASON));
      E2e.await("DrainBlocked Events on the Node and the NodeClaim", E2e.TIMEOUT, () ->
          scenario.events("Node", old.node(), "DrainBlocked").stream().anyMatch(e -> e.getMessage().contains(pdb))
              && scenario.events("NodeClaim", old.nodeClaim(), "DrainBlocked").stream().anyMatch(e -> e.getMessage().contains(pdb)));

      if (budget == BlockedDrainScenario.Budget.MAX_UNAVAILABLE_ZERO) {
        // What an operator does: docs/operate.md's query in the Temporal UI, in a real headless browser.
        try (var ui = TemporalUiBrowser.open(env.stack().temporalUiUrl(), runDir.resolve("ui"))) {
          var rows = ui.listWorkflows("default", FarrierSearchAttributes.BLOCKED_REPLACEMENTS_QUERY, r -> !r.isEmpty());
          assertEquals(List.of(blocked.workflowId()), rows.stream().map(TemporalUiBrowser.WorkflowRow::workflowId).toList());
          assertEquals("NodeReplacementWorkflow", rows.getFirst().type());
          var shown = ui.searchAttributes("default", blocked.workflowId(), a -> a.containsKey("FarrierBlocker"));
          assertEquals("Draining", shown.get("FarrierPhase"));
          assertEquals("PodDisruptionBudget " + pdb, shown.get("FarrierBlocker"));
          assertEquals(old.node(), shown.get("FarrierNode"));
        }
      }

      // A few more refused passes change nothing: no pod leaves, the blocker keeps its first time.
      var replacement = env.temporal().newWorkflowStub(NodeReplacementWorkflow.class, blocked.workflowId());
      long passesBefore = workerLogCount(worker.log(), "eviction blocked");
      E2e.await("two more refused passes", E2e.TIMEOUT, () -> workerLogCount(worker.log(), "eviction blocked") >= passesBefore + 2 * pods.size());
      var later = replacement.progress();
      assertEquals(List.of(), later.evicted(), "nothing evicted while the PDB holds");
      assertEquals(progress.blocker().sinceMillis(), later.blocker().sinceMillis(), "blocked since the first refusal");
      assertEquals(pods.size(), drift.readyAppPods().size());
      assertTrue(drift.readyAppPods().stream().allMatch(p -> old.node().equals(p.getSpec().getNodeName())));

      var relaxedAt = scenario.relax();
      var resumedAt = scenario.awaitFirstEviction(blocked);
      assertTrue(Duration.between(relaxedAt, resumedAt).compareTo(RESUMED_WITHIN) <= 0,
          "the drain went on " + Duration.between(relaxedAt, resumedAt) + " after the PDB was relaxed");
      var up = drift.awaitUpgrade(old, switchedAt);

      assertEquals("Done", up.result().outcome());
      assertEquals(pods.size(), up.result().evictedPods());
      var done = env.temporal().newUntypedWorkflowStub(blocked.workflowId()).describe().getTypedSearchAttributes();
      assertFalse(done.containsKey(FarrierSearchAttributes.BLOCKER), "no blocker once done");
      assertEquals(0, workerLogCount(worker.log(), "eartbeat timed out"), "an activity outlived its heartbeat: " + worker.log());
      E2e.assertInstancesMatchNodes(env);
    }
  }

  private static long workerLogCount(java.nio.file.Path log, String text) {
    try (var lines = Files.lines(log)) {
      return lines.filter(l -> l.contains(text)).count();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
