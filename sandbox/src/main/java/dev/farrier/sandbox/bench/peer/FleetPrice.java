package dev.farrier.sandbox.bench.peer;

import io.fabric8.kubernetes.api.model.Node;
import java.util.List;
import java.util.Map;

/**
 * What a fleet costs an hour, priced from the shared catalogue by each node's well-known labels (instance type, zone,
 * capacity type), which both controllers set; a node the catalogue cannot price is counted, never guessed.
 */
record FleetPrice(int nodes, double dollarsPerHour, int unpriced, int spot) {
  static FleetPrice of(List<Node> nodes, KwokCatalogue catalogue) {
    double total = 0;
    int unpriced = 0;
    int spot = 0;
    for (Node node : nodes) {
      Map<String, String> labels = node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
      String capacityType = labels.getOrDefault("karpenter.sh/capacity-type", "");
      var price = catalogue.price(labels.getOrDefault("node.kubernetes.io/instance-type", ""),
          labels.getOrDefault("topology.kubernetes.io/zone", ""), capacityType);
      if (price.isPresent()) {
        total += price.get();
      } else {
        unpriced++;
      }
      if ("spot".equals(capacityType)) {
        spot++;
      }
    }
    return new FleetPrice(nodes.size(), total, unpriced, spot);
  }
}
