package dev.farrier.architecture.violations.a;

import dev.farrier.architecture.violations.b.CallsA;

/** Half of a deliberate package cycle (a imports b, b imports a) for RulesCatchViolationsTest. */
public final class CallsB {
  public int next(CallsA other) {
    return other.hashCode();
  }
}
