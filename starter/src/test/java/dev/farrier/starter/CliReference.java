package dev.farrier.starter;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * Writes docs/reference/cli.md to stdout: every command's {@code --help}, as picocli prints it, in the order of the
 * command tree. Run by {@link CliReferenceTest} in a process of its own whose environment has none of the variables the
 * options' defaults read ({@code FARRIER_*}, {@code USER}), so the page shows the defaults a fresh shell gets.
 */
final class CliReference {
  private CliReference() {}

  public static void main(String[] args) {
    System.out.print(page());
  }

  static String page() {
    var out = new StringBuilder("""
        # CLI reference

        Generated from the `farrier` command's own help (picocli) by `CliReferenceTest`; do not edit. Every command \
        reads the Temporal connection from the same options, or from `FARRIER_TEMPORAL_*` and `FARRIER_CLUSTER_NAME` \
        (see [Connect to Temporal](../temporal.md)); `bin/farrier` runs it from a checkout. What the commands are for is \
        on [Operate and unstick replacements](../operate.md), [Upgrade a fleet from CI](../upgrade.md) and \
        [Migrate old manifests](../migrate.md).

        """);
    List<CommandLine> commands = new ArrayList<>();
    collect(FarrierCli.commandLine(new FarrierCli()), commands);
    for (CommandLine c : commands) {
      out.append("## ").append(c.getCommandSpec().qualifiedName()).append("\n\n```text\n");
      out.append(c.getUsageMessage(CommandLine.Help.Ansi.OFF).stripTrailing()).append("\n```\n\n");
    }
    return out.toString().stripTrailing() + "\n";
  }

  private static void collect(CommandLine command, List<CommandLine> into) {
    into.add(command);
    command.getSubcommands().values().stream().distinct().forEach(sub -> collect(sub, into));
  }
}
