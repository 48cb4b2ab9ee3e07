package dev.farrier.sandbox.bench;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The options every sandbox benchmark takes (a picocli mixin): the stack's control-plane rate, figures, the label. */
public final class BenchOptions {
  @Option(names = "--qps", defaultValue = "500",
      description = "the kube-scheduler's and controller-manager's request rate to the API server (default ${DEFAULT-VALUE})")
  public int qps;

  @Option(names = "--figures", defaultValue = ".run/bench/figures", description = "where the PNG figures go (default ${DEFAULT-VALUE})")
  public Path figures;

  @Option(names = "--label", defaultValue = "", description = "the commit measured, for the report's first line")
  public String label;
}
