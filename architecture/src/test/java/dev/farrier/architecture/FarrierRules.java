package dev.farrier.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.lang.ArchRule;

/**
 * The shape docs/ARCHITECTURE.md describes, as rules: {@link ArchitectureTest} holds Farrier's production classes to
 * them, {@link RulesCatchViolationsTest} shows each one failing on a class that breaks it.
 */
final class FarrierRules {
  private FarrierRules() {
  }

  /** What does I/O: Kubernetes, AWS, gRPC, HTTP, sockets, files. */
  static final String[] IO = {
      "io.fabric8..", "software.amazon..", "io.grpc..", "java.net..", "java.nio.file..", "java.nio.channels..",
      "java.io.File", "java.io.FileInputStream", "java.io.FileOutputStream", "java.io.FileReader", "java.io.FileWriter",
      "java.io.RandomAccessFile", "java.sql..", "io.micronaut.."};

  /** A package importing one that imports it back cannot be read, built or changed alone. */
  static final ArchRule NO_PACKAGE_CYCLES = slices().matching("dev.farrier.(**)").should().beFreeOfCycles()
      .because("a package cycle means no package can be understood or changed on its own");

  /** Workflow code replays from history: it may only orchestrate, never reach the outside world itself. */
  static final ArchRule WORKFLOWS_DO_NO_IO = noClasses().that().resideInAPackage("dev.farrier.workflows..")
      .should().dependOnClassesThat().resideInAnyPackage(IO)
      .because("workflow code replays from history and must stay deterministic: I/O belongs in activities");

  /** The planner decides; it is a pure function of its snapshot, run by activities and the benchmarks. */
  static final ArchRule PLANNER_IS_PURE = noClasses().that().resideInAPackage("dev.farrier.planner..")
      .should().dependOnClassesThat().resideInAnyPackage(IO)
      .orShould().dependOnClassesThat().resideInAnyPackage("io.temporal..", "dev.farrier.workflows..", "dev.farrier.activities..")
      .because("the planner is a pure function of its snapshot: no Temporal, no I/O, no workflow or activity code");

  /** The records every layer shares, from the planner up: they may name the JDK, each other and Jackson's annotations. */
  static final ArchRule MODEL_IS_PLAIN_RECORDS = classes().that().resideInAPackage("dev.farrier.model..")
      .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "dev.farrier.model..", "com.fasterxml.jackson.annotation..")
      .because("the model is shared by the planner, the workflows and the activities, so it can depend on none of them");

  /**
   * {@code Cluster} is the sum of every Kubernetes port; a class that takes it can do anything to the cluster, and its
   * unit tests need a fake of everything. Only the class implementing it and the worker's composition root name it.
   */
  static final ArchRule ONLY_THE_ROOT_TAKES_THE_WHOLE_CLUSTER = noClasses()
      .that().doNotHaveFullyQualifiedName("dev.farrier.activities.kube.Fabric8Cluster")
      .and().doNotHaveFullyQualifiedName("dev.farrier.activities.kube.Cluster")
      .and().doNotHaveFullyQualifiedName("dev.farrier.worker.TemporalWorkerFactory")
      .should().dependOnClassesThat().haveFullyQualifiedName("dev.farrier.activities.kube.Cluster")
      .because("an activity or loop takes only the ports it uses (ClusterReader, NodeClaimStore, NodeWriter, ...)");
}
