package dev.farrier.planner;

import dev.farrier.planner.InstanceTypeOptions.Option;
import dev.farrier.planner.InstanceTypeOptions.TypeFacts;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What plans over the same instance types share: each type's {@link TypeFacts} under a kubelet setting, and the types
 * a requirement set allows ({@link PoolContext#compatible}). A consolidation round simulates hundreds of plans over
 * the round's instance type lists; before this, each plan derived both again for every type (a third of the worker's
 * CPU in the 1,000-pod comparison went to the planner, most of it here). Keyed by the identity of the type list, which
 * is immutable: a list built for one plan only (a replacement's cheaper offerings) simply misses. One memo serves one
 * thread.
 */
final class TypeMemo {
  private final Map<List<InstanceTypeView>, Map<KubeletSettings, Shared>> byTypes = new IdentityHashMap<>();

  /** A memo for one plan: nothing is shared beyond it. */
  static TypeMemo none() {
    return new TypeMemo();
  }

  Shared of(List<InstanceTypeView> types, KubeletSettings kubelet) {
    return byTypes.computeIfAbsent(types, t -> new HashMap<>())
        .computeIfAbsent(kubelet, k -> new Shared(types.stream().map(t -> TypeFacts.of(t, k)).toList()));
  }

  /** The facts of one type list under one kubelet setting, and the compatible types per requirement set. */
  static final class Shared {
    final List<TypeFacts> facts;
    final Map<Requirements, List<Option>> compatible = new HashMap<>();
    /** Per requirement set, the zones and capacity types its compatible types are offered in. */
    final Map<Requirements, Map<String, Set<String>>> offered = new HashMap<>();

    private Shared(List<TypeFacts> facts) {
      this.facts = facts;
    }
  }
}
