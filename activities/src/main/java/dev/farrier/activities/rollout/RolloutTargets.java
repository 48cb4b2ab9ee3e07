package dev.farrier.activities.rollout;

import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.kube.ClusterReader;
import dev.farrier.activities.nodeclass.NodeClassImages;
import dev.farrier.activities.nodeclass.NodeClassLaunches;
import dev.farrier.model.AmiTerm;
import dev.farrier.workflows.FailureTypes;
import dev.farrier.workflows.activities.ClaimRolloutRequest;
import io.temporal.failure.ApplicationFailure;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * What a rollout would roll, found without changing anything: its NodePools (the named ones, all of their EC2NodeClass's,
 * or every one of the named class), the class's images now and the target's, resolved by the cloud. The rollout's
 * {@code claim} and its preview both ask this, so a preview cannot resolve a target the rollout would refuse or resolve
 * it otherwise. Refusals are {@code InvalidUpgrade} (not retried), saying what to do.
 */
final class RolloutTargets {
  private final ClusterReader reader;
  private final CloudProvider cloud;

  RolloutTargets(ClusterReader reader, CloudProvider cloud) {
    this.reader = reader;
    this.cloud = cloud;
  }

  /**
   * What {@link #resolve} found.
   *
   * @param previousResolved what the class's terms resolve to now
   * @param targetResolved   what the target's terms resolve to (never empty)
   */
  record Target(List<NodePool> pools, String nodeClassName, List<AmiTerm> previous, String previousFamily,
      List<Image> previousResolved, List<AmiTerm> target, String targetFamily, List<Image> targetResolved) {
    List<String> nodePoolNames() {
      return pools.stream().map(RolloutTargets::name).toList();
    }

    List<String> previousImages() {
      return imageIds(previousResolved);
    }

    List<String> targetImages() {
      return imageIds(targetResolved);
    }
  }

  Target resolve(ClaimRolloutRequest request) {
    List<NodePool> pools = pools(request);
    String className = classOf(pools.getFirst());
    EC2NodeClass nodeClass = reader.getNodeClass(className)
        .orElseThrow(() -> invalid("EC2NodeClass " + className + " (of NodePool " + name(pools.getFirst()) + ") not found"));
    List<AmiTerm> previous = NodeClassImages.terms(nodeClass).stream().map(RolloutTargets::term).toList();
    String previousFamily = nodeClass.getSpec().amiFamily();
    List<AmiTerm> target;
    if (request.targetTerms().isEmpty()) {
      try {
        target = KubernetesVersionImages.terms(NodeClassLaunches.amiFamily(nodeClass), request.kubernetesVersion());
      } catch (IllegalArgumentException e) {
        throw invalid("EC2NodeClass " + className + ": " + e.getMessage());
      }
    } else {
      target = request.targetTerms();
    }
    boolean targetIsAlias = target.stream().anyMatch(t -> t.alias() != null);
    String targetFamily = previousFamily != null || targetIsAlias ? previousFamily : NodeClassLaunches.amiFamily(nodeClass);
    List<Image> previousResolved = resolve(previous);
    List<Image> targetImages = resolve(target);
    if (targetImages.isEmpty()) {
      throw invalid("the target resolves to no image " + describe(target) + ": nothing to roll to");
    }
    Set<String> archsNow = new TreeSet<>(previousResolved.stream().map(Image::arch).toList());
    Set<String> archsTarget = new TreeSet<>(targetImages.stream().map(Image::arch).toList());
    if (!archsTarget.containsAll(archsNow)) {
      throw invalid("the target resolves to images for " + archsTarget + " only, but EC2NodeClass " + className
          + " has images for " + archsNow + ": name an image for each architecture");
    }
    return new Target(pools, className, previous, previousFamily, previousResolved, target, targetFamily, targetImages);
  }

  /** The images of these ids the cloud knows (an image deregistered since a node launched is left out). */
  List<Image> images(Set<String> ids) {
    if (ids.isEmpty()) {
      return List.of();
    }
    return resolve(ids.stream().sorted().map(id -> new AmiTerm(null, id, null, null, null, null)).toList());
  }

  /** The NodePools of the request: named ones (all of their class's) or every one of the named class. */
  private List<NodePool> pools(ClaimRolloutRequest request) {
    List<NodePool> all = reader.listNodePools();
    if (request.nodeClass() != null && !request.nodeClass().isBlank()) {
      List<NodePool> ofClass = all.stream().filter(p -> request.nodeClass().equals(classOf(p))).toList();
      if (ofClass.isEmpty()) {
        throw invalid("no NodePool uses EC2NodeClass " + request.nodeClass());
      }
      return ofClass;
    }
    List<NodePool> named = new ArrayList<>();
    for (String name : new LinkedHashSet<>(request.nodePools())) {
      NodePool pool = all.stream().filter(p -> name.equals(name(p))).findFirst()
          .orElseThrow(() -> invalid("NodePool " + name + " not found"));
      if (classOf(pool) == null) {
        throw invalid("NodePool " + name + " names no EC2NodeClass (spec.template.spec.nodeClassRef)");
      }
      named.add(pool);
    }
    Set<String> classes = new TreeSet<>(named.stream().map(RolloutTargets::classOf).toList());
    if (classes.size() != 1) {
      throw invalid("NodePools " + request.nodePools() + " use different EC2NodeClasses " + classes + ": upgrade each class's NodePools separately");
    }
    String className = classes.iterator().next();
    Set<String> names = new HashSet<>(request.nodePools());
    List<String> others = all.stream().filter(p -> className.equals(classOf(p)) && !names.contains(name(p)))
        .map(RolloutTargets::name).sorted().toList();
    if (!others.isEmpty()) {
      throw invalid("EC2NodeClass " + className + " is also used by NodePool(s) " + others + ", whose nodes would drift too:"
          + " name them as well (--nodepool) or upgrade the class (--nodeclass " + className + ")");
    }
    return named;
  }

  private List<Image> resolve(List<AmiTerm> terms) {
    if (terms.isEmpty()) {
      return List.of();
    }
    try {
      return cloud.resolveImages(terms.stream().map(t -> new dev.farrier.activities.cloud.AmiSelectorTerm(t.id(), t.name(),
          t.owner(), t.tags(), t.alias())).toList()); // the cloud's term, not the CRD's of the same name
    } catch (CloudProviderException e) {
      if (e.kind() == CloudProviderException.Kind.INVALID_REQUEST) {
        throw invalid("the target " + describe(terms) + " is not valid: " + e.getMessage());
      }
      throw e;
    }
  }

  static List<String> imageIds(List<Image> images) {
    return images.stream().map(Image::id).sorted().distinct().toList();
  }

  private static AmiTerm term(dev.farrier.activities.cloud.AmiSelectorTerm t) {
    return new AmiTerm(t.alias(), t.id(), t.name(), t.owner(), t.tags(), t.ssmParameter());
  }

  static String describe(List<AmiTerm> terms) {
    return terms.stream().map(t -> t.alias() != null ? "alias " + t.alias() : t.id() != null ? "id " + t.id()
        : t.ssmParameter() != null ? "ssmParameter " + t.ssmParameter() : (t.name() == null ? "" : "name " + t.name()) + (t.owner() == null ? "" : " owner " + t.owner())
            + (t.tags() == null ? "" : " tags " + t.tags())).toList().toString();
  }

  static String name(NodePool pool) {
    return pool.getMetadata().getName();
  }

  static String classOf(NodePool pool) {
    var spec = pool.getSpec();
    return spec == null || spec.template() == null || spec.template().spec() == null || spec.template().spec().nodeClassRef() == null
        ? null : spec.template().spec().nodeClassRef().name();
  }

  /**
   * Refuses ({@code RolloutConflict}) a NodePool that another rollout owns ({@code owner}, its
   * {@code farrier.dev/rollout}) while that rollout still runs: the claim's refusal, and the preview's of the same.
   */
  static void refuseIfTakenByAnother(String pool, String owner, String workflowId, Predicate<String> workflowRunning) {
    if (owner != null && !owner.equals(workflowId) && workflowRunning.test(owner)) {
      throw ApplicationFailure.newNonRetryableFailure("NodePool " + pool + " is being upgraded by " + owner
          + ": wait for it to end, or abort it (farrier upgrade abort " + owner + " --reason ...)", FailureTypes.ROLLOUT_CONFLICT);
    }
  }

  static ApplicationFailure invalid(String message) {
    return ApplicationFailure.newNonRetryableFailure(message, FailureTypes.INVALID_UPGRADE);
  }
}
