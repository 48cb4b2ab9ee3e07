package dev.farrier.migrate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;

/**
 * The EC2NodeClass rules: a v1alpha1 AWSNodeTemplate (or a v1alpha5 Provisioner's inline {@code provider}, the same
 * fields) and a v1beta1 EC2NodeClass become a v1 EC2NodeClass spec, edited in place.
 */
final class NodeClassRules {
  private NodeClassRules() {}

  static final String API_VERSION = "karpenter.k8s.aws/v1";

  private static final Set<String> ALPHA_FIELDS = Set.of("subnetSelector", "securityGroupSelector", "amiSelector", "amiFamily",
      "instanceProfile", "tags", "metadataOptions", "blockDeviceMappings", "userData", "detailedMonitoring", "launchTemplate",
      "context");
  private static final Set<String> BETA_FIELDS = Set.of("amiFamily", "amiSelectorTerms", "subnetSelectorTerms",
      "securityGroupSelectorTerms", "role", "instanceProfile", "tags", "metadataOptions", "blockDeviceMappings", "userData",
      "detailedMonitoring", "associatePublicIPAddress", "instanceStorePolicy", "context");

  /** The alias of each AMI family's EKS-optimized images (what an amiFamily without selector terms launched). */
  private static final Map<String, String> ALIASES = Map.of("AL2", "al2", "AL2023", "al2023", "Bottlerocket", "bottlerocket",
      "Windows2019", "windows2019", "Windows2022", "windows2022");

  /** The old APIs' amiFamily default: v1 has none. */
  static final String OLD_DEFAULT_FAMILY = "AL2";
  /** The old APIs' metadata hop limit: v1's default is 1, which takes IMDS away from pods not on the host network. */
  static final int OLD_HOP_LIMIT = 2;

  /** An AWSNodeTemplate's or inline provider's spec, as a v1 EC2NodeClass spec; {@code at} prefixes field paths. */
  static void fromAlpha(Ctx ctx, Doc doc, MappingNode spec, String at) {
    if (!known(ctx, doc, spec, at, ALPHA_FIELDS, "karpenter.k8s.aws/v1alpha1 AWSNodeTemplate")) {
      return;
    }
    NodeTuple launchTemplate = Tree.remove(spec, "launchTemplate");
    if (launchTemplate != null) {
      ctx.person(doc, at + "launchTemplate", launchTemplate.getKeyNode(), "launch templates are gone since v1beta1: "
          + "write what launch template " + Tree.flow(launchTemplate.getValueNode()) + " set (AMI, user data, block devices, "
          + "security groups, instance profile) as EC2NodeClass fields; removed");
    }
    // context is v1's spec.context too (the EC2 Fleet context Farrier passes with its launches): kept as it is.
    selectors(ctx, doc, spec, at, "subnetSelector", "subnetSelectorTerms", false);
    selectors(ctx, doc, spec, at, "securityGroupSelector", "securityGroupSelectorTerms", false);
    for (String required : List.of("subnetSelector", "securityGroupSelector")) {
      if (!Tree.has(spec, required + "Terms")) {
        ctx.person(doc, at + required, null, "unset; v1 needs " + required + "Terms: write the terms that "
            + "select what the nodes used");
      }
    }
    selectors(ctx, doc, spec, at, "amiSelector", "amiSelectorTerms", true);
    if (!Tree.has(spec, "instanceProfile")) {
      if (ctx.options.defaultInstanceProfile() != null) {
        Tree.put(spec, "instanceProfile", Tree.str(ctx.options.defaultInstanceProfile()));
        ctx.keptDefault(doc, at + "instanceProfile", null, "unset, so the controller's aws.defaultInstanceProfile applied; "
            + "v1 has no such setting: wrote instanceProfile: " + ctx.options.defaultInstanceProfile()
            + " (from --default-instance-profile)");
      } else {
        ctx.person(doc, at + "instanceProfile", null, "unset, so the controller's aws.defaultInstanceProfile applied; v1 "
            + "needs role or instanceProfile on the EC2NodeClass: set one (or run again with --default-instance-profile NAME)");
      }
    }
    amiAndMetadata(ctx, doc, spec, at, OLD_DEFAULT_FAMILY);
  }

  /** A v1beta1 EC2NodeClass's spec, as a v1 one. */
  static void fromBeta(Ctx ctx, Doc doc, MappingNode spec) {
    if (!known(ctx, doc, spec, "spec.", BETA_FIELDS, "karpenter.k8s.aws/v1beta1 EC2NodeClass")) {
      return;
    }
    if (!Tree.has(spec, "role") && !Tree.has(spec, "instanceProfile")) {
      ctx.person(doc, "spec.role", null, "v1 needs role or instanceProfile: set one");
    }
    amiAndMetadata(ctx, doc, spec, "spec.", null);
  }

  /** Fields the old kind never had stop the migration, naming each. */
  static boolean known(Ctx ctx, Doc doc, MappingNode map, String at, Set<String> fields, String kind) {
    boolean ok = true;
    for (NodeTuple t : map.getValue()) {
      if (!fields.contains(Tree.key(t))) {
        ctx.problem(doc, at + Tree.key(t), t.getKeyNode(), "no such field in " + kind + " (known: "
            + String.join(", ", fields.stream().sorted().toList()) + ")");
        ok = false;
      }
    }
    return ok;
  }

  /**
   * A v1alpha5 selector (one map of tag filters and the special keys {@code aws-ids} / {@code aws::ids},
   * {@code aws::name}, {@code aws::owners}) as v1 selector terms.
   */
  private static void selectors(Ctx ctx, Doc doc, MappingNode spec, String at, String from, String to, boolean ami) {
    NodeTuple old = Tree.tuple(spec, from);
    if (old == null) {
      return;
    }
    if (!(old.getValueNode() instanceof MappingNode selector)) {
      ctx.problem(doc, at + from, old.getKeyNode(), "expected a map of tag filters, got " + Tree.flow(old.getValueNode()));
      return;
    }
    List<String> ids = List.of();
    String amiName = null;
    List<String> owners = List.of();
    MappingNode tags = Tree.newMap();
    for (NodeTuple t : selector.getValue()) {
      String key = Tree.key(t);
      String value = Tree.text(t.getValueNode());
      if (value == null) {
        ctx.problem(doc, at + from + "." + key, t.getKeyNode(), "expected one value (commas OR several), got "
            + Tree.flow(t.getValueNode()));
        return;
      }
      switch (key) {
        case "aws-ids", "aws::ids" -> ids = split(value);
        case "aws::name" -> amiName = ami ? value : null;
        case "aws::owners" -> owners = ami ? split(value) : List.of();
        default -> Tree.put(tags, key, Tree.copy(t.getValueNode()));
      }
      if (!ami && (key.equals("aws::name") || key.equals("aws::owners"))) {
        ctx.problem(doc, at + from + "." + key, t.getKeyNode(), "only amiSelector takes " + key);
      }
    }
    List<Node> terms = new ArrayList<>();
    String name = amiName;
    if (!ids.isEmpty()) {
      ids.forEach(id -> terms.add(Tree.strings("id", id)));
      if (name != null || !owners.isEmpty() || !tags.getValue().isEmpty()) {
        ctx.person(doc, at + from, old.getKeyNode(), "selected by ids and other filters together; a v1 id term stands "
            + "alone and terms are ORed, so only the ids were kept: check that they are the ones the filters chose");
      }
    } else {
      // A comma in a v1alpha5 tag value ORed its parts, as do owners; a v1 term takes one value per key, so the
      // selector becomes the terms of every combination.
      List<MappingNode> combos = new ArrayList<>(List.of(Tree.newMap()));
      if (name != null) {
        combos.forEach(c -> Tree.put(c, "name", Tree.str(name)));
      }
      for (NodeTuple t : tags.getValue()) {
        List<String> values = split(Tree.text(t.getValueNode()));
        List<MappingNode> next = new ArrayList<>();
        for (MappingNode c : combos) {
          for (String v : values.isEmpty() ? List.of("*") : values) {
            MappingNode term = (MappingNode) Tree.copy(c);
            Tree.put(Tree.child(term, "tags"), Tree.key(t), Tree.str(v));
            next.add(term);
          }
        }
        combos = next;
      }
      for (MappingNode c : combos) {
        if (owners.isEmpty()) {
          terms.add(c);
        }
        for (String owner : owners) {
          MappingNode term = (MappingNode) Tree.copy(c);
          Tree.put(term, "owner", Tree.str(owner));
          terms.add(term);
        }
      }
    }
    Tree.rename(spec, from, to);
    Tree.put(spec, to, Tree.seq(terms));
    ctx.changed(doc, at + from, old, "became " + to + " " + Tree.flow(Tree.get(spec, to))
        + (terms.size() > 1 ? " (a term per id, or per combination of the comma-separated values, which v1alpha5 ORed)" : ""));
  }

  private static List<String> split(String value) {
    return value == null ? List.of() : Arrays.stream(value.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
  }

  /** amiFamily and amiSelectorTerms as v1 wants them, and the old metadata hop limit kept. */
  private static void amiAndMetadata(Ctx ctx, Doc doc, MappingNode spec, String at, String oldDefault) {
    NodeTuple familyTuple = Tree.tuple(spec, "amiFamily");
    String family = familyTuple == null ? null : Tree.text(familyTuple.getValueNode());
    boolean defaulted = family == null;
    if (defaulted && oldDefault == null) {
      ctx.person(doc, at + "amiFamily", null, "unset, which v1beta1 did not allow: set the family of the image");
      family = "";
    } else if (defaulted) {
      family = oldDefault;
    }
    if (!Tree.has(spec, "amiSelectorTerms")) {
      String alias = ALIASES.get(family);
      if (alias != null) {
        Tree.put(spec, "amiSelectorTerms", Tree.seq(List.of(Tree.strings("alias", alias + "@latest"))));
        ctx.note(defaulted ? Finding.Kind.KEPT_DEFAULT : Finding.Kind.CHANGED, doc, at + "amiFamily", Tree.at(familyTuple),
            (defaulted ? "unset, which meant AL2; " : "") + "v1 needs amiSelectorTerms: wrote alias " + alias + "@latest, "
                + "the latest EKS-optimized " + family + " image, which is what an amiFamily without selectors launched");
      } else if (family.isEmpty()) {
        // the missing family is already the person's to set
      } else if (family.equals("Ubuntu")) {
        ctx.person(doc, at + "amiFamily", Tree.at(familyTuple), "v1 has no Ubuntu family: select the Ubuntu image with "
            + "amiSelectorTerms (id, or name and owner) and set amiFamily AL2, whose user data Ubuntu's EKS images take");
      } else {
        ctx.person(doc, at + "amiFamily", Tree.at(familyTuple), "amiFamily " + family + " without amiSelectorTerms: v1 needs "
            + "the terms that select the image");
      }
    } else if (defaulted && !family.isEmpty()) {
      Tree.put(spec, "amiFamily", Tree.str(family));
      ctx.keptDefault(doc, at + "amiFamily", null, "unset, which meant AL2 (user data and block devices); v1 has no "
          + "default beside selector terms that are not an alias: wrote amiFamily: AL2");
    } else if (family.equals("Ubuntu")) {
      ctx.person(doc, at + "amiFamily", Tree.at(familyTuple), "v1 has no Ubuntu family: keep the amiSelectorTerms that select "
          + "the Ubuntu image and set amiFamily AL2, whose user data Ubuntu's EKS images take");
    }
    NodeTuple metadata = Tree.tuple(spec, "metadataOptions");
    if (metadata == null) {
      MappingNode options = Tree.newMap();
      Tree.put(options, "httpEndpoint", Tree.str("enabled"));
      Tree.put(options, "httpProtocolIPv6", Tree.str("disabled"));
      Tree.put(options, "httpPutResponseHopLimit", Tree.integer(OLD_HOP_LIMIT));
      Tree.put(options, "httpTokens", Tree.str("required"));
      Tree.put(spec, "metadataOptions", options);
      ctx.keptDefault(doc, at + "metadataOptions", null, "unset, which meant a metadata hop limit of 2; v1's default is 1, "
          + "which takes instance metadata away from pods not on the host network (AWS Load Balancer Controller, image "
          + "automation): wrote the old defaults, httpPutResponseHopLimit: 2");
    } else if (metadata.getValueNode() instanceof MappingNode options && !Tree.has(options, "httpPutResponseHopLimit")) {
      Tree.put(options, "httpPutResponseHopLimit", Tree.integer(OLD_HOP_LIMIT));
      ctx.keptDefault(doc, at + "metadataOptions.httpPutResponseHopLimit", metadata.getKeyNode(), "unset, which meant 2; "
          + "v1's default is 1, which takes instance metadata away from pods not on the host network: wrote 2");
    }
  }
}
