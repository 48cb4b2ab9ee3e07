package dev.farrier.starter;

import dev.farrier.client.TemporalConnection;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Function;
import javax.net.ssl.SSLException;
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
        FreezeCommands.FreezeCommand.class, FreezeCommands.UnfreezeCommand.class, MigrateCommand.class})
public final class FarrierCli {
  @Option(names = "--address", scope = CommandLine.ScopeType.INHERIT, defaultValue = "${env:FARRIER_TEMPORAL_ADDRESS:-127.0.0.1:7233}", description = "Temporal frontend (default ${DEFAULT-VALUE})")
  String address;

  @Option(names = "--namespace", scope = CommandLine.ScopeType.INHERIT, defaultValue = "${env:FARRIER_TEMPORAL_NAMESPACE:-default}", description = "Temporal namespace (default ${DEFAULT-VALUE})")
  String namespace;

  @Option(names = "--temporal-tls", scope = CommandLine.ScopeType.INHERIT, defaultValue = "${env:FARRIER_TEMPORAL_TLS_ENABLED:-false}", description = "connect over TLS (also on with any of the TLS or API key options)")
  boolean tls;

  @Option(names = "--temporal-tls-ca", scope = CommandLine.ScopeType.INHERIT, defaultValue = "${env:FARRIER_TEMPORAL_TLS_CA_FILE}", description = "PEM CA bundle for the frontend's certificate (default: the JDK's trusted roots)")
  Path tlsCa;

  @Option(names = "--temporal-tls-cert", scope = CommandLine.ScopeType.INHERIT, defaultValue = "${env:FARRIER_TEMPORAL_TLS_CERT_FILE}", description = "PEM client certificate for mTLS")
  Path tlsCert;

  @Option(names = "--temporal-tls-key", scope = CommandLine.ScopeType.INHERIT, defaultValue = "${env:FARRIER_TEMPORAL_TLS_KEY_FILE}", description = "PEM private key of the client certificate")
  Path tlsKey;

  @Option(names = "--temporal-tls-server-name", scope = CommandLine.ScopeType.INHERIT, defaultValue = "${env:FARRIER_TEMPORAL_TLS_SERVER_NAME}", description = "name to check the frontend's certificate against, when not the address's host")
  String tlsServerName;

  @Option(names = "--temporal-api-key-file", scope = CommandLine.ScopeType.INHERIT, defaultValue = "${env:FARRIER_TEMPORAL_API_KEY_FILE}", description = "file holding a Temporal Cloud API key (implies TLS)")
  Path apiKeyFile;

  @Option(names = "--cluster", scope = CommandLine.ScopeType.INHERIT, defaultValue = "${env:FARRIER_CLUSTER_NAME:-sandbox}", description = "cluster name (default ${DEFAULT-VALUE})")
  String cluster;

  /** Set by tests to run against Temporal's test environment instead of a frontend address. */
  Function<FarrierCli, WorkflowClient> clientFactory = FarrierCli::connect;

  /** "Now", for how long a replacement has been blocked; fixed by tests. */
  Clock clock = Clock.systemUTC();

  /** How long to wait for the frontend to answer a health check before giving up with exit code 1. */
  Duration connectTimeout = Duration.ofSeconds(10);

  /** The connection the options (or their FARRIER_TEMPORAL_* environment variables) describe; bad ones exit 2. */
  TemporalConnection connection() {
    try {
      return new TemporalConnection(address, namespace, tls, tlsCa, tlsCert, tlsKey, tlsServerName, apiKeyFile);
    } catch (IllegalArgumentException e) {
      throw new CliException(ExitCodes.USAGE, e.getMessage());
    }
  }

  private static WorkflowClient connect(FarrierCli cli) {
    TemporalConnection connection = cli.connection();
    WorkflowServiceStubs stubs;
    try {
      stubs = WorkflowServiceStubs.newConnectedServiceStubs(connection.serviceStubsOptions().build(), cli.connectTimeout);
    } catch (IllegalArgumentException e) {
      throw new CliException(ExitCodes.USAGE, e.getMessage());
    } catch (RuntimeException e) {
      throw new CliException(ExitCodes.ERROR, "cannot reach Temporal at " + connection.describe() + ": " + whyNotConnected(e));
    }
    return WorkflowClient.newInstance(stubs, connection.clientOptions());
  }

  /**
   * A failed TLS handshake by its cause (an untrusted or misnamed certificate), else the gRPC status's first line
   * with the underlying cause (gRPC's "io exception" alone says nothing).
   */
  private static String whyNotConnected(RuntimeException e) {
    Throwable root = e;
    boolean handshake = false;
    for (Throwable t = e; t != null; t = t.getCause()) {
      handshake |= t instanceof SSLException;
      root = t;
    }
    if (handshake) {
      return "TLS handshake failed: " + root.getMessage();
    }
    String status = WorkflowCalls.grpcStatus(e);
    if (status == null) {
      return e.getMessage();
    }
    String firstLine = status.lines().findFirst().orElse(status);
    return root == e || root.getMessage() == null ? firstLine : firstLine + " (" + root.getMessage() + ")";
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
