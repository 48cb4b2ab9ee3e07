package dev.farrier.planner;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Names the NodeClaims of a batch. Names must be a pure function of the batch so a retried planning activity
 * names the same claims and the launch workflows ({@code launch/<nodeclaim>}) deduplicate.
 */
@FunctionalInterface
public interface ClaimNamer {
  /** The name of the {@code index}th claim (0-based, in plan order) of {@code batchId}, for {@code nodePool}. */
  String name(String nodePool, String batchId, int index);

  /**
   * {@code <nodepool>-<8 hex of sha256(batchId)>-<index>}: DNS-safe whatever the batch id looks like, and short
   * enough to leave room under Kubernetes' 63-character label limit for pool names up to 50 characters.
   */
  static ClaimNamer standard() {
    return (nodePool, batchId, index) -> nodePool + "-" + shortHash(batchId) + "-" + index;
  }

  private static String shortHash(String batchId) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(batchId.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 4);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }
}
