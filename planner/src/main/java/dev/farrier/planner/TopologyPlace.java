package dev.farrier.planner;

/** A node, in-flight claim or planned claim as topology counts it: its domains and which spread filters count it. */
interface TopologyPlace {
  /** Its value of a topology key, or null when it has none (or a planned claim is not pinned to one yet). */
  String domain(String key);

  /** Whether a spread constraint with this node filter counts the pods here. */
  boolean countedBy(SpreadNodeFilter filter);
}
