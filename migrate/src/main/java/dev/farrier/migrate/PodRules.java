package dev.farrier.migrate;

import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * The rules for the objects that carry pods (Pods, Deployments, StatefulSets, DaemonSets, ReplicaSets, Jobs,
 * CronJobs): the annotations, label and taint Karpenter renamed. Everything else in them is left as it is.
 */
final class PodRules {
  private PodRules() {}

  static final String DO_NOT_DISRUPT = "karpenter.sh/do-not-disrupt";
  private static final List<String> OLD_ANNOTATIONS = List.of("karpenter.sh/do-not-evict", "karpenter.sh/do-not-consolidate");
  static final String OLD_NODEPOOL_LABEL = "karpenter.sh/provisioner-name";
  static final String NODEPOOL_LABEL = "karpenter.sh/nodepool";
  static final String OLD_DISRUPTION_TAINT = "karpenter.sh/disruption";

  /** Where each kind keeps its pod template: the path to the object that has the pod's metadata and spec. */
  private static final Map<String, List<String>> TEMPLATE = Map.of("Pod", List.of(), "Deployment", List.of("spec", "template"),
      "StatefulSet", List.of("spec", "template"), "DaemonSet", List.of("spec", "template"), "ReplicaSet",
      List.of("spec", "template"), "Job", List.of("spec", "template"), "CronJob", List.of("spec", "jobTemplate", "spec", "template"),
      "ReplicationController", List.of("spec", "template"), "PodTemplate", List.of("template"));

  static boolean carriesPods(Doc doc) {
    return TEMPLATE.containsKey(doc.kind) && !doc.group().startsWith("karpenter");
  }

  static void migrate(Ctx ctx, Doc doc) {
    MappingNode pod = doc.root;
    String path = "";
    for (String step : TEMPLATE.get(doc.kind)) {
      pod = pod == null ? null : Tree.map(pod, step);
      path += step + ".";
    }
    if (pod == null) {
      return;
    }
    if (Tree.map(pod, "metadata") instanceof MappingNode metadata && Tree.map(metadata, "annotations") instanceof MappingNode a) {
      renameAnnotations(ctx, doc, a, path + "metadata.annotations", "pod");
    }
    MappingNode spec = Tree.map(pod, "spec");
    if (spec == null) {
      return;
    }
    if (Tree.map(spec, "nodeSelector") instanceof MappingNode selector && Tree.has(selector, OLD_NODEPOOL_LABEL)) {
      NodeTuple at = Tree.tuple(selector, OLD_NODEPOOL_LABEL);
      if (Tree.has(selector, NODEPOOL_LABEL)) {
        Tree.remove(selector, OLD_NODEPOOL_LABEL);
        ctx.changed(doc, path + "spec.nodeSelector." + OLD_NODEPOOL_LABEL, at, "removed: the selector already names "
            + NODEPOOL_LABEL + ", the label v1 nodes carry");
      } else {
        Tree.rename(selector, OLD_NODEPOOL_LABEL, NODEPOOL_LABEL);
        ctx.changed(doc, path + "spec.nodeSelector." + OLD_NODEPOOL_LABEL, at, "renamed " + NODEPOOL_LABEL
          + ": nodes carry the NodePool's name under that label since v1beta1 (name your NodePool as the Provisioner was)");
      }
    }
    affinity(ctx, doc, spec, path + "spec.affinity");
    if (Tree.get(spec, "tolerations") instanceof SequenceNode tolerations) {
      for (Node t : tolerations.getValue()) {
        if (t instanceof MappingNode toleration && OLD_DISRUPTION_TAINT.equals(Tree.text(toleration, "key"))) {
          ctx.person(doc, path + "spec.tolerations", t, "tolerates " + OLD_DISRUPTION_TAINT + ", a taint v1 no longer "
              + "uses (it is karpenter.sh/disrupted:NoSchedule now); a pod tolerating the new one is neither evicted nor "
              + "waited for when its node is drained, so decide whether it should tolerate it at all");
        }
      }
    }
  }

  /** {@code do-not-evict} and {@code do-not-consolidate} become {@code do-not-disrupt} (one, when both were set). */
  static void renameAnnotations(Ctx ctx, Doc doc, MappingNode annotations, String at, String what) {
    for (String old : OLD_ANNOTATIONS) {
      NodeTuple t = Tree.tuple(annotations, old);
      if (t == null) {
        continue;
      }
      if (Tree.has(annotations, DO_NOT_DISRUPT)) {
        Tree.remove(annotations, old);
        ctx.changed(doc, at + "." + old, t, "removed (v1 ignores it); the " + what + " already has " + DO_NOT_DISRUPT);
      } else {
        Tree.rename(annotations, old, DO_NOT_DISRUPT);
        ctx.changed(doc, at + "." + old, t, "renamed " + DO_NOT_DISRUPT + ", which v1 reads in its place");
      }
    }
  }

  private static void affinity(Ctx ctx, Doc doc, MappingNode spec, String at) {
    MappingNode affinity = Tree.map(spec, "affinity");
    MappingNode nodeAffinity = affinity == null ? null : Tree.map(affinity, "nodeAffinity");
    if (nodeAffinity == null) {
      return;
    }
    MappingNode required = Tree.map(nodeAffinity, "requiredDuringSchedulingIgnoredDuringExecution");
    if (required != null && Tree.get(required, "nodeSelectorTerms") instanceof SequenceNode terms) {
      terms.getValue().forEach(term -> expressions(ctx, doc, term, at));
    }
    if (Tree.get(nodeAffinity, "preferredDuringSchedulingIgnoredDuringExecution") instanceof SequenceNode preferred) {
      preferred.getValue().forEach(p -> expressions(ctx, doc, p instanceof MappingNode m ? Tree.get(m, "preference") : null, at));
    }
  }

  private static void expressions(Ctx ctx, Doc doc, Node term, String at) {
    if (term instanceof MappingNode m && Tree.get(m, "matchExpressions") instanceof SequenceNode expressions) {
      for (Node e : expressions.getValue()) {
        if (e instanceof MappingNode expression && OLD_NODEPOOL_LABEL.equals(Tree.text(expression, "key"))) {
          Tree.put(expression, "key", Tree.str(NODEPOOL_LABEL));
          ctx.note(Finding.Kind.CHANGED, doc, at, e, "node affinity on " + OLD_NODEPOOL_LABEL + " now on " + NODEPOOL_LABEL);
        }
      }
    }
  }
}
