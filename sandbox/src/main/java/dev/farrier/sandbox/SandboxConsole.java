package dev.farrier.sandbox;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * The console of {@code make sandbox SANDBOX_ARGS=--keep}: one command per line to stop, kill and start the workers,
 * so crash recovery and leader hand-over can be shown without copying a worker's command line. With no terminal
 * (stdin at its end) it waits for Ctrl-C.
 */
@Command(name = "", subcommands = {SandboxConsole.Workers.class, SandboxConsole.Stop.class, SandboxConsole.Kill.class,
    SandboxConsole.Start.class, SandboxConsole.Restart.class, SandboxConsole.Quit.class, CommandLine.HelpCommand.class})
final class SandboxConsole {
  private final SandboxEnvironment env;
  private final PrintStream out;
  private boolean quit;

  SandboxConsole(SandboxEnvironment env, PrintStream out) {
    this.env = env;
    this.out = out;
  }

  static final String HELP = """
      commands: workers | stop N (SIGTERM) | kill N (SIGKILL) | start [N] (worker N again, or a new one) | restart N | quit
      """;

  void run(InputStream in) throws Exception {
    out.print(HELP);
    var reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    String line;
    out.print("sandbox> ");
    out.flush();
    while (!quit && (line = reader.readLine()) != null) {
      if (!line.isBlank()) {
        execute(line.trim().split("\\s+"));
      }
      if (!quit) {
        out.print("sandbox> ");
        out.flush();
      }
    }
    if (!quit) {
      out.println("(no console input: the stack stays up until Ctrl-C)");
      var done = new CountDownLatch(1);
      Runtime.getRuntime().addShutdownHook(new Thread(done::countDown));
      done.await();
    }
  }

  /** Runs one command line; returns its exit code (0 done, non-zero refused with the reason printed). */
  int execute(String... words) {
    var cli = new CommandLine(this, new ConsoleFactory());
    var writer = new PrintWriter(out, true);
    cli.setOut(writer).setErr(writer);
    cli.setExecutionExceptionHandler((e, commandLine, parsed) -> {
      writer.println("failed: " + e.getMessage());
      return 1;
    });
    return cli.execute(words);
  }

  /** Gives the subcommands their console. */
  private final class ConsoleFactory implements CommandLine.IFactory {
    @Override
    public <K> K create(Class<K> type) throws Exception {
      if (type.getEnclosingClass() == SandboxConsole.class && !java.lang.reflect.Modifier.isStatic(type.getModifiers())) {
        return type.getDeclaredConstructor(SandboxConsole.class).newInstance(SandboxConsole.this);
      }
      return CommandLine.defaultFactory().create(type);
    }
  }

  private WorkerProcess worker(int number) {
    var workers = env.workers();
    if (number < 1 || number > workers.size()) {
      throw new IllegalArgumentException("no worker " + number + "; there are " + workers.size() + " (see 'workers')");
    }
    return workers.get(number - 1);
  }

  @Command(name = "workers", description = "each worker: pid, running or its exit code, which one leads")
  final class Workers implements Callable<Integer> {
    @Override
    public Integer call() {
      var workers = env.workers();
      var leader = env.leader();
      for (int i = 0; i < workers.size(); i++) {
        var w = workers.get(i);
        var name = "worker-" + (i + 1);
        out.printf("  %s pid %d %s%s  log %s%n", name, w.pid(), w.alive() ? "running" : "exited " + w.exitCode(),
            name.equals(leader) ? "  (leader: pending pods, status, GC)" : "", w.log());
      }
      out.println("  lease held by " + (leader == null ? "nobody" : leader));
      return 0;
    }
  }

  @Command(name = "stop", description = "SIGTERM, as Kubernetes stops a pod: the worker hands its Lease over and exits")
  final class Stop implements Callable<Integer> {
    @Parameters(paramLabel = "N")
    int number;

    @Override
    public Integer call() throws Exception {
      var w = worker(number);
      w.close();
      out.printf("  worker-%d exited %d%n", number, w.exitCode());
      return 0;
    }
  }

  @Command(name = "kill", description = "SIGKILL, as a node dying under the pod: nothing runs, the Lease expires")
  final class Kill implements Callable<Integer> {
    @Parameters(paramLabel = "N")
    int number;

    @Override
    public Integer call() throws Exception {
      worker(number).kill9();
      out.printf("  worker-%d killed%n", number);
      return 0;
    }
  }

  @Command(name = "start", description = "worker N again with its settings (it must have exited), or a new worker")
  final class Start implements Callable<Integer> {
    @Parameters(paramLabel = "N", arity = "0..1")
    Integer number;

    @Override
    public Integer call() throws Exception {
      if (number == null) {
        var w = env.startWorker();
        out.printf("  worker-%d started, pid %d%n", env.workers().size(), w.pid());
        return 0;
      }
      if (worker(number).alive()) {
        throw new IllegalArgumentException("worker-" + number + " is running; 'restart " + number + "' stops it first");
      }
      out.printf("  worker-%d started, pid %d%n", number, env.restartWorker(number).pid());
      return 0;
    }
  }

  @Command(name = "restart", description = "stop worker N (SIGTERM) and start it again")
  final class Restart implements Callable<Integer> {
    @Parameters(paramLabel = "N")
    int number;

    @Override
    public Integer call() throws Exception {
      worker(number);
      out.printf("  worker-%d started again, pid %d%n", number, env.restartWorker(number).pid());
      return 0;
    }
  }

  @Command(name = "quit", description = "stop the workers and the stack")
  final class Quit implements Callable<Integer> {
    @Override
    public Integer call() {
      quit = true;
      return 0;
    }
  }
}
