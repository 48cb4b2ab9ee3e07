package dev.farrier.activities.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.workflows.activities.SurgeOutcome.Result;
import io.fabric8.kubernetes.api.model.IntOrString;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SurgeRulesTest {
  private static final String UID = "uid-old";
  private static final SurgeFacts.OptIn BY_DEPLOYMENT = new SurgeFacts.OptIn("true", null);
  private static final SurgeFacts.Rollout SETTLED = new SurgeFacts.Rollout(3, 3, 1, 1, 1, false, null);

  /** One replica, RollingUpdate with the defaults (25% / 25%), settled, no volumes, opted in on the Deployment. */
  private static SurgeFacts facts() {
    return new SurgeFacts(UID, false, "default/web", null, BY_DEPLOYMENT, false, null, null, null, 1, SETTLED, null, List.of());
  }

  /** An IntOrString as YAML reads it: digits an integer, anything else a string. */
  private static IntOrString value(String written) {
    return written == null ? null : written.matches("[0-9]+") ? new IntOrString(Integer.parseInt(written)) : new IntOrString(written);
  }

  private static SurgeFacts with(SurgeFacts f, String strategy, String maxSurge, String maxUnavailable, Integer replicas) {
    return new SurgeFacts(f.podUid(), f.podLeaving(), f.deployment(), f.managedBy(), f.optIn(), f.paused(), strategy,
        value(maxSurge), value(maxUnavailable), replicas,
        replicas == null ? f.rollout() : new SurgeFacts.Rollout(3, 3, replicas, replicas, replicas, false, null),
        f.surgedPod(), f.volumes());
  }

  @Test
  void aSettledSingleReplicaDeploymentWithTheDefaultStrategySurges() {
    var decision = SurgeRules.decide(facts());
    assertEquals(Result.STARTED, decision.result());
    assertNull(decision.reason());
  }

  @ParameterizedTest(name = "template {0}, NodePool {1}: {2}")
  @CsvSource(nullValues = "-", value = {
      "true, -, IN",
      "-, true, IN",
      "-, -, OUT",
      "false, true, OUT",
      "-, false, OUT",
      "yes, -, INVALID",
      "yes, true, INVALID",
      "-, 'True', OUT",
      "true, 'True', IN"})
  void optInIsTheTemplatesOrItsNodePoolsAndTheTemplatesFalseWinsAndAnInvalidNodePoolValueOptsNoPodIn(String template,
      String nodePool, SurgeRules.OptIn expected) {
    assertEquals(expected, SurgeRules.optIn(new SurgeFacts.OptIn(template, nodePool)));
  }

  @Test
  void notOptedInIsNotASurgesBusinessAndAnInvalidValueIsRefusedNamed() {
    var f = facts();
    var out = new SurgeFacts(UID, false, f.deployment(), null, new SurgeFacts.OptIn(null, null), false, null, null, null, 1, SETTLED,
        null, List.of());
    assertEquals(Result.NOT_APPLICABLE, SurgeRules.decide(out).result());
    var invalid = new SurgeFacts(UID, false, f.deployment(), null, new SurgeFacts.OptIn("yes", null), false, null, null, null, 1,
        SETTLED, null, List.of());
    var decision = SurgeRules.decide(invalid);
    assertEquals(Result.REFUSED, decision.result());
    assertEquals("farrier.dev/surge must be \"true\" or \"false\", not \"yes\"", decision.reason());
  }

  @Test
  void maxSurgeZeroIsRefusedBecauseNoNewPodMayStartFirst() {
    var decision = SurgeRules.decide(with(facts(), "RollingUpdate", "0", "1", 1));
    assertEquals(Result.REFUSED, decision.result());
    assertEquals("maxSurge 0 resolves to 0 for 1 replica(s): no new pod may start before the old one goes", decision.reason());
  }

  @Test
  void aPercentageOfMaxSurgeThatRoundsToZeroIsRefusedToo() {
    assertEquals(Result.REFUSED, SurgeRules.decide(with(facts(), "RollingUpdate", "0%", "0", 1)).result());
  }

  @Test
  void maxUnavailableAboveZeroForItsReplicasIsRefusedBecauseTheOldPodCouldGoFirst() {
    var one = SurgeRules.decide(with(facts(), "RollingUpdate", "1", "1", 1));
    assertEquals(Result.REFUSED, one.result());
    assertTrue(one.reason().startsWith("maxUnavailable 1 resolves to 1 for 1 replica(s)"), one.reason());
    // A percentage rounds down for one replica: 99% is 0, 100% is 1.
    assertEquals(Result.STARTED, SurgeRules.decide(with(facts(), "RollingUpdate", "1", "99%", 1)).result());
    var all = SurgeRules.decide(with(facts(), "RollingUpdate", "1", "100%", 1));
    assertEquals(Result.REFUSED, all.result());
    assertTrue(all.reason().startsWith("maxUnavailable 100% resolves to 1 for 1 replica(s)"), all.reason());
  }

  @ParameterizedTest(name = "{0} replicas")
  @CsvSource({"0", "2", "3"})
  void onlyASingleReplicaDeploymentIsSurgedBecauseARestartReplacesEveryPod(int replicas) {
    var decision = SurgeRules.decide(with(facts(), null, null, null, replicas));
    assertEquals(Result.REFUSED, decision.result());
    assertEquals("the Deployment has " + replicas + " replicas: a rollout restart would replace every one of them to move "
        + "one; only single-replica Deployments are surged", decision.reason());
  }

  @Test
  void aMalformedMaxSurgeIsRefusedNamedNotThrown() {
    var decision = SurgeRules.decide(with(facts(), "RollingUpdate", "one", "0", 1));
    assertEquals(Result.REFUSED, decision.result());
    assertEquals("maxSurge \"one\" is neither an integer nor a percentage", decision.reason());
    assertEquals("maxUnavailable \"x%\" is neither an integer nor a percentage",
        SurgeRules.decide(with(facts(), "RollingUpdate", "1", "x%", 1)).reason());
    var quotedInteger = new SurgeFacts(UID, false, "default/web", null, BY_DEPLOYMENT, false, "RollingUpdate",
        new IntOrString("1"), new IntOrString(0), 1, SETTLED, null, List.of());
    assertEquals("maxSurge \"1\" is neither an integer nor a percentage", SurgeRules.decide(quotedInteger).reason(),
        "a string that is no percentage, which the Deployment controller refuses too");
  }

  @Test
  void aDeploymentAnotherControllerOwnsIsSurgedOnlyWhenItOptedInItself() {
    var f = facts();
    var byPool = new SurgeFacts(UID, false, f.deployment(), "Rollout web", new SurgeFacts.OptIn(null, "true"), false,
        null, null, null, 1, SETTLED, null, List.of());
    var decision = SurgeRules.decide(byPool);
    assertEquals(Result.REFUSED, decision.result());
    assertEquals("the Deployment is managed by Rollout web, which may write its template back over a restart: opt the "
        + "Deployment in itself (farrier.dev/surge: \"true\" on its pod template) to surge it", decision.reason());
    var itself = new SurgeFacts(UID, false, f.deployment(), "Rollout web", new SurgeFacts.OptIn("true", "true"), false,
        null, null, null, 1, SETTLED, null, List.of());
    assertEquals(Result.STARTED, SurgeRules.decide(itself).result());
  }

  @Test
  void recreateAndAPausedDeploymentAreRefused() {
    var recreate = SurgeRules.decide(with(facts(), "Recreate", null, null, 1));
    assertEquals(Result.REFUSED, recreate.result());
    assertEquals("strategy Recreate stops the old pod before the new one starts", recreate.reason());
    var f = facts();
    var paused = new SurgeFacts(UID, false, f.deployment(), null, f.optIn(), true, null, null, null, 1, SETTLED, null, List.of());
    assertEquals("the Deployment is paused: its controller would not start a new pod", SurgeRules.decide(paused).reason());
  }

  @Test
  void aReadWriteOnceVolumeOrOnePinnedByNodeAffinityIsRefused() {
    var f = facts();
    var rwo = new SurgeFacts(UID, false, f.deployment(), null, f.optIn(), false, null, null, null, 1, SETTLED, null,
        List.of(new SurgeFacts.Volume("data", List.of("ReadWriteOnce"), null)));
    var decision = SurgeRules.decide(rwo);
    assertEquals(Result.REFUSED, decision.result());
    assertEquals("the pod mounts PersistentVolumeClaim data (ReadWriteOnce): a new pod on another node cannot share it",
        decision.reason());
    var pinned = new SurgeFacts(UID, false, f.deployment(), null, f.optIn(), false, null, null, null, 1, SETTLED, null,
        List.of(new SurgeFacts.Volume("shared", List.of("ReadWriteMany"), "topology.kubernetes.io/zone In [us-west-2a]")));
    assertEquals(Result.REFUSED, SurgeRules.decide(pinned).result());
    assertTrue(SurgeRules.decide(pinned).reason().contains("pinned to topology.kubernetes.io/zone In [us-west-2a]"));
    var shared = new SurgeFacts(UID, false, f.deployment(), null, f.optIn(), false, null, null, null, 1, SETTLED, null,
        List.of(new SurgeFacts.Volume("shared", List.of("ReadWriteMany"), null)));
    assertEquals(Result.STARTED, SurgeRules.decide(shared).result());
  }

  @Test
  void aRolloutInProgressIsRefusedSoTwoNeverRunAtOnce() {
    var f = facts();
    var rolling = new SurgeFacts(UID, false, f.deployment(), null, f.optIn(), false, null, null, null, 1,
        new SurgeFacts.Rollout(4, 4, 2, 1, 1, false, null), null, List.of());
    var decision = SurgeRules.decide(rolling);
    assertEquals(Result.REFUSED, decision.result());
    // No live counts in the reason: an Event's name hashes it, so a changing count would record a new Event each time.
    assertEquals("the Deployment is not settled, a rollout may be in progress: one at a time", decision.reason());
    var unavailable = new SurgeFacts(UID, false, f.deployment(), null, f.optIn(), false, null, null, null, 1,
        new SurgeFacts.Rollout(4, 4, 1, 1, 0, false, null), null, List.of());
    assertEquals(Result.REFUSED, SurgeRules.decide(unavailable).result(), "its one replica not available");
    var surplus = new SurgeFacts(UID, false, f.deployment(), null, f.optIn(), false, null, null, null, 1,
        new SurgeFacts.Rollout(4, 4, 2, 1, 1, false, null), null, List.of());
    assertEquals(Result.REFUSED, SurgeRules.decide(surplus).result(), "an old pod still counted beside the updated one");
    var unobserved = new SurgeFacts(UID, false, f.deployment(), null, f.optIn(), false, null, null, null, 1,
        new SurgeFacts.Rollout(5, 4, 1, 1, 1, false, null), null, List.of());
    assertEquals(Result.REFUSED, SurgeRules.decide(unobserved).result());
  }

  @Test
  void theSurgeOfThisPodIsReportedNotStartedAgainAndAStallIsNamed() {
    var f = facts();
    var rolling = new SurgeFacts.Rollout(4, 4, 2, 1, 1, false, null);
    var surging = new SurgeFacts(UID, false, f.deployment(), null, f.optIn(), false, null, null, null, 1, rolling, UID, List.of());
    assertEquals(Result.SURGING, SurgeRules.decide(surging).result());
    var stalled = new SurgeFacts(UID, false, f.deployment(), null, f.optIn(), false, null, null, null, 1,
        new SurgeFacts.Rollout(4, 4, 2, 1, 1, true, 120), UID, List.of());
    var decision = SurgeRules.decide(stalled);
    assertEquals(Result.STALLED, decision.result());
    assertTrue(decision.reason().contains("progressDeadlineSeconds (120s)"), decision.reason());
    // Another pod's mark: a surge of this pod is a new one, refused while the other one rolls.
    var other = new SurgeFacts(UID, false, f.deployment(), null, f.optIn(), false, null, null, null, 1, rolling, "uid-other", List.of());
    assertEquals(Result.REFUSED, SurgeRules.decide(other).result());
  }

  private static SurgeFacts surged(boolean paused, SurgeFacts.Rollout rollout, boolean podLeaving) {
    var f = facts();
    return new SurgeFacts(UID, podLeaving, f.deployment(), null, f.optIn(), paused, null, null, null, 1, rollout, UID, List.of());
  }

  @Test
  void aSurgeWhoseDeploymentWasPausedSinceIsStalledNotWaitedForForEver() {
    var decision = SurgeRules.decide(surged(true, new SurgeFacts.Rollout(4, 4, 2, 1, 1, false, null), false));
    assertEquals(Result.STALLED, decision.result());
    assertEquals("the Deployment was paused after the surge started: its controller starts no new pod while it is paused; "
        + "resume it, or force the drain", decision.reason());
  }

  @Test
  void aRolloutThatFinishedWithoutReplacingThePodIsStalledUnlessThePodIsLeaving() {
    var settled = new SurgeFacts.Rollout(4, 4, 1, 1, 1, false, null);
    var reverted = SurgeRules.decide(surged(false, settled, false));
    assertEquals(Result.STALLED, reverted.result());
    assertEquals("the Deployment's rollout finished without replacing the pod (its template reverted?); Farrier does not "
        + "surge it again: see the Deployment's history, or force the drain", reverted.reason());
    assertEquals(Result.SURGING, SurgeRules.decide(surged(false, settled, true)).result(),
        "the old pod terminating: the controller is removing it");
    var unobserved = new SurgeFacts.Rollout(5, 4, 1, 1, 1, false, null);
    assertEquals(Result.SURGING, SurgeRules.decide(surged(false, unobserved, false)).result(),
        "the restart not observed yet is still to come");
  }

  @ParameterizedTest(name = "{0} of {1} replicas: surge {2}, unavailable {3}")
  @CsvSource({"25%, 1, 1, 0", "25%, 4, 1, 1", "50%, 3, 2, 1", "2, 10, 2, 2", "0, 1, 0, 0", "10%, 1, 1, 0"})
  void percentagesResolveAsTheDeploymentControllerResolvesThem(String value, int replicas, int surge, int unavailable) {
    assertEquals(Integer.valueOf(surge), SurgeRules.resolve(value(value), replicas, true));
    assertEquals(Integer.valueOf(unavailable), SurgeRules.resolve(value(value), replicas, false));
  }
}
