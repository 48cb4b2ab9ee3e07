package dev.farrier.model;

/** How a replacement ended: Done (node gone, replacement Ready) or Aborted (rolled back by an operator). */
public record ReplacementResult(String nodeClaim, String outcome, String replacementNodeClaim, String replacementNode, int evictedPods) {}
