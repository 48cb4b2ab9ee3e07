package dev.farrier.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.Set;

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

  /** The activities' use cases, a package each; the planning activity's facade above several of them is none. */
  private static final Set<String> USE_CASES =
      Set.of("provisioning", "disruption", "rollout", "drain", "launch", "interruption", "status", "gc", "split");
  private static final String ACTIVITIES = "dev.farrier.activities.";

  /**
   * Each use case of the activities reads only the shared packages below them (views, nodeclass, events, temporal, the
   * ports), never another use case, except where planning builds on planning: consolidation and replacements plan as
   * provisioning does, a rollout's batch comes from the disruption snapshot, and the status loop validates NodePools
   * with provisioning's own check so the two never disagree.
   */
  static final ArchRule USE_CASES_STAY_APART = slices().assignedFrom(new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
          String name = javaClass.getPackageName();
          String useCase = name.startsWith(ACTIVITIES) ? name.substring(ACTIVITIES.length()).split("\\.")[0] : "";
          return USE_CASES.contains(useCase) ? SliceIdentifier.of(useCase) : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
          return "the activities' use cases";
        }
      })
      .should().notDependOnEachOther()
      .ignoreDependency(resideInAPackage(ACTIVITIES + "disruption.."), resideInAPackage(ACTIVITIES + "provisioning.."))
      .ignoreDependency(resideInAPackage(ACTIVITIES + "rollout.."), resideInAPackage(ACTIVITIES + "disruption.."))
      .ignoreDependency(resideInAPackage(ACTIVITIES + "status.."), resideInAPackage(ACTIVITIES + "provisioning.."))
      .because("a use case changed should not change another: what several share lives below them");
}
