package dev.farrier.migrate;

import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Edits of SnakeYAML's node trees, the form that keeps comments, key order and scalar styles through a round trip.
 * Every edit keeps the position of a key it replaces or renames and appends a new key at the end of its mapping.
 */
final class Tree {
  private Tree() {}

  /** A loader and dumper that keep comments; lines are never folded, sequences are indented under their key. */
  static Yaml yaml() {
    var load = new LoaderOptions();
    load.setProcessComments(true);
    var dump = new DumperOptions();
    dump.setProcessComments(true);
    dump.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
    dump.setIndent(2);
    dump.setIndicatorIndent(2);
    dump.setIndentWithIndicator(true);
    dump.setWidth(Integer.MAX_VALUE);
    dump.setSplitLines(false);
    return new Yaml(load, dump);
  }

  static String dump(Node node) {
    var out = new StringWriter();
    yaml().serialize(node, out);
    return out.toString();
  }

  /** The node's one-line flow form, for reports and for comparing two values. */
  static String flow(Node node) {
    var dump = new DumperOptions();
    dump.setDefaultFlowStyle(DumperOptions.FlowStyle.FLOW);
    dump.setWidth(Integer.MAX_VALUE);
    var out = new StringWriter();
    new Yaml(dump).serialize(plain(node), out);
    return out.toString().strip();
  }

  /** A copy without comments or styles, so that two values written differently compare equal. */
  private static Node plain(Node node) {
    return switch (node) {
      case ScalarNode s -> new ScalarNode(s.getTag(), s.getValue(), null, null, DumperOptions.ScalarStyle.PLAIN);
      case SequenceNode s -> new SequenceNode(Tag.SEQ, s.getValue().stream().map(Tree::plain).toList(), DumperOptions.FlowStyle.FLOW);
      case MappingNode m -> new MappingNode(Tag.MAP, m.getValue().stream()
          .map(t -> new NodeTuple(plain(t.getKeyNode()), plain(t.getValueNode()))).toList(), DumperOptions.FlowStyle.FLOW);
      default -> node;
    };
  }

  /** 1-based line of the node in its source. */
  static int line(Node node) {
    return node.getStartMark() == null ? 0 : node.getStartMark().getLine() + 1;
  }

  /** The key node of a tuple, where a report points; null for no tuple. */
  static Node at(NodeTuple tuple) {
    return tuple == null ? null : tuple.getKeyNode();
  }

  static String key(NodeTuple tuple) {
    return tuple.getKeyNode() instanceof ScalarNode s ? s.getValue() : Tree.flow(tuple.getKeyNode());
  }

  static NodeTuple tuple(MappingNode map, String key) {
    for (NodeTuple t : map.getValue()) {
      if (key.equals(key(t))) {
        return t;
      }
    }
    return null;
  }

  static Node get(MappingNode map, String key) {
    NodeTuple t = tuple(map, key);
    return t == null ? null : t.getValueNode();
  }

  static boolean has(MappingNode map, String key) {
    return tuple(map, key) != null;
  }

  /** The mapping under {@code key}, or null when there is none; a value of another shape is the caller's error. */
  static MappingNode map(MappingNode map, String key) {
    return get(map, key) instanceof MappingNode m ? m : null;
  }

  /** A YAML 1.1 boolean, as Kubernetes reads it ({@code true}, {@code True}, {@code yes}, {@code on} ...), else null. */
  static Boolean bool(Node node) {
    if (node instanceof ScalarNode s && s.getTag().equals(Tag.BOOL)) {
      return switch (s.getValue().toLowerCase(java.util.Locale.ROOT)) {
        case "true", "yes", "on", "y" -> true;
        default -> false;
      };
    }
    return null;
  }

  /** The first key that appears twice in one mapping anywhere under {@code node} (SnakeYAML composes them both). */
  static Node duplicateKey(Node node) {
    if (node instanceof MappingNode m) {
      var seen = new java.util.HashSet<String>();
      for (NodeTuple t : m.getValue()) {
        if (!seen.add(key(t))) {
          return t.getKeyNode();
        }
        Node inner = duplicateKey(t.getValueNode());
        if (inner != null) {
          return inner;
        }
      }
    } else if (node instanceof SequenceNode s) {
      for (Node item : s.getValue()) {
        Node inner = duplicateKey(item);
        if (inner != null) {
          return inner;
        }
      }
    }
    return null;
  }

  static String text(Node node) {
    return node instanceof ScalarNode s ? s.getValue() : null;
  }

  static String text(MappingNode map, String key) {
    return map == null ? null : text(get(map, key));
  }

  /** Removes {@code key} and returns its tuple (null when it was not there). */
  static NodeTuple remove(MappingNode map, String key) {
    List<NodeTuple> tuples = new ArrayList<>(map.getValue());
    for (int i = 0; i < tuples.size(); i++) {
      if (key.equals(key(tuples.get(i)))) {
        NodeTuple removed = tuples.remove(i);
        map.setValue(tuples);
        return removed;
      }
    }
    return null;
  }

  /** Sets {@code key}: in place when it exists, else at the end. */
  static void put(MappingNode map, String key, Node value) {
    put(map, key, value, null);
  }

  /**
   * Sets {@code key} to {@code value}, carrying the comments written above {@code from}'s key (the field it was moved
   * or converted from) onto the new key.
   */
  static void put(MappingNode map, String key, Node value, NodeTuple from) {
    List<NodeTuple> tuples = new ArrayList<>(map.getValue());
    ScalarNode keyNode = str(key);
    if (from != null) {
      keyNode.setBlockComments(from.getKeyNode().getBlockComments());
      keyNode.setInLineComments(from.getKeyNode().getInLineComments());
    }
    for (int i = 0; i < tuples.size(); i++) {
      if (key.equals(key(tuples.get(i)))) {
        if (from == null) {
          keyNode.setBlockComments(tuples.get(i).getKeyNode().getBlockComments());
          keyNode.setInLineComments(tuples.get(i).getKeyNode().getInLineComments());
        }
        tuples.set(i, new NodeTuple(keyNode, value));
        map.setValue(tuples);
        return;
      }
    }
    tuples.add(new NodeTuple(keyNode, value));
    map.setValue(tuples);
  }

  /** Renames {@code from} to {@code to} where it stands; its value and comments stay. */
  static void rename(MappingNode map, String from, String to) {
    List<NodeTuple> tuples = new ArrayList<>(map.getValue());
    for (int i = 0; i < tuples.size(); i++) {
      if (from.equals(key(tuples.get(i)))) {
        ScalarNode keyNode = str(to);
        keyNode.setBlockComments(tuples.get(i).getKeyNode().getBlockComments());
        keyNode.setInLineComments(tuples.get(i).getKeyNode().getInLineComments());
        tuples.set(i, new NodeTuple(keyNode, tuples.get(i).getValueNode()));
        map.setValue(tuples);
        return;
      }
    }
  }

  /** The mapping under {@code key}, created (at the end) when missing. */
  static MappingNode child(MappingNode map, String key) {
    if (get(map, key) instanceof MappingNode m) {
      return m;
    }
    MappingNode m = newMap();
    put(map, key, m);
    return m;
  }

  static MappingNode newMap() {
    return new MappingNode(Tag.MAP, new ArrayList<>(), DumperOptions.FlowStyle.BLOCK);
  }

  static SequenceNode seq(List<? extends Node> items) {
    return new SequenceNode(Tag.SEQ, new ArrayList<>(items), DumperOptions.FlowStyle.BLOCK);
  }

  /** A sequence of strings written on one line, as requirement values usually are. */
  static SequenceNode flowSeq(List<String> items) {
    return new SequenceNode(Tag.SEQ, items.stream().map(v -> (Node) str(v)).toList(), DumperOptions.FlowStyle.FLOW);
  }

  static ScalarNode str(String value) {
    return new ScalarNode(Tag.STR, value, null, null, DumperOptions.ScalarStyle.PLAIN);
  }

  static ScalarNode integer(long value) {
    return new ScalarNode(Tag.INT, Long.toString(value), null, null, DumperOptions.ScalarStyle.PLAIN);
  }

  /** A mapping of string keys to string values, in the order given. */
  static MappingNode strings(String... keysAndValues) {
    MappingNode m = newMap();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      put(m, keysAndValues[i], str(keysAndValues[i + 1]));
    }
    return m;
  }

  /** A deep copy (the same node must not appear twice in a tree the emitter writes, or it writes an anchor). */
  static Node copy(Node node) {
    return switch (node) {
      case ScalarNode s -> new ScalarNode(s.getTag(), s.getValue(), null, null, s.getScalarStyle());
      case SequenceNode s -> new SequenceNode(s.getTag(), new ArrayList<>(s.getValue().stream().map(Tree::copy).toList()), s.getFlowStyle());
      case MappingNode m -> new MappingNode(m.getTag(), new ArrayList<>(m.getValue().stream()
          .map(t -> new NodeTuple(copy(t.getKeyNode()), copy(t.getValueNode()))).toList()), m.getFlowStyle());
      default -> node;
    };
  }
}
