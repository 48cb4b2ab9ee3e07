package dev.farrier.starter;

import io.temporal.client.WorkflowClient;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;

/** What every {@code farrier} subcommand shares: the global options, its output, a client. */
abstract class FarrierCommand implements Callable<Integer> {
  @CommandLine.ParentCommand
  FarrierCli parent;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  PrintWriter err() {
    return spec.commandLine().getErr();
  }

  WorkflowClient client() {
    return parent.clientFactory.apply(parent);
  }

  /** The output format of commands that print data: a human one, or JSON for scripts. */
  enum Output {
    TEXT, JSON
  }
}
