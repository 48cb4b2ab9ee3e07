package dev.farrier.activities.nodeclass;

import dev.farrier.activities.cloud.AmiSelectorTerm;
import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.RequirementWithMinValues;
import dev.farrier.activities.crd.ResolvedAmi;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What an EC2NodeClass's {@code amiSelectorTerms} resolve to now, through the cloud. */
public final class NodeClassImages {
  private NodeClassImages() {}

  public static List<AmiSelectorTerm> terms(EC2NodeClass nodeClass) {
    return nodeClass.getSpec().amiSelectorTermsOrEmpty().stream()
        .map(t -> new AmiSelectorTerm(t.id(), t.name(), t.owner(), t.tags(), t.alias(), t.ssmParameter())).toList();
  }

  /**
   * The image ids per Kubernetes arch in the class's {@code status.amis}, as the status refresher last resolved
   * them: what drift is checked against (as Karpenter does), so planning every 10 s costs no cloud call. Empty until
   * the first refresh and while the terms match nothing, which means "drift not checked", never "drifted".
   */
  public static Map<String, List<String>> fromStatus(EC2NodeClass nodeClass) {
    Map<String, List<String>> byArch = new TreeMap<>();
    if (nodeClass.getStatus() == null) {
      return byArch;
    }
    for (ResolvedAmi ami : nodeClass.getStatus().amisOrEmpty()) {
      for (RequirementWithMinValues r : ami.requirements() == null ? List.<RequirementWithMinValues>of() : ami.requirements()) {
        if (WellKnown.ARCH_LABEL.equals(r.key()) && "In".equals(r.operator()) && r.values() != null) {
          r.values().stream().map(arch -> byArch.computeIfAbsent(arch, a -> new ArrayList<>()))
              .filter(ids -> !ids.contains(ami.id())).forEach(ids -> ids.add(ami.id())); // an alias lists an image once per kind
        }
      }
    }
    return byArch;
  }

  /** The images, newest per architecture per term; empty when the class has no terms or nothing matches. */
  public static List<Image> resolve(CloudProvider cloud, EC2NodeClass nodeClass) {
    var terms = terms(nodeClass);
    return terms.isEmpty() ? List.of() : cloud.resolveImages(terms);
  }
}
