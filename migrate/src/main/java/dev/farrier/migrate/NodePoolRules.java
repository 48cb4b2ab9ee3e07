package dev.farrier.migrate;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * The NodePool rules: a v1alpha5 Provisioner and a v1beta1 NodePool become a v1 NodePool. About 400 lines: one rule
 * per field that changed between the API versions, each short, in the order a reader meets the fields in the manifest.
 */
final class NodePoolRules {
  private NodePoolRules() {}

  static final String API_VERSION = "karpenter.sh/v1";
  static final String NODE_CLASS_GROUP = "karpenter.k8s.aws";

  private static final Set<String> PROVISIONER_FIELDS = Set.of("requirements", "labels", "annotations", "taints",
      "startupTaints", "kubeletConfiguration", "limits", "weight", "provider", "providerRef", "ttlSecondsAfterEmpty",
      "ttlSecondsUntilExpired", "consolidation");
  private static final Set<String> BETA_SPEC_FIELDS = Set.of("template", "disruption", "limits", "weight");
  private static final Set<String> BETA_TEMPLATE_SPEC_FIELDS = Set.of("nodeClassRef", "requirements", "taints",
      "startupTaints", "kubelet", "resources");
  private static final Set<String> BETA_DISRUPTION_FIELDS = Set.of("consolidationPolicy", "consolidateAfter", "expireAfter",
      "budgets");
  static final Set<String> KUBELET_FIELDS = Set.of("clusterDNS", "maxPods", "podsPerCore", "systemReserved", "kubeReserved",
      "evictionHard", "evictionSoft", "evictionSoftGracePeriod", "evictionMaxPodGracePeriod", "imageGCHighThresholdPercent",
      "imageGCLowThresholdPercent", "cpuCFSQuota");

  /** The requirement keys that stop v1alpha5's instance category and generation defaults. */
  private static final List<String> INSTANCE_SHAPE_KEYS = List.of("node.kubernetes.io/instance-type",
      "karpenter.k8s.aws/instance-family", "karpenter.k8s.aws/instance-category", "karpenter.k8s.aws/instance-generation");

  /**
   * A v1 NodePool the migration produced or read, with what the kubelet placement needs: the EC2NodeClass it names
   * and the kubelet settings it carried (null when it had none).
   */
  record Pool(Doc doc, MappingNode root, MappingNode nodeClassRef, Node kubelet, NodeTuple kubeletAt, String kubeletField) {
    String name() {
      return Tree.text(Tree.map(root, "metadata"), "name");
    }

    String nodeClass() {
      return Tree.text(nodeClassRef, "name");
    }
  }

  /** A v1alpha5 Provisioner as a v1 NodePool (and, from an inline provider, the EC2NodeClass before it). */
  static Pool fromProvisioner(Ctx ctx, Doc doc, List<Doc> newClasses) {
    MappingNode spec = Tree.map(doc.root, "spec");
    if (spec == null) {
      ctx.problem(doc, "spec", doc.root, "a Provisioner needs a spec");
      return null;
    }
    if (!NodeClassRules.known(ctx, doc, spec, "spec.", PROVISIONER_FIELDS, "karpenter.sh/v1alpha5 Provisioner")) {
      return null;
    }
    NodeTuple provider = Tree.tuple(spec, "provider");
    NodeTuple providerRef = Tree.tuple(spec, "providerRef");
    if (provider != null && providerRef != null) {
      ctx.problem(doc, "spec.provider", provider.getKeyNode(), "a Provisioner takes provider or providerRef (line "
          + Tree.line(providerRef.getKeyNode()) + "), not both: keep the one its nodes were launched with");
      return null;
    }
    if (provider == null && providerRef == null) {
      ctx.problem(doc, "spec.providerRef", spec, "a Provisioner needs provider or providerRef: nothing says how to launch its nodes");
      return null;
    }
    NodeTuple ttlEmpty = Tree.tuple(spec, "ttlSecondsAfterEmpty");
    NodeTuple consolidation = Tree.tuple(spec, "consolidation");
    boolean consolidate = false;
    if (consolidation != null && consolidation.getValueNode() instanceof MappingNode c && Tree.has(c, "enabled")) {
      Boolean enabled = Tree.bool(Tree.get(c, "enabled"));
      if (enabled == null) {
        ctx.problem(doc, "spec.consolidation.enabled", Tree.get(c, "enabled"), "expected true or false, got "
            + Tree.flow(Tree.get(c, "enabled")));
        return null;
      }
      consolidate = enabled;
    }
    if (ttlEmpty != null && consolidate) {
      ctx.problem(doc, "spec.ttlSecondsAfterEmpty", ttlEmpty.getKeyNode(), "cannot be set with consolidation.enabled "
          + "(line " + Tree.line(consolidation.getKeyNode()) + "); v1alpha5 refused both, keep one");
      return null;
    }
    String name = doc.name;
    MappingNode newSpec = Tree.newMap();
    MappingNode template = Tree.newMap();
    MappingNode templateMetadata = Tree.newMap();
    MappingNode templateSpec = Tree.newMap();

    for (String field : List.of("labels", "annotations")) {
      NodeTuple t = Tree.tuple(spec, field);
      if (t != null) {
        Tree.put(templateMetadata, field, t.getValueNode(), t);
        ctx.changed(doc, "spec." + field, t, "moved to spec.template.metadata." + field);
      }
    }
    if (Tree.get(templateMetadata, "annotations") instanceof MappingNode annotations) {
      PodRules.renameAnnotations(ctx, doc, annotations, "spec.annotations", "node");
    }

    NodeTuple requirementsAt = Tree.tuple(spec, "requirements");
    if (requirementsAt != null && !(requirementsAt.getValueNode() instanceof SequenceNode)) {
      ctx.problem(doc, "spec.requirements", requirementsAt.getKeyNode(), "expected a list of requirements, got "
          + Tree.flow(requirementsAt.getValueNode()));
      return null;
    }
    SequenceNode requirements = requirementsAt != null ? (SequenceNode) requirementsAt.getValueNode() : Tree.seq(List.of());
    Tree.put(templateSpec, "requirements", requirements, requirementsAt);
    if (requirementsAt != null) {
      ctx.changed(doc, "spec.requirements", requirementsAt, "moved to spec.template.spec.requirements");
    }
    alphaDefaults(ctx, doc, requirements, Tree.map(spec, "labels"));

    MappingNode ref = Tree.newMap();
    Tree.put(ref, "group", Tree.str(NODE_CLASS_GROUP));
    Tree.put(ref, "kind", Tree.str("EC2NodeClass"));
    if (providerRef != null) {
      String className = Tree.text(providerRef.getValueNode() instanceof MappingNode m ? m : Tree.newMap(), "name");
      if (className == null) {
        ctx.problem(doc, "spec.providerRef.name", providerRef.getKeyNode(), "providerRef needs the name of an AWSNodeTemplate");
        return null;
      }
      Tree.put(ref, "name", Tree.str(className));
      ctx.changed(doc, "spec.providerRef", providerRef, "became spec.template.spec.nodeClassRef {group: karpenter.k8s.aws, "
          + "kind: EC2NodeClass, name: " + className + "}: the AWSNodeTemplate " + className + " is migrated to that EC2NodeClass");
    } else {
      if (!(provider.getValueNode() instanceof MappingNode providerSpec)) {
        ctx.problem(doc, "spec.provider", provider.getKeyNode(), "expected a map of AWS settings");
        return null;
      }
      Tree.remove(providerSpec, "apiVersion");
      Tree.remove(providerSpec, "kind");
      MappingNode nodeClass = Tree.newMap();
      Tree.put(nodeClass, "apiVersion", Tree.str(NodeClassRules.API_VERSION));
      Tree.put(nodeClass, "kind", Tree.str("EC2NodeClass"));
      Tree.put(nodeClass, "metadata", Tree.strings("name", name));
      Tree.put(nodeClass, "spec", providerSpec, provider);
      Doc classDoc = new Doc(doc.source, nodeClass);
      NodeClassRules.fromAlpha(ctx, classDoc, providerSpec, "spec.provider.");
      newClasses.add(classDoc);
      Tree.put(ref, "name", Tree.str(name));
      ctx.changed(doc, "spec.provider", provider, "the inline provider became EC2NodeClass " + name + " (written before "
          + "this NodePool) and spec.template.spec.nodeClassRef names it");
    }
    Tree.put(templateSpec, "nodeClassRef", ref);

    for (String field : List.of("taints", "startupTaints")) {
      NodeTuple t = Tree.tuple(spec, field);
      if (t != null) {
        Tree.put(templateSpec, field, t.getValueNode(), t);
        ctx.changed(doc, "spec." + field, t, "moved to spec.template.spec." + field);
      }
    }
    NodeTuple ttlExpired = Tree.tuple(spec, "ttlSecondsUntilExpired");
    if (ttlExpired != null) {
      String after = Durations.ofSeconds(ctx, doc, "spec.ttlSecondsUntilExpired", ttlExpired);
      Tree.put(templateSpec, "expireAfter", Tree.str(after), ttlExpired);
      ctx.changed(doc, "spec.ttlSecondsUntilExpired", ttlExpired, "became spec.template.spec.expireAfter: " + after);
      replaceFirstExpiry(ctx, doc, "spec.ttlSecondsUntilExpired", ttlExpired.getKeyNode());
    } else {
      Tree.put(templateSpec, "expireAfter", Tree.str("Never"));
      ctx.keptDefault(doc, "spec.ttlSecondsUntilExpired", null, "unset, so nodes never expired; v1 expires them after 720h "
          + "by default: wrote spec.template.spec.expireAfter: Never");
    }
    ctx.note(Finding.Kind.NEW_BEHAVIOUR, doc, "spec", (Node) null, "drift is always on in v1: a node whose NodePool or "
        + "EC2NodeClass changed (or whose alias now names a newer image) is replaced, which v1alpha5 did only with its "
        + "Drift feature gate; a disruption budget with reasons: [Drifted] and nodes: \"0\" would hold it");
    ctx.note(Finding.Kind.NEW_BEHAVIOUR, doc, "spec", (Node) null, "v1 disrupts at most 10% of a NodePool's nodes at once by "
        + "default (budgets); v1alpha5 had no budgets and removed every empty node at once");
    if (!templateMetadata.getValue().isEmpty()) {
      Tree.put(template, "metadata", templateMetadata);
    }
    Tree.put(template, "spec", templateSpec);
    Tree.put(newSpec, "template", template);

    MappingNode disruption = Tree.newMap();
    if (consolidate) {
      Tree.put(disruption, "consolidationPolicy", Tree.str("WhenEmptyOrUnderutilized"), consolidation);
      Tree.put(disruption, "consolidateAfter", Tree.str("0s"));
      ctx.changed(doc, "spec.consolidation.enabled", consolidation, "became spec.disruption.consolidationPolicy: "
          + "WhenEmptyOrUnderutilized with consolidateAfter: 0s (v1alpha5 consolidated at once)");
    } else if (ttlEmpty != null) {
      String after = Durations.ofSeconds(ctx, doc, "spec.ttlSecondsAfterEmpty", ttlEmpty);
      Tree.put(disruption, "consolidationPolicy", Tree.str("WhenEmpty"), ttlEmpty);
      Tree.put(disruption, "consolidateAfter", Tree.str(after));
      ctx.changed(doc, "spec.ttlSecondsAfterEmpty", ttlEmpty, "became spec.disruption.consolidationPolicy: WhenEmpty with "
          + "consolidateAfter: " + after + " (only empty nodes are removed, as before)");
    } else {
      Tree.put(disruption, "consolidationPolicy", Tree.str("WhenEmpty"), consolidation);
      Tree.put(disruption, "consolidateAfter", Tree.str("Never"));
      ctx.keptDefault(doc, "spec.consolidation", consolidation == null ? null : consolidation.getKeyNode(), "neither "
          + "ttlSecondsAfterEmpty nor consolidation.enabled, so no node was ever removed for being empty or underused; v1 "
          + "consolidates both by default (and so would karpenter-convert's output, which writes no policy): wrote "
          + "consolidationPolicy: WhenEmpty with consolidateAfter: Never");
    }
    Tree.put(newSpec, "disruption", disruption);

    NodeTuple limits = Tree.tuple(spec, "limits");
    if (limits != null) {
      if (limits.getValueNode() instanceof MappingNode l && Tree.get(l, "resources") instanceof MappingNode resources) {
        Tree.put(newSpec, "limits", resources, limits);
        ctx.changed(doc, "spec.limits.resources", limits, "became spec.limits");
      } else {
        ctx.problem(doc, "spec.limits", limits.getKeyNode(), "expected limits.resources, got " + Tree.flow(limits.getValueNode()));
        return null;
      }
    }
    NodeTuple weight = Tree.tuple(spec, "weight");
    if (weight != null) {
      if (!validWeight(weight.getValueNode())) {
        ctx.problem(doc, "spec.weight", weight.getKeyNode(), "expected a whole number from 1 to 100 (v1 refuses others), got "
            + Tree.flow(weight.getValueNode()));
        return null;
      }
      Tree.put(newSpec, "weight", weight.getValueNode(), weight);
    }
    NodeTuple kubelet = Tree.tuple(spec, "kubeletConfiguration");
    Node kubeletValue = kubelet == null ? null : kubelet(ctx, doc, kubelet, "spec.kubeletConfiguration");

    Tree.put(doc.root, "apiVersion", Tree.str(API_VERSION));
    Tree.put(doc.root, "kind", Tree.str("NodePool"));
    Tree.put(doc.root, "spec", newSpec);
    Migrator.serverFieldsRemoved(doc.root);
    return new Pool(doc, doc.root, ref, kubeletValue, kubelet, "spec.kubeletConfiguration");
  }

  private static boolean validWeight(Node value) {
    if (!(value instanceof org.yaml.snakeyaml.nodes.ScalarNode scalar) || !org.yaml.snakeyaml.nodes.Tag.INT.equals(scalar.getTag())) {
      return false;
    }
    try {
      int weight = Integer.parseInt(Objects.requireNonNullElse(Tree.text(value), ""));
      return weight >= 1 && weight <= 100;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** Farrier's annotation that keeps expiry a replacement first, within budgets, as it was before v1. */
  static final String EXPIRY_ANNOTATION = "farrier.dev/expiry";

  /**
   * Before v1 an expired node was disrupted like a drifted one: within budgets, do-not-disrupt and PDBs, its
   * replacement first. v1 expiry is forceful; Farrier's {@code farrier.dev/expiry: replace-first} keeps the old way.
   */
  private static void replaceFirstExpiry(Ctx ctx, Doc doc, String field, Node at) {
    MappingNode metadata = Tree.child(doc.root, "metadata");
    if (Tree.map(metadata, "annotations") instanceof MappingNode a && Tree.has(a, EXPIRY_ANNOTATION)) {
      return;
    }
    Tree.put(Tree.child(metadata, "annotations"), EXPIRY_ANNOTATION, Tree.str("replace-first"));
    ctx.keptDefault(doc, field, at, (at == null ? "unset, which meant 720h; " : "") + "nodes expired like drifted ones: "
        + "replaced first, within budgets, PDBs and do-not-disrupt; v1 expiry is forceful (drains at once, past budgets and "
        + "do-not-disrupt): wrote the NodePool annotation " + EXPIRY_ANNOTATION + ": replace-first, which keeps the old way in Farrier");
  }

  /** v1alpha5's defaulting webhook's requirements, which neither v1beta1 nor v1 add: written out. */
  private static void alphaDefaults(Ctx ctx, Doc doc, SequenceNode requirements, MappingNode labels) {
    List<String> keys = new ArrayList<>();
    for (Node r : requirements.getValue()) {
      if (r instanceof MappingNode m && Tree.text(m, "key") != null) {
        keys.add(Tree.text(m, "key"));
      }
    }
    if (labels != null) {
      labels.getValue().forEach(t -> keys.add(Tree.key(t)));
    }
    List<Node> added = new ArrayList<>();
    addDefault(keys, added, "kubernetes.io/os", "In", "linux");
    addDefault(keys, added, "kubernetes.io/arch", "In", "amd64");
    addDefault(keys, added, "karpenter.sh/capacity-type", "In", "on-demand");
    if (INSTANCE_SHAPE_KEYS.stream().noneMatch(keys::contains)) {
      added.add(requirement("karpenter.k8s.aws/instance-category", "In", List.of("c", "m", "r")));
      added.add(requirement("karpenter.k8s.aws/instance-generation", "Gt", List.of("2")));
    }
    if (!added.isEmpty()) {
      requirements.getValue().addAll(added);
      ctx.keptDefault(doc, "spec.requirements", null, "v1alpha5 added requirements the Provisioner did not state, which "
          + "v1 does not: wrote them (" + String.join("; ", added.stream().map(Tree::flow).toList()) + ")");
    }
  }

  private static void addDefault(List<String> keys, List<Node> added, String key, String operator, String value) {
    if (!keys.contains(key)) {
      added.add(requirement(key, operator, List.of(value)));
    }
  }

  private static MappingNode requirement(String key, String operator, List<String> values) {
    MappingNode m = Tree.strings("key", key, "operator", operator);
    Tree.put(m, "values", Tree.flowSeq(values));
    return m;
  }

  /** A v1beta1 NodePool as a v1 NodePool, edited in place. */
  static Pool fromBeta(Ctx ctx, Doc doc) {
    MappingNode spec = Tree.map(doc.root, "spec");
    if (spec == null || Tree.map(spec, "template") == null || Tree.map(Tree.map(spec, "template"), "spec") == null) {
      ctx.problem(doc, "spec.template.spec", doc.root, "a NodePool needs spec.template.spec");
      return null;
    }
    MappingNode template = Tree.map(spec, "template");
    MappingNode templateSpec = Tree.map(template, "spec");
    if (!NodeClassRules.known(ctx, doc, spec, "spec.", BETA_SPEC_FIELDS, "karpenter.sh/v1beta1 NodePool")
        || !NodeClassRules.known(ctx, doc, templateSpec, "spec.template.spec.", BETA_TEMPLATE_SPEC_FIELDS, "karpenter.sh/v1beta1 NodePool")) {
      return null;
    }
    NodeTuple refAt = Tree.tuple(templateSpec, "nodeClassRef");
    if (refAt == null || !(refAt.getValueNode() instanceof MappingNode oldRef) || Tree.text(oldRef, "name") == null) {
      ctx.problem(doc, "spec.template.spec.nodeClassRef", refAt == null ? templateSpec : refAt.getKeyNode(),
          "a NodePool needs nodeClassRef.name");
      return null;
    }
    String apiVersion = Tree.text(oldRef, "apiVersion");
    String kind = Tree.text(oldRef, "kind");
    String group = apiVersion == null ? NODE_CLASS_GROUP : apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : apiVersion;
    if (!NODE_CLASS_GROUP.equals(group) || (kind != null && !kind.equals("EC2NodeClass"))) {
      ctx.problem(doc, "spec.template.spec.nodeClassRef", refAt.getKeyNode(), "Farrier launches nodes from a "
          + "karpenter.k8s.aws EC2NodeClass, not " + Tree.flow(oldRef));
      return null;
    }
    MappingNode ref = Tree.newMap();
    Tree.put(ref, "group", Tree.str(NODE_CLASS_GROUP));
    Tree.put(ref, "kind", Tree.str("EC2NodeClass"));
    Tree.put(ref, "name", Tree.str(Tree.text(oldRef, "name")));
    Tree.put(templateSpec, "nodeClassRef", ref);
    ctx.changed(doc, "spec.template.spec.nodeClassRef", refAt, "apiVersion became group (v1 requires group, kind and "
        + "name): " + Tree.flow(ref));

    NodeTuple resources = Tree.remove(templateSpec, "resources");
    if (resources != null) {
      ctx.changed(doc, "spec.template.spec.resources", resources, "removed: v1 NodePools have no template resources "
          + "(Karpenter never launched by them)");
    }
    if (Tree.map(template, "metadata") != null && Tree.map(Tree.map(template, "metadata"), "annotations") instanceof MappingNode a) {
      PodRules.renameAnnotations(ctx, doc, a, "spec.template.metadata.annotations", "node");
    }
    NodeTuple disruptionAt = Tree.tuple(spec, "disruption");
    if (disruptionAt != null && disruptionAt.getValueNode() instanceof MappingNode disruption) {
      if (!NodeClassRules.known(ctx, doc, disruption, "spec.disruption.", BETA_DISRUPTION_FIELDS, "karpenter.sh/v1beta1 NodePool")) {
        return null;
      }
      NodeTuple expire = Tree.remove(disruption, "expireAfter");
      if (expire != null) {
        Tree.put(templateSpec, "expireAfter", expire.getValueNode(), expire);
        ctx.changed(doc, "spec.disruption.expireAfter", expire, "moved to spec.template.spec.expireAfter");
      }
      if (expire == null || !"Never".equals(Tree.text(expire.getValueNode()))) {
        replaceFirstExpiry(ctx, doc, "spec.disruption.expireAfter", expire == null ? null : expire.getKeyNode());
      }
      NodeTuple policy = Tree.tuple(disruption, "consolidationPolicy");
      String policyValue = policy == null ? "WhenUnderutilized" : Tree.text(policy.getValueNode());
      if ("WhenUnderutilized".equals(policyValue)) {
        Tree.put(disruption, "consolidationPolicy", Tree.str("WhenEmptyOrUnderutilized"));
        ctx.changed(doc, "spec.disruption.consolidationPolicy", policy, (policy == null ? "unset, which meant " : "")
            + "WhenUnderutilized, renamed WhenEmptyOrUnderutilized in v1");
      }
      if (!Tree.has(disruption, "consolidateAfter")) {
        Tree.put(disruption, "consolidateAfter", Tree.str("0s"));
        ctx.changed(doc, "spec.disruption.consolidateAfter", policy, "v1 requires it: wrote 0s, which is how soon "
            + "v1beta1's WhenUnderutilized acted");
      }
      if (disruption.getValue().isEmpty()) {
        Tree.remove(spec, "disruption");
      }
    }
    if (disruptionAt == null) {
      replaceFirstExpiry(ctx, doc, "spec.disruption.expireAfter", null);
    }
    NodeTuple kubelet = Tree.remove(templateSpec, "kubelet");
    Node kubeletValue = kubelet == null ? null : kubelet(ctx, doc, kubelet, "spec.template.spec.kubelet");
    Tree.put(doc.root, "apiVersion", Tree.str(API_VERSION));
    Migrator.serverFieldsRemoved(doc.root);
    return new Pool(doc, doc.root, ref, kubeletValue, kubelet, "spec.template.spec.kubelet");
  }

  /** A v1 NodePool read as it is, for the kubelet placement of the classes it shares. */
  static Pool v1(Doc doc) {
    MappingNode spec = Tree.map(doc.root, "spec");
    MappingNode template = spec == null ? null : Tree.map(spec, "template");
    MappingNode templateSpec = template == null ? null : Tree.map(template, "spec");
    MappingNode ref = templateSpec == null ? null : Tree.map(templateSpec, "nodeClassRef");
    return ref == null ? null : new Pool(doc, doc.root, ref, null, null, null);
  }

  /** The old kubelet settings, checked: v1alpha5's containerRuntime is dropped (v1 nodes run containerd). */
  private static Node kubelet(Ctx ctx, Doc doc, NodeTuple at, String field) {
    if (!(at.getValueNode() instanceof MappingNode kubelet)) {
      ctx.problem(doc, field, at.getKeyNode(), "expected a map of kubelet settings");
      return null;
    }
    NodeTuple runtime = Tree.remove(kubelet, "containerRuntime");
    if (runtime != null) {
      ctx.changed(doc, field + ".containerRuntime", runtime, "removed: v1 has no such setting, every node runs containerd");
    }
    NodeClassRules.known(ctx, doc, kubelet, field + ".", KUBELET_FIELDS, "kubelet settings");
    return kubelet.getValue().isEmpty() ? null : kubelet;
  }
}
