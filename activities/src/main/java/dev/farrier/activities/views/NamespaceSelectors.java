package dev.farrier.activities.views;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Namespace;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Resolves a pod affinity term's {@code namespaceSelector} into namespace names. Reads the namespaces at most once,
 * and only when some term has a non-empty selector.
 */
public interface NamespaceSelectors {
  /** The namespaces the selector matches; null means "not resolved": the term's own namespace list applies. */
  Set<String> matching(LabelSelector selector);

  NamespaceSelectors OWN_NAMESPACE = selector -> null;

  static NamespaceSelectors lazy(Supplier<List<Namespace>> namespaces) {
    return new NamespaceSelectors() {
      private List<Namespace> loaded;

      @Override
      public Set<String> matching(LabelSelector selector) {
        if (loaded == null) {
          loaded = namespaces.get();
        }
        Set<String> out = new TreeSet<>();
        for (Namespace ns : loaded) {
          var labels = ns.getMetadata().getLabels() == null ? java.util.Map.<String, String>of() : ns.getMetadata().getLabels();
          if (PodTopologyViews.selector(selector).matches(labels)) {
            out.add(ns.getMetadata().getName());
          }
        }
        return out;
      }
    };
  }
}
