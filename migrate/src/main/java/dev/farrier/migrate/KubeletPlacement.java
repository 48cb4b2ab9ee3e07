package dev.farrier.migrate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;

/**
 * Kubelet settings moved from the NodePool to the EC2NodeClass in v1. NodePools that share a class and agree keep it;
 * those that disagree cannot all have their settings on one class, so each other setting gets its own copy of the
 * class ({@code <class>-<first NodePool>}) and its NodePools point at it. Moving a NodePool to another class replaces
 * its nodes (drift), which the report says.
 */
final class KubeletPlacement {
  private KubeletPlacement() {}

  private static final String NONE = "";

  /** A class of the input: its object and the document whose output it is written in. */
  record NodeClass(Doc doc, MappingNode root, Doc owner) {}

  static void place(Ctx ctx, List<NodePoolRules.Pool> pools, Map<String, NodeClass> classes) {
    Map<String, List<NodePoolRules.Pool>> byClass = new LinkedHashMap<>();
    pools.forEach(p -> byClass.computeIfAbsent(p.nodeClass(), k -> new ArrayList<>()).add(p));
    Set<String> names = new java.util.HashSet<>(classes.keySet());
    for (var entry : byClass.entrySet()) {
      NodeClass nodeClass = classes.get(entry.getKey());
      if (nodeClass == null) {
        for (NodePoolRules.Pool p : entry.getValue()) {
          if (p.kubelet() != null) {
            ctx.person(p.doc(), p.kubeletField(), p.kubeletAt().getKeyNode(), "v1 keeps kubelet settings on the "
                + "EC2NodeClass, and " + entry.getKey() + " is not in the input: add kubelet: " + Tree.flow(p.kubelet())
                + " to its spec (or migrate it together with this NodePool); removed here");
          }
        }
        continue;
      }
      MappingNode classSpec = Tree.child(nodeClass.root(), "spec");
      Node own = Tree.get(classSpec, "kubelet");
      Map<String, List<NodePoolRules.Pool>> bySetting = new LinkedHashMap<>();
      for (NodePoolRules.Pool p : entry.getValue()) {
        Node setting = p.kubeletField() == null ? own : p.kubelet();
        bySetting.computeIfAbsent(setting == null ? NONE : Tree.flow(setting), k -> new ArrayList<>()).add(p);
      }
      // The setting that stays on the class: a v1 class's own (its v1 NodePools rely on it and are never moved),
      // else the first NodePool's.
      boolean v1 = nodeClass.owner() == nodeClass.doc() && NodeClassRules.API_VERSION.equals(nodeClass.doc().apiVersion);
      String staying = v1 ? (own == null ? NONE : Tree.flow(own)) : bySetting.keySet().iterator().next();
      int insertAt = nodeClass.owner().out.indexOf(nodeClass.root()) + 1;
      for (var group : bySetting.entrySet()) {
        List<NodePoolRules.Pool> members = group.getValue();
        Node setting = members.stream().map(p -> p.kubeletField() == null ? own : p.kubelet()).filter(s -> s != null).findFirst().orElse(null);
        if (group.getKey().equals(staying)) {
          if (setting != null && setting != own) {
            Tree.put(classSpec, "kubelet", Tree.copy(setting));
          }
          members.stream().filter(p -> p.kubelet() != null).forEach(p -> ctx.changed(p.doc(), p.kubeletField(), p.kubeletAt(),
              "moved to EC2NodeClass " + entry.getKey() + " (v1 keeps kubelet settings on the class)"));
          continue;
        }
        String copyName = unique(names, entry.getKey() + "-" + members.getFirst().name());
        MappingNode copy = (MappingNode) Tree.copy(nodeClass.root());
        Tree.put(Tree.child(copy, "metadata"), "name", Tree.str(copyName));
        MappingNode copySpec = Tree.child(copy, "spec");
        if (setting == null) {
          Tree.remove(copySpec, "kubelet");
        } else {
          Tree.put(copySpec, "kubelet", Tree.copy(setting));
        }
        nodeClass.owner().out.add(insertAt++, copy);
        String others = String.join(", ", entry.getValue().stream().filter(p -> !members.contains(p)).map(NodePoolRules.Pool::name).toList());
        for (NodePoolRules.Pool p : members) {
          Tree.put(p.nodeClassRef(), "name", Tree.str(copyName));
          ctx.note(Finding.Kind.CHANGED, p.doc(), p.kubeletField() == null ? "spec.template.spec.nodeClassRef" : p.kubeletField(),
              p.kubeletAt() == null ? null : p.kubeletAt().getKeyNode(), "shares EC2NodeClass " + entry.getKey() + " with "
                  + others + ", whose kubelet settings differ; v1 keeps them on the class, so this NodePool now names "
                  + "EC2NodeClass " + copyName + ", a copy of " + entry.getKey() + " with "
                  + (setting == null ? "no kubelet settings" : "kubelet: " + Tree.flow(setting))
                  + " (changing nodeClassRef replaces the NodePool's nodes once, as drift)");
        }
      }
    }
  }

  private static String unique(Set<String> names, String wanted) {
    String name = wanted;
    for (int i = 2; !names.add(name); i++) {
      name = wanted + "-" + i;
    }
    return name;
  }
}
