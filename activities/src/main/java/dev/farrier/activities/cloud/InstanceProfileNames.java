package dev.farrier.activities.cloud;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The name of the instance profile Farrier manages for an EC2NodeClass's {@code role}: the cluster name, then a hash
 * of region, cluster and class, so it is the same on every pass and every worker (found again after a crash), unique
 * per class, and within IAM's 128 characters and name alphabet however long the names are.
 */
public final class InstanceProfileNames {
  public static final int MAX_LENGTH = 128;
  private static final int HASH_LENGTH = 16;

  private InstanceProfileNames() {}

  public static String managed(String region, String cluster, String nodeClass) {
    String hash = sha256Hex(region + "/" + cluster + "/" + nodeClass).substring(0, HASH_LENGTH);
    String prefix = cluster.replaceAll("[^\\w+=,.@-]", "-");
    int room = MAX_LENGTH - HASH_LENGTH - 1;
    if (prefix.length() > room) {
      prefix = prefix.substring(0, room);
    }
    return prefix + "_" + hash;
  }

  private static String sha256Hex(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK ships SHA-256", e);
    }
  }
}
