package dev.farrier.planner;

import dev.farrier.model.Requirement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one label key may be on a node, after ANDing any number of requirements on that key. Kubernetes semantics:
 * In, Exists, Gt, Lt, Gte and Lte need the label present; NotIn and DoesNotExist are satisfied by an absent label.
 * Gte and Lte (Karpenter v1.14's NodePool operators; Kubernetes node selectors have only Gt and Lt) are read as the
 * strict bound one step out, so a NodeClaim says them in the operators Kubernetes knows.
 *
 * @param in           allowed values, null when not restricted to a set
 * @param notIn        forbidden values
 * @param mustExist    the label must be present
 * @param mustNotExist the label must be absent
 * @param greaterThan  the value, read as an integer, must be greater (null when unbounded)
 * @param lessThan     the value, read as an integer, must be less (null when unbounded)
 * @param minValues    Karpenter's minValues: the largest asked for on this key, null when none
 */
record LabelConstraint(
    Set<String> in, Set<String> notIn, boolean mustExist, boolean mustNotExist, Long greaterThan, Long lessThan,
    Integer minValues) {
  static final LabelConstraint ANY = new LabelConstraint(null, Set.of(), false, false, null, null, null);

  LabelConstraint {
    in = in == null ? null : Set.copyOf(in);
    notIn = Set.copyOf(notIn);
  }

  static LabelConstraint equalTo(String value) {
    return new LabelConstraint(Set.of(value), Set.of(), true, false, null, null, null);
  }

  /** Reads one requirement; an unknown operator or a non-integer Gt/Lt/Gte/Lte value yields a constraint nothing meets. */
  static LabelConstraint of(Requirement r) {
    String op = r.operator() == null ? "" : r.operator();
    return switch (op) {
      case "In" -> new LabelConstraint(Set.copyOf(r.values()), Set.of(), true, false, null, null, r.minValues());
      case "NotIn" -> new LabelConstraint(null, Set.copyOf(r.values()), false, false, null, null, r.minValues());
      case "Exists" -> new LabelConstraint(null, Set.of(), true, false, null, null, r.minValues());
      case "DoesNotExist" -> new LabelConstraint(null, Set.of(), false, true, null, null, null);
      case "Gt" -> bound(r, true, 0);
      case "Lt" -> bound(r, false, 0);
      case "Gte" -> bound(r, true, -1);
      case "Lte" -> bound(r, false, 1);
      default -> new LabelConstraint(Set.of(), Set.of(), true, false, null, null, null);
    };
  }

  /** {@code greater}: a lower bound, else an upper one; {@code step} turns an inclusive bound into a strict one. */
  private static LabelConstraint bound(Requirement r, boolean greater, long step) {
    Long value = r.values().size() == 1 ? parse(r.values().getFirst()) : null;
    if (value == null) {
      return new LabelConstraint(Set.of(), Set.of(), true, false, null, null, null);
    }
    long n = value + step;
    return new LabelConstraint(null, Set.of(), true, false, greater ? n : null, greater ? null : n, null);
  }

  LabelConstraint and(LabelConstraint o) {
    Set<String> mergedIn;
    if (in == null) {
      mergedIn = o.in;
    } else if (o.in == null) {
      mergedIn = in;
    } else {
      mergedIn = new TreeSet<>(in);
      mergedIn.retainAll(o.in);
    }
    Set<String> mergedNotIn = new TreeSet<>(notIn);
    mergedNotIn.addAll(o.notIn);
    return new LabelConstraint(mergedIn, mergedNotIn, mustExist || o.mustExist, mustNotExist || o.mustNotExist,
        max(greaterThan, o.greaterThan), min(lessThan, o.lessThan), max(minValues, o.minValues));
  }

  /** Whether a node whose label is {@code value} (null when absent) meets this constraint. */
  boolean allows(String value) {
    if (value == null) {
      return !mustExist;
    }
    if (mustNotExist || notIn.contains(value) || (in != null && !in.contains(value))) {
      return false;
    }
    if (greaterThan != null || lessThan != null) {
      Long n = parse(value);
      return n != null && (greaterThan == null || n > greaterThan) && (lessThan == null || n < lessThan);
    }
    return true;
  }

  /** Whether some node (with the label or without it) can meet this constraint. */
  boolean satisfiable() {
    if (!mustExist) {
      return true;
    }
    if (mustNotExist) {
      return false;
    }
    return someValue() != null;
  }

  /** The smallest value (sorted) a present label could take, or null when none can; used to label new nodes. */
  String someValue() {
    if (in != null) {
      return new TreeSet<>(in).stream().filter(this::allows).findFirst().orElse(null);
    }
    if (greaterThan != null || lessThan != null) {
      long low = greaterThan == null ? Math.min(0, lessThan - 1) : greaterThan + 1;
      for (long v = low; v < low + notIn.size() + 1; v++) {
        if (allows(Long.toString(v))) {
          return Long.toString(v);
        }
      }
      return null;
    }
    String candidate = "true";
    while (notIn.contains(candidate)) {
      candidate = candidate + "-";
    }
    return candidate;
  }

  /** The same constraint as Kubernetes requirements on {@code key}. */
  List<Requirement> toRequirements(String key) {
    List<Requirement> out = new ArrayList<>();
    if (in != null) {
      out.add(new Requirement(key, "In", List.copyOf(new TreeSet<>(in)), minValues));
    } else if (mustExist && greaterThan == null && lessThan == null) {
      out.add(new Requirement(key, "Exists", List.of(), minValues));
    }
    if (!notIn.isEmpty()) {
      out.add(new Requirement(key, "NotIn", List.copyOf(new TreeSet<>(notIn)), in == null && !mustExist ? minValues : null));
    }
    if (mustNotExist) {
      out.add(new Requirement(key, "DoesNotExist", List.of(), null));
    }
    if (greaterThan != null) {
      out.add(new Requirement(key, "Gt", List.of(Long.toString(greaterThan)), null));
    }
    if (lessThan != null) {
      out.add(new Requirement(key, "Lt", List.of(Long.toString(lessThan)), null));
    }
    return out;
  }

  static Long parse(String value) {
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  // Plain ifs: a nested conditional would unbox the null operand.
  private static Long max(Long a, Long b) {
    if (a == null) {
      return b;
    }
    return b == null ? a : Long.valueOf(Math.max(a, b));
  }

  private static Long min(Long a, Long b) {
    if (a == null) {
      return b;
    }
    return b == null ? a : Long.valueOf(Math.min(a, b));
  }

  private static Integer max(Integer a, Integer b) {
    if (a == null) {
      return b;
    }
    return b == null ? a : Integer.valueOf(Math.max(a, b));
  }
}
