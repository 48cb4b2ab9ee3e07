package dev.farrier.activities;

import dev.farrier.activities.cloud.AmiSelectorTerm;
import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.crd.EC2NodeClass;
import java.util.List;

/** What an EC2NodeClass's {@code amiSelectorTerms} resolve to now, through the cloud. */
public final class NodeClassImages {
  private NodeClassImages() {}

  public static List<AmiSelectorTerm> terms(EC2NodeClass nodeClass) {
    return nodeClass.getSpec().amiSelectorTermsOrEmpty().stream()
        .map(t -> new AmiSelectorTerm(t.id(), t.name(), t.owner(), t.tags(), t.alias())).toList();
  }

  /** The images, newest per architecture per term; empty when the class has no terms or nothing matches. */
  public static List<Image> resolve(CloudProvider cloud, EC2NodeClass nodeClass) {
    var terms = terms(nodeClass);
    return terms.isEmpty() ? List.of() : cloud.resolveImages(terms);
  }
}
