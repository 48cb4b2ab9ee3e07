package dev.farrier.activities.crd;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A hash in Karpenter's shape (a decimal unsigned 64-bit number) of a canonical text: the first 8 bytes of its SHA-256.
 * Shared by {@link NodePoolHash} and {@link EC2NodeClassHash}, which decide what the text holds.
 */
final class CanonicalHash {
  private CanonicalHash() {}

  static String of(String canonical) {
    byte[] digest;
    try {
      digest = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
    long value = 0;
    for (int i = 0; i < 8; i++) {
      value = (value << 8) | (digest[i] & 0xff);
    }
    return Long.toUnsignedString(value);
  }
}
