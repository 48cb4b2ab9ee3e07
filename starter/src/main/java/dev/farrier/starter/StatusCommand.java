package dev.farrier.starter;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "status", description = "Progress of the replacement of a NodeClaim: phase, pods left, what blocks it "
    + "and since when.")
final class StatusCommand extends ReplacementCommand {
  @Option(names = {"-o", "--output"}, defaultValue = "text", paramLabel = "FORMAT", description = "text or json (default ${DEFAULT-VALUE})")
  Output output;

  @Override
  public Integer call() {
    var progress = onReplacement(replacement -> replacement.progress());
    var now = parent.clock.instant();
    out().print(output == Output.JSON ? StatusReport.json(progress, now) + System.lineSeparator()
        : StatusReport.text(workflowId(), progress, now));
    out().flush();
    return ExitCodes.DONE;
  }
}
