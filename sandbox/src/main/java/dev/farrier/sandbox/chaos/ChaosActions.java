package dev.farrier.sandbox.chaos;

import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.cloud.Ownership;
import dev.farrier.activities.cloud.simulated.SimulatedInstance;
import dev.farrier.activities.cloud.simulated.InjectedFault;
import dev.farrier.activities.cloud.simulated.OfferingKey;
import dev.farrier.activities.cloud.simulated.SimulatedCloud;
import dev.farrier.activities.cloud.simulated.SimulatedInterruptions;
import dev.farrier.localstack.LocalStack;
import dev.farrier.model.WellKnown;
import dev.farrier.sandbox.SandboxEnvironment;
import dev.farrier.sandbox.chaos.ChaosPlan.Step;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Plays one {@link Step} on the sandbox and says what it did. Every fault stays on this machine: signals go only to
 * processes the sandbox started (the workers, and the stack's components by their process ids), the cloud's faults are
 * the simulated cloud's switches, and a step's hold is bounded by the plan. {@link #restoreAll} undoes whatever a step
 * interrupted midway (a component left paused or stopped, a fault switch, lost capacity, a dead worker).
 */
final class ChaosActions {
  private final SandboxEnvironment env;
  private final SimulatedCloud cloud;
  private final SimulatedInterruptions interruptions;
  private final ChaosFleet fleet;
  private final Supplier<String> rollout;
  private final AtomicInteger edits = new AtomicInteger();

  /**
   * @param rollout starts {@code farrier upgrade} of the rolled NodePool in the background and says so, or why not (the
   *     soak owns the CLI process and its result)
   */
  ChaosActions(SandboxEnvironment env, SimulatedCloud cloud, ChaosFleet fleet, Supplier<String> rollout) {
    this.env = env;
    this.cloud = cloud;
    this.interruptions = env.interruptions();
    this.fleet = fleet;
    this.rollout = rollout;
  }

  /** Plays {@code step}, holding for its hold; returns what it did, in a few words. */
  String play(Step step) throws IOException, InterruptedException {
    return switch (step.kind()) {
      case KILL_LEADER -> killWorker(step, true);
      case KILL_OTHER -> killWorker(step, false);
      case ROLLING_RESTART -> {
        for (int n = 1; n <= env.workers().size(); n++) {
          env.restartWorker(n);
        }
        yield "restarted workers 1.." + env.workers().size() + " with SIGTERM";
      }
      case TEMPORAL_KILL -> down(LocalStack.TEMPORAL, step.hold());
      case API_SERVER_RESTART -> down(LocalStack.API_SERVER, Duration.ZERO);
      case TEMPORAL_HANG -> hang(LocalStack.TEMPORAL, step.hold());
      case API_SERVER_HANG -> hang(LocalStack.API_SERVER, step.hold());
      case KWOK_STALL -> hang(LocalStack.KWOK, step.hold());
      case EC2_THROTTLING -> ec2(InjectedFault.Kind.THROTTLING, step);
      case EC2_SERVER_ERROR -> ec2(InjectedFault.Kind.SERVER_ERROR, step);
      case EC2_SLOW -> ec2(InjectedFault.Kind.SLOW, step);
      case CAPACITY_LOSS -> {
        Set<OfferingKey> cheapest = cheapestOfferings();
        cloud.setOfferingsAvailable(cheapest::contains, false);
        try {
          Thread.sleep(step.hold());
        } finally {
          cloud.setOfferingsAvailable(cheapest::contains, true);
        }
        yield cheapest.size() + " cheapest offerings without capacity for " + step.hold().toSeconds() + "s";
      }
      case SCALE_BATCH -> "batch scaled to " + fleet.scale(ChaosFleet.BATCH, step.amount());
      case SCALE_SPOT -> "spot-web scaled to " + fleet.scale(ChaosFleet.SPOT_WEB, step.amount());
      case SPOT_INTERRUPTION -> spot(step).map(i -> {
        interruptions.interrupt(i.id());
        return "interrupted " + i.id() + " (" + i.tags().get(WellKnown.TAG_NODECLAIM) + ")";
      }).orElse("no running spot instance to interrupt");
      case REBALANCE -> spot(step).map(i -> {
        interruptions.recommendRebalance(i.id());
        return "rebalance recommended for " + i.id() + " (" + i.tags().get(WellKnown.TAG_NODECLAIM) + ")";
      }).orElse("no running spot instance to warn");
      case AMI_DRIFT -> "EC2NodeClass " + ChaosFleet.CONSOLIDATING + " moved to " + fleet.drift(ChaosFleet.CONSOLIDATING);
      case ROLLOUT -> rollout.get();
      case EDIT_ROLLED_POOL -> {
        String value = Integer.toString(edits.incrementAndGet());
        fleet.editRolledPool(value);
        yield "NodePool " + ChaosFleet.ROLLED + " template label chaos-edit=" + value;
      }
    };
  }

  private String killWorker(Step step, boolean leader) throws IOException, InterruptedException {
    String holder = leaseHolder();
    int held = holder.startsWith("worker-") ? Integer.parseInt(holder.substring("worker-".length())) : 1;
    int number = leader ? held : held % env.workers().size() + 1;
    env.workers().get(number - 1).kill9();
    Thread.sleep(step.hold());
    env.restartWorker(number);
    return "kill -9 worker-" + number + " (the Lease holder read: " + holder + "), back after " + step.hold().toSeconds() + "s";
  }

  /** Who holds the workers' Lease, as read now; "unknown" when it cannot be read (the API server down or hung). */
  private String leaseHolder() {
    try {
      return java.util.Objects.requireNonNullElse(env.leader(), "none");
    } catch (RuntimeException e) {
      return "unknown";
    }
  }

  private String down(String component, Duration hold) throws InterruptedException {
    env.stack().kill(component);
    Thread.sleep(hold);
    env.stack().startAgain(component);
    return "kill -9 " + component + ", back after " + hold.toSeconds() + "s";
  }

  private String hang(String component, Duration hold) throws InterruptedException {
    env.stack().pause(component);
    try {
      Thread.sleep(hold);
    } finally {
      env.stack().resume(component);
    }
    return "SIGSTOP " + component + " for " + hold.toSeconds() + "s";
  }

  private String ec2(InjectedFault.Kind kind, Step step) throws InterruptedException {
    cloud.injectFault("*", kind, step.hold(), Duration.ofMillis(step.amount()));
    Thread.sleep(step.hold());
    return "every EC2 call " + kind + (kind == InjectedFault.Kind.SLOW ? " +" + step.amount() + "ms" : "") + " for "
        + step.hold().toSeconds() + "s";
  }

  /** The cheapest quarter of the catalogue's offerings, spot and on-demand each. */
  private Set<OfferingKey> cheapestOfferings() {
    record Priced(OfferingKey key, double price) {}
    var all = cloud.instanceTypes().stream().flatMap(t -> t.offerings().stream()
        .map(o -> new Priced(new OfferingKey(t.name(), o.zone(), o.capacityType()), o.pricePerHour()))).toList();
    return all.stream().collect(Collectors.groupingBy(p -> p.key().capacityType())).values().stream()
        .flatMap(group -> group.stream().sorted(Comparator.comparingDouble(Priced::price)).limit(Math.max(1, group.size() / 4)))
        .map(Priced::key).collect(Collectors.toSet());
  }

  /** A running spot instance of the cluster, picked by the step's pick (read as EC2 knows it, past any injected fault). */
  private Optional<Instance> spot(Step step) {
    List<Instance> spot = cloud.instances().stream().map(SimulatedInstance::instance)
        .filter(i -> Ownership.owns(i.tags(), env.cluster()))
        .filter(i -> "running".equals(i.state()) && WellKnown.CAPACITY_SPOT.equals(i.capacityType()))
        .sorted(Comparator.comparing(Instance::id)).toList();
    return spot.isEmpty() ? Optional.empty() : Optional.of(spot.get((int) (step.pick() * spot.size())));
  }

  /**
   * After the last fault: every component the stack runs again and thawed, the cloud's fault switches off and its
   * capacity back, both workers running. Each part is tried on its own, so one that fails leaves the others done.
   */
  List<String> restoreAll() {
    var stack = env.stack();
    List<String> failures = new ArrayList<>();
    for (String component : List.of(LocalStack.TEMPORAL, LocalStack.API_SERVER, LocalStack.KWOK)) {
      try {
        if (!stack.processes().containsKey(component)) {
          stack.startAgain(component);
        } else {
          stack.resume(component);
        }
      } catch (RuntimeException e) {
        failures.add(component + ": " + e.getMessage());
      }
    }
    try {
      cloud.clearFaults();
      cloud.setOfferingsAvailable(o -> true, true);
    } catch (RuntimeException e) {
      failures.add("cloud: " + e.getMessage());
    }
    for (int n = 1; n <= env.workers().size(); n++) {
      try {
        if (!env.workers().get(n - 1).alive()) {
          env.restartWorker(n);
        }
      } catch (IOException | RuntimeException e) {
        failures.add("worker-" + n + ": " + e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failures.add("interrupted");
      }
    }
    return failures;
  }
}
