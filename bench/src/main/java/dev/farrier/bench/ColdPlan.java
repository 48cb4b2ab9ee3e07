package dev.farrier.bench;

import dev.farrier.workflows.activities.ProvisioningPlan;
import dev.farrier.workflows.planner.ProvisioningSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Farrier measured the way Karpenter's benchmark measures itself with {@code -benchtime 1x}: one plan in a fresh
 * process, nothing warmed up. tools/bench-peer.sh runs it once per size on the pods Karpenter drew; the time covers
 * {@code ProvisioningPlanner.plan} only, with its class loading and the JVM's interpreter and compilers at work
 * (JVM start-up and reading the pods are not in it, as Karpenter's setup is not in its time).
 */
@Command(name = "cold-plan", description = "Plans Karpenter's pods once in this fresh JVM.")
public final class ColdPlan implements Callable<Integer> {
  @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
  boolean help;

  @Parameters(paramLabel = "PODS", description = "karpenter-<n>-pods.tsv, as tools/karpenter-peer writes it")
  Path pods;

  @Option(names = "--out", paramLabel = "FILE", required = true, description = "where the result line goes")
  Path out;

  public static void main(String[] args) {
    System.exit(new CommandLine(new ColdPlan()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    List<BenchPod> drawn = KarpenterPods.read(pods);
    Catalog catalog = Catalog.named(Catalog.KARPENTER);
    ProvisioningSnapshot snapshot = PlannerInput.snapshot(drawn, catalog);
    long start = System.nanoTime();
    ProvisioningPlan plan = SchedulingCase.plan(snapshot);
    double millis = (System.nanoTime() - start) / 1e6;
    PlanCheck.verify(plan, drawn);
    ColdRun run = new ColdRun(drawn.size(), millis, plan.claims().size(), new PlanPrice(catalog.types()).perHour(plan));
    Files.writeString(out, run.format() + "\n");
    System.out.println(run.format());
    return 0;
  }
}
