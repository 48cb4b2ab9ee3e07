package dev.farrier.starter;

import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code farrier}: the operator's and CI's handle on Farrier's workflows. Every command names its target by the
 * workflow ids Farrier uses ({@code reconciler/<cluster>}, {@code disrupt/<nodeclaim>}); actions go through the
 * replacement's validated Updates, so a refused action changes nothing and says why (exit code 3).
 */
@Command(name = "farrier", mixinStandardHelpOptions = true, version = "farrier 0.1.0",
    description = "Inspect and steer Farrier's node replacements and fleet upgrades.",
    subcommands = {ListCommand.class, StatusCommand.class, PlanCommand.class, OperatorActions.Pause.class,
        OperatorActions.Resume.class, OperatorActions.Abort.class, OperatorActions.Retry.class,
        OperatorActions.ForceDrain.class, OperatorActions.Approve.class, UpgradeCommand.class,
        FreezeCommands.FreezeCommand.class, FreezeCommands.UnfreezeCommand.class})
public final class FarrierCli {
  @Option(names = "--address", scope = CommandLine.ScopeType.INHERIT, defaultValue = "${env:FARRIER_TEMPORAL_ADDRESS:-127.0.0.1:7233}", description = "Temporal frontend (default ${DEFAULT-VALUE})")
  String address;

  @Option(names = "--namespace", scope = CommandLine.ScopeType.INHERIT, defaultValue = "${env:FARRIER_TEMPORAL_NAMESPACE:-default}", description = "Temporal namespace (default ${DEFAULT-VALUE})")
  String namespace;

  @Option(names = "--cluster", scope = CommandLine.ScopeType.INHERIT, defaultValue = "${env:FARRIER_CLUSTER_NAME:-sandbox}", description = "cluster name (default ${DEFAULT-VALUE})")
  String cluster;

  /** Set by tests to run against Temporal's test environment instead of a frontend address. */
  Function<FarrierCli, WorkflowClient> clientFactory = FarrierCli::connect;

  /** "Now", for how long a replacement has been blocked; fixed by tests. */
  Clock clock = Clock.systemUTC();

  /** How long to wait for the frontend to answer a health check before giving up with exit code 1. */
  Duration connectTimeout = Duration.ofSeconds(10);

  private static WorkflowClient connect(FarrierCli cli) {
    WorkflowServiceStubs stubs;
    try {
      stubs = WorkflowServiceStubs.newConnectedServiceStubs(
          WorkflowServiceStubsOptions.newBuilder().setTarget(cli.address).build(), cli.connectTimeout);
    } catch (RuntimeException e) {
      String status = WorkflowCalls.grpcStatus(e);
      throw new CliException(ExitCodes.ERROR, "cannot reach Temporal at " + cli.address + ": "
          + (status != null ? status : e.getMessage()));
    }
    return WorkflowClient.newInstance(stubs, WorkflowClientOptions.newBuilder().setNamespace(cli.namespace).build());
  }

  public static void main(String[] args) {
    System.exit(commandLine(new FarrierCli()).execute(args));
  }

  static CommandLine commandLine(FarrierCli cli) {
    var cl = new CommandLine(cli);
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      if (e instanceof CliException known) {
        commandLine.getErr().println("farrier: " + known.getMessage());
        return known.exitCode();
      }
      commandLine.getErr().println("farrier: " + WorkflowCalls.describe(e, cli.address));
      return ExitCodes.ERROR;
    });
    withExitCodes(cl);
    return cl;
  }

  /** Every command gets --help and lists the exit codes (annotations cannot share one list). */
  private static void withExitCodes(CommandLine command) {
    command.getCommandSpec().mixinStandardHelpOptions(true);
    command.getCommandSpec().usageMessage().exitCodeListHeading("Exit codes:%n").exitCodeList(ExitCodes.helpList());
    command.getSubcommands().values().forEach(FarrierCli::withExitCodes);
  }
}
