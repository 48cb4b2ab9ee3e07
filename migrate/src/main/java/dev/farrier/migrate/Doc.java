package dev.farrier.migrate;

import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;

/**
 * One YAML document of an input while it is migrated: the object as read and what replaces it in the output (itself,
 * edited in place; or a new v1 object, preceded by an EC2NodeClass made from an inline provider).
 */
final class Doc {
  final Source source;
  final MappingNode root;
  final String before;
  final String apiVersion;
  final String kind;
  final String name;
  final List<Node> out = new ArrayList<>();

  Doc(Source source, MappingNode root) {
    this.source = source;
    this.root = root;
    this.before = Tree.dump(root);
    this.apiVersion = Tree.text(root, "apiVersion");
    this.kind = Tree.text(root, "kind");
    this.name = Tree.text(Tree.map(root, "metadata"), "name");
    out.add(root);
  }

  String label() {
    return kind + "/" + (name == null ? "?" : name);
  }

  String group() {
    return apiVersion == null || !apiVersion.contains("/") ? "" : apiVersion.substring(0, apiVersion.indexOf('/'));
  }

  boolean changed() {
    return out.size() != 1 || out.getFirst() != root || !Tree.dump(root).equals(before);
  }
}
