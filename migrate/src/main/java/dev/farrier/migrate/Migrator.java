package dev.farrier.migrate;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;

/**
 * Old Karpenter manifests to v1: v1alpha5 Provisioners and v1alpha1 AWSNodeTemplates (through v1beta1's rules) and
 * v1beta1 NodePools and EC2NodeClasses become v1 NodePools and EC2NodeClasses that keep the behaviour the user had,
 * and the pods' renamed annotations and label follow. v1 objects and everything else are left as they are. All
 * inputs are migrated together, since a NodePool and its class may live in different files.
 *
 * <p>Bad input (not YAML, not a Kubernetes object, an unknown Karpenter kind or version, a field the old kind never
 * had, contradictory settings) stops the whole migration with every problem named ({@link MigrationException});
 * nothing is produced in part.
 */
public final class Migrator {
  /**
   * @param defaultInstanceProfile what the v1alpha5 controller's {@code aws.defaultInstanceProfile} was, written on the
   *                               EC2NodeClasses of templates that named none (null: each is left to a person)
   */
  public record Options(String defaultInstanceProfile) {
    public static Options defaults() {
      return new Options(null);
    }
  }

  private Migrator() {}

  public static List<MigratedFile> migrate(List<Source> sources, Options options) {
    Ctx ctx = new Ctx(options);
    Map<Source, List<Doc>> docs = new LinkedHashMap<>();
    for (Source source : sources) {
      docs.put(source, parse(ctx, source));
    }
    stopOnProblems(ctx);

    Map<String, KubeletPlacement.NodeClass> classes = new LinkedHashMap<>();
    List<NodePoolRules.Pool> pools = new ArrayList<>();
    for (List<Doc> inSource : docs.values()) {
      for (Doc doc : inSource) {
        switch (doc.apiVersion + " " + doc.kind) {
          case "karpenter.k8s.aws/v1alpha1 AWSNodeTemplate" -> {
            MappingNode spec = spec(ctx, doc);
            if (spec != null) {
              NodeClassRules.fromAlpha(ctx, doc, spec, "spec.");
              Tree.put(doc.root, "apiVersion", Tree.str(NodeClassRules.API_VERSION));
              Tree.put(doc.root, "kind", Tree.str("EC2NodeClass"));
              serverFieldsRemoved(doc.root);
              ctx.changed(doc, "", null, "became a karpenter.k8s.aws/v1 EC2NodeClass of the same name");
            }
            addClass(ctx, classes, doc, doc.root, doc);
          }
          case "karpenter.k8s.aws/v1beta1 EC2NodeClass" -> {
            MappingNode spec = spec(ctx, doc);
            if (spec != null) {
              NodeClassRules.fromBeta(ctx, doc, spec);
              Tree.put(doc.root, "apiVersion", Tree.str(NodeClassRules.API_VERSION));
              serverFieldsRemoved(doc.root);
            }
            addClass(ctx, classes, doc, doc.root, doc);
          }
          case "karpenter.k8s.aws/v1 EC2NodeClass" -> addClass(ctx, classes, doc, doc.root, doc);
          default -> {
            // NodePools once every class of the input is known
          }
        }
      }
    }
    for (List<Doc> inSource : docs.values()) {
      for (Doc doc : inSource) {
        switch (doc.apiVersion + " " + doc.kind) {
          case "karpenter.sh/v1alpha5 Provisioner" -> {
            List<Doc> made = new ArrayList<>();
            NodePoolRules.Pool pool = NodePoolRules.fromProvisioner(ctx, doc, made);
            for (Doc nodeClass : made) {
              doc.out.add(doc.out.indexOf(doc.root), nodeClass.root);
              addClass(ctx, classes, nodeClass, nodeClass.root, doc);
            }
            add(pools, pool);
          }
          case "karpenter.sh/v1beta1 NodePool" -> add(pools, NodePoolRules.fromBeta(ctx, doc));
          case "karpenter.sh/v1 NodePool" -> add(pools, NodePoolRules.v1(doc));
          default -> {
            if (PodRules.carriesPods(doc)) {
              PodRules.migrate(ctx, doc);
            }
          }
        }
      }
    }
    stopOnProblems(ctx);
    KubeletPlacement.place(ctx, pools, classes);
    stopOnProblems(ctx);

    List<MigratedFile> files = new ArrayList<>();
    for (var entry : docs.entrySet()) {
      Source source = entry.getKey();
      List<Finding> findings = ctx.findings.stream().filter(f -> f.source().equals(source.name())).toList();
      boolean changed = ctx.listsUnwrapped.contains(source.name()) || entry.getValue().stream().anyMatch(Doc::changed);
      String text = changed ? render(entry.getValue()) : source.text();
      files.add(new MigratedFile(source.name(), text, changed, findings));
    }
    return files;
  }

  private static void add(List<NodePoolRules.Pool> pools, NodePoolRules.Pool pool) {
    if (pool != null) {
      pools.add(pool);
    }
  }

  private static void addClass(Ctx ctx, Map<String, KubeletPlacement.NodeClass> classes, Doc doc, MappingNode root, Doc owner) {
    String name = Tree.text(Tree.map(root, "metadata"), "name");
    if (name == null) {
      ctx.problem(doc, "metadata.name", root, "an EC2NodeClass needs a name");
      return;
    }
    if (classes.containsKey(name)) {
      KubeletPlacement.NodeClass other = classes.get(name);
      ctx.problem(doc, "metadata.name", root, "a second EC2NodeClass named " + name + " (the first: "
          + other.doc().source.name() + ":" + Tree.line(other.root()) + " " + other.doc().label() + "); a Provisioner's "
          + "inline provider becomes a class named after the Provisioner");
      return;
    }
    classes.put(name, new KubeletPlacement.NodeClass(doc, root, owner));
  }

  /** What the API server set (kubectl get -o yaml keeps it) goes: a v1 object carrying a resourceVersion cannot be created. */
  static void serverFieldsRemoved(MappingNode root) {
    Tree.remove(root, "status");
    MappingNode metadata = Tree.map(root, "metadata");
    if (metadata == null) {
      return;
    }
    for (String field : List.of("resourceVersion", "uid", "creationTimestamp", "generation", "managedFields", "selfLink")) {
      Tree.remove(metadata, field);
    }
    if (Tree.map(metadata, "annotations") instanceof MappingNode annotations) {
      Tree.remove(annotations, "kubectl.kubernetes.io/last-applied-configuration");
      if (annotations.getValue().isEmpty()) {
        Tree.remove(metadata, "annotations");
      }
    }
  }

  private static MappingNode spec(Ctx ctx, Doc doc) {
    MappingNode spec = Tree.map(doc.root, "spec");
    if (spec == null) {
      ctx.problem(doc, "spec", doc.root, "expected a spec");
    }
    return spec;
  }

  private static void stopOnProblems(Ctx ctx) {
    if (!ctx.problems.isEmpty()) {
      throw new MigrationException(ctx.problems);
    }
  }

  private static final java.util.Set<String> KARPENTER_GROUPS = java.util.Set.of("karpenter.sh", "karpenter.k8s.aws");
  private static final java.util.Set<String> KNOWN = java.util.Set.of("karpenter.sh/v1alpha5 Provisioner",
      "karpenter.k8s.aws/v1alpha1 AWSNodeTemplate", "karpenter.sh/v1beta1 NodePool", "karpenter.k8s.aws/v1beta1 EC2NodeClass",
      "karpenter.sh/v1 NodePool", "karpenter.k8s.aws/v1 EC2NodeClass");

  private static List<Doc> parse(Ctx ctx, Source source) {
    List<Doc> docs = new ArrayList<>();
    try {
      List<Node> nodes = new ArrayList<>();
      for (Node node : Tree.yaml().composeAll(new StringReader(source.text()))) {
        if (node == null) {
          continue;
        }
        Node duplicate = Tree.duplicateKey(node);
        if (duplicate != null) {
          ctx.problems.add(source.name() + ":" + Tree.line(duplicate) + ": the key " + Tree.text(duplicate) + " appears twice "
              + "in one map (kubectl would keep one of them, unsaid): keep the one meant");
          continue;
        }
        nodes.add(node);
      }
      for (Node node : unwrapLists(ctx, source, nodes)) {
        if (!(node instanceof MappingNode root)) {
          ctx.problems.add(source.name() + ":" + Tree.line(node) + ": not a Kubernetes object (a YAML document that is "
              + "not a map with apiVersion and kind)");
          continue;
        }
        Doc doc = new Doc(source, root);
        if (doc.apiVersion == null || doc.kind == null) {
          ctx.problems.add(source.name() + ":" + Tree.line(node) + ": not a Kubernetes object (no apiVersion or kind)");
          continue;
        }
        if (KARPENTER_GROUPS.contains(doc.group()) && !KNOWN.contains(doc.apiVersion + " " + doc.kind)) {
          ctx.problem(doc, "kind", Tree.tuple(root, "kind").getKeyNode(), doc.apiVersion + " " + doc.kind + " is not a "
              + "kind farrier migrate knows (it migrates v1alpha5 Provisioners, v1alpha1 AWSNodeTemplates, v1beta1 "
              + "NodePools and EC2NodeClasses; NodeClaims and Machines are made by the controller, not kept in manifests)");
          continue;
        }
        if (doc.name == null && KARPENTER_GROUPS.contains(doc.group())) {
          ctx.problem(doc, "metadata.name", root, "needs a name");
          continue;
        }
        docs.add(doc);
      }
    } catch (MarkedYAMLException e) {
      Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
      ctx.problems.add(source.name() + (mark == null ? "" : ":" + (mark.getLine() + 1)) + ": not YAML: " + e.getProblem());
    } catch (YAMLException e) {
      ctx.problems.add(source.name() + ": not YAML: " + e.getMessage());
    } catch (StackOverflowError e) {
      ctx.problems.add(source.name() + ": an alias that refers to itself");
    }
    return docs;
  }

  /**
   * {@code kubectl get ... -o yaml} writes a {@code v1 List}: its items that are Karpenter objects are migrated as
   * documents of their own (a List of anything else is left as it is).
   */
  private static List<Node> unwrapLists(Ctx ctx, Source source, List<Node> nodes) {
    List<Node> out = new ArrayList<>();
    for (Node node : nodes) {
      if (node instanceof MappingNode m && "v1".equals(Tree.text(m, "apiVersion")) && "List".equals(Tree.text(m, "kind"))
          && Tree.get(m, "items") instanceof org.yaml.snakeyaml.nodes.SequenceNode items
          && items.getValue().stream().anyMatch(i -> i instanceof MappingNode im && KARPENTER_GROUPS.contains(group(Tree.text(im, "apiVersion"))))) {
        out.addAll(items.getValue());
        ctx.listsUnwrapped.add(source.name());
        ctx.findings.add(new Finding(Finding.Kind.CHANGED, "List", source.name(), Tree.line(m), "items",
            "the items of this List (kubectl get -o yaml) are written as documents of their own"));
      } else {
        out.add(node);
      }
    }
    return out;
  }

  private static String group(String apiVersion) {
    return apiVersion == null || !apiVersion.contains("/") ? "" : apiVersion.substring(0, apiVersion.indexOf('/'));
  }

  private static String render(List<Doc> docs) {
    var out = new StringBuilder();
    for (Doc doc : docs) {
      for (Node node : doc.out) {
        if (!out.isEmpty()) {
          out.append("---\n");
        }
        out.append(Tree.dump(node));
      }
    }
    return out.toString();
  }
}
