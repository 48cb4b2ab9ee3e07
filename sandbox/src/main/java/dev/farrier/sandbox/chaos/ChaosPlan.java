package dev.farrier.sandbox.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * What a soak does and when, drawn from its seed alone: the same seed and duration give the same plan, so a soak that
 * found a violation can be played again. Three timelines run side by side: churn (what users and EC2 do to the fleet),
 * process faults (the workers, Temporal, the API server and kwok, one at a time as each holds its component for a
 * while) and cloud faults (EC2 errors, slow calls and lost capacity, which expire by themselves).
 */
public record ChaosPlan(long seed, Duration duration, List<Step> steps) {
  public ChaosPlan {
    steps = List.copyOf(steps);
  }

  /** What the harness does to the fleet, users' and EC2's doing as much as failures. */
  public enum Kind {
    // churn
    SCALE_BATCH(Timeline.CHURN, "scale the batch Deployment (no PDB) out or down"),
    SCALE_SPOT(Timeline.CHURN, "scale the spot web Deployment out or down within its PDB's reach"),
    SPOT_INTERRUPTION(Timeline.CHURN, "a spot interruption warning for one spot instance, over SQS; EC2 reclaims it 2 minutes later"),
    REBALANCE(Timeline.CHURN, "a rebalance recommendation for one spot instance, over SQS (its NodePool opted in)"),
    AMI_DRIFT(Timeline.CHURN, "the consolidating NodePool's EC2NodeClass moved to the other AMI release: every node drifts"),
    ROLLOUT(Timeline.CHURN, "farrier upgrade of the rolled NodePool to the other AMI release, in batches, --wait"),
    EDIT_ROLLED_POOL(Timeline.CHURN, "the rolled NodePool's template label edited (it drifts) while a rollout may own it"),
    // process faults
    KILL_LEADER(Timeline.PROCESS, "kill -9 of the worker holding the Lease; started again after a pause"),
    KILL_OTHER(Timeline.PROCESS, "kill -9 of the worker not holding the Lease; started again after a pause"),
    ROLLING_RESTART(Timeline.PROCESS, "SIGTERM to each worker in turn, each started again before the next"),
    TEMPORAL_KILL(Timeline.PROCESS, "kill -9 of the Temporal server; started again after a pause"),
    TEMPORAL_HANG(Timeline.PROCESS, "SIGSTOP of the Temporal server (a partition as the workers see it), then SIGCONT"),
    API_SERVER_RESTART(Timeline.PROCESS, "kill -9 of the kube-apiserver; started again at once"),
    API_SERVER_HANG(Timeline.PROCESS, "SIGSTOP of the kube-apiserver, then SIGCONT"),
    KWOK_STALL(Timeline.PROCESS, "SIGSTOP of kwok: no node posts its status or becomes Ready, then SIGCONT"),
    // cloud faults
    EC2_THROTTLING(Timeline.CLOUD, "every EC2 call refused with RequestLimitExceeded"),
    EC2_SERVER_ERROR(Timeline.CLOUD, "every EC2 call fails with InternalError (HTTP 500)"),
    EC2_SLOW(Timeline.CLOUD, "every EC2 call answers only after a delay"),
    CAPACITY_LOSS(Timeline.CLOUD, "the cheapest offerings out of capacity (InsufficientInstanceCapacity), then back");

    private final Timeline timeline;
    private final String words;

    Kind(Timeline timeline, String words) {
      this.timeline = timeline;
      this.words = words;
    }

    public Timeline timeline() {
      return timeline;
    }

    public String words() {
      return words;
    }

    public boolean fault() {
      return timeline != Timeline.CHURN;
    }
  }

  /** Steps of one timeline run one after the other; the timelines run side by side. */
  public enum Timeline { CHURN, PROCESS, CLOUD }

  /**
   * One step: at {@code at} after the soak's start, {@code kind}, holding for {@code hold} (a pause, a hang, a fault
   * window; zero for a one-off), with {@code amount} (a replica count, a delay in milliseconds; 0 when none) and
   * {@code pick} (which instance of several, as a fraction in [0, 1)).
   */
  public record Step(Duration at, Kind kind, Duration hold, int amount, double pick) {
    @Override
    public String toString() {
      return "+" + at.toSeconds() + "s " + kind + (hold.isZero() ? "" : " for " + hold.toSeconds() + "s")
          + (amount == 0 ? "" : " (" + amount + ")");
    }
  }

  /** How many kill -9s of a worker an hour brings (the issue asks for at least 20 in a 60-minute soak). */
  static final int WORKER_KILLS_PER_HOUR = 24;
  private static final Map<Kind, Integer> PROCESS_FAULTS_PER_HOUR = processFaultsPerHour();
  /** The longest a process fault holds its component: below the node lifecycle controller's 40 s for kwok. */
  private static final Map<Kind, Duration> LONGEST_HOLD = longestHold();

  private static Map<Kind, Integer> processFaultsPerHour() {
    Map<Kind, Integer> perHour = new EnumMap<>(Kind.class);
    perHour.put(Kind.ROLLING_RESTART, 3);
    perHour.put(Kind.TEMPORAL_KILL, 3);
    perHour.put(Kind.TEMPORAL_HANG, 3);
    perHour.put(Kind.API_SERVER_RESTART, 3);
    perHour.put(Kind.API_SERVER_HANG, 3);
    perHour.put(Kind.KWOK_STALL, 3);
    return perHour;
  }

  private static Map<Kind, Duration> longestHold() {
    Map<Kind, Duration> hold = new EnumMap<>(Kind.class);
    hold.put(Kind.KILL_LEADER, Duration.ofSeconds(20));
    hold.put(Kind.KILL_OTHER, Duration.ofSeconds(20));
    hold.put(Kind.TEMPORAL_KILL, Duration.ofSeconds(30));
    hold.put(Kind.TEMPORAL_HANG, Duration.ofSeconds(45));
    hold.put(Kind.API_SERVER_HANG, Duration.ofSeconds(30));
    hold.put(Kind.KWOK_STALL, Duration.ofSeconds(30));
    hold.put(Kind.EC2_THROTTLING, Duration.ofSeconds(60));
    hold.put(Kind.EC2_SERVER_ERROR, Duration.ofSeconds(60));
    hold.put(Kind.EC2_SLOW, Duration.ofSeconds(60));
    hold.put(Kind.CAPACITY_LOSS, Duration.ofMinutes(4));
    return hold;
  }

  /**
   * The plan of a soak of {@code duration} from {@code seed}. Every kind is played at least once, worker kills at
   * {@link #WORKER_KILLS_PER_HOUR} (at least two), the other process faults by their hourly rate (at least one each);
   * the drift comes at a quarter of the soak and the rollouts at 40% and 70%, each followed by an edit of its NodePool.
   */
  public static ChaosPlan of(long seed, Duration duration) {
    if (duration.compareTo(Duration.ofMinutes(2)) < 0) {
      throw new IllegalArgumentException("a soak of " + duration + " is too short to play every fault; 2 minutes at least");
    }
    Random random = new Random(seed);
    double hours = duration.toSeconds() / 3600.0;
    List<Step> steps = new ArrayList<>();
    steps.addAll(processFaults(random, duration, hours));
    steps.addAll(cloudFaults(random, duration, hours));
    steps.addAll(churn(random, duration));
    steps.sort(Comparator.comparing(Step::at).thenComparing(Step::kind));
    return new ChaosPlan(seed, duration, steps);
  }

  private static List<Step> processFaults(Random random, Duration duration, double hours) {
    List<Kind> kinds = new ArrayList<>();
    int kills = Math.max(2, (int) Math.round(WORKER_KILLS_PER_HOUR * hours));
    for (int i = 0; i < kills; i++) {
      kinds.add(i % 2 == 0 ? Kind.KILL_LEADER : Kind.KILL_OTHER);
    }
    PROCESS_FAULTS_PER_HOUR.forEach((kind, perHour) -> {
      for (int i = 0, n = Math.max(1, (int) Math.round(perHour * hours)); i < n; i++) {
        kinds.add(kind);
      }
    });
    Collections.shuffle(kinds, random);
    return spread(random, duration, kinds);
  }

  private static List<Step> cloudFaults(Random random, Duration duration, double hours) {
    List<Kind> kinds = new ArrayList<>();
    for (Kind kind : List.of(Kind.EC2_THROTTLING, Kind.EC2_SERVER_ERROR, Kind.EC2_SLOW, Kind.CAPACITY_LOSS)) {
      for (int i = 0, n = Math.max(1, (int) Math.round(4 * hours)); i < n; i++) {
        kinds.add(kind);
      }
    }
    Collections.shuffle(kinds, random);
    return spread(random, duration, kinds);
  }

  /**
   * One timeline's steps, one per equal slot of the soak, each at a random point of the first half of its slot and
   * holding at most the rest of the slot's first 90%, so a timeline's steps never overlap.
   */
  private static List<Step> spread(Random random, Duration duration, List<Kind> kinds) {
    long slot = duration.toMillis() / kinds.size();
    List<Step> steps = new ArrayList<>();
    for (int i = 0; i < kinds.size(); i++) {
      Kind kind = kinds.get(i);
      long at = i * slot + (long) (random.nextDouble() * slot / 2);
      long room = (long) (slot * 0.9) - (at - i * slot);
      Duration longest = LONGEST_HOLD.getOrDefault(kind, Duration.ZERO);
      long hold = longest.isZero() ? 0 : Math.min(longest.toMillis(), Math.max(1000, room));
      hold = hold == 0 ? 0 : hold / 2 + (long) (random.nextDouble() * hold / 2);
      int amount = kind == Kind.EC2_SLOW ? 2000 + random.nextInt(6000) : 0;
      steps.add(new Step(Duration.ofMillis(at), kind, Duration.ofMillis(hold), amount, random.nextDouble()));
    }
    return steps;
  }

  private static List<Step> churn(Random random, Duration duration) {
    List<Step> steps = new ArrayList<>();
    long total = duration.toMillis();
    steps.add(one(random, total * 25 / 100, Kind.AMI_DRIFT));
    for (long rollout : List.of(total * 40 / 100, total * 70 / 100)) {
      steps.add(one(random, rollout, Kind.ROLLOUT));
      steps.add(one(random, rollout + 5000 + random.nextInt(20_000), Kind.EDIT_ROLLED_POOL));
    }
    List<Kind> often = List.of(Kind.SCALE_BATCH, Kind.SCALE_SPOT, Kind.SPOT_INTERRUPTION, Kind.REBALANCE);
    int rounds = Math.max(often.size(), (int) (total / Duration.ofSeconds(90).toMillis()));
    long slot = total / rounds;
    for (int i = 0; i < rounds; i++) {
      Kind kind = often.get(i < often.size() ? i : random.nextInt(often.size()));
      long at = i * slot + (long) (random.nextDouble() * slot * 0.8);
      int amount = switch (kind) {
        case SCALE_BATCH -> 30 + random.nextInt(121);
        case SCALE_SPOT -> 70 + random.nextInt(31);
        default -> 0;
      };
      steps.add(new Step(Duration.ofMillis(at), kind, Duration.ZERO, amount, random.nextDouble()));
    }
    return steps;
  }

  private static Step one(Random random, long at, Kind kind) {
    return new Step(Duration.ofMillis(at), kind, Duration.ZERO, 0, random.nextDouble());
  }

  /** How many steps of each kind. */
  public Map<Kind, Integer> counts() {
    Map<Kind, Integer> counts = new EnumMap<>(Kind.class);
    steps.forEach(s -> counts.merge(s.kind(), 1, Integer::sum));
    return counts;
  }

  /** When the last fault ends (its hold included). */
  public Duration lastFaultEnds() {
    return steps.stream().filter(s -> s.kind().fault()).map(s -> s.at().plus(s.hold())).max(Comparator.naturalOrder())
        .orElse(Duration.ZERO);
  }
}
