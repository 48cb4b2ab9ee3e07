package dev.farrier.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The settings' rules; the handshakes themselves are tested against a TLS server in the starter's tests. */
class TemporalConnectionTest {
  @TempDir Path dir;

  @Test
  void plaintextByDefault() {
    var connection = plaintext("127.0.0.1:7233", "default");
    assertFalse(connection.tls());
    assertEquals("127.0.0.1:7233 (namespace default, plain text)", connection.describe());
  }

  @Test
  void anApiKeyTurnsTlsOnAndIsReadWithoutItsNewline() throws IOException {
    Path key = Files.writeString(dir.resolve("key"), "  secret-key\n");
    var connection = new TemporalConnection("ns.acct.tmprl.cloud:7233", "ns.acct", false, null, null, null, null, key);
    assertTrue(connection.tls());
    assertEquals("secret-key", connection.apiKey());
    assertEquals("ns.acct.tmprl.cloud:7233 (namespace ns.acct, TLS, API key)", connection.describe());
  }

  @Test
  void anEmptyApiKeyFileIsAnErrorWhenTheKeyIsNeeded() throws IOException {
    Path key = Files.writeString(dir.resolve("key"), "\n");
    var connection = new TemporalConnection("a:7233", "ns", true, null, null, null, null, key);
    var failure = assertThrows(IllegalStateException.class, connection::apiKey);
    assertTrue(failure.getMessage().contains("is empty"), failure.getMessage());
  }

  @Test
  void aCertificateNeedsItsKeyAndTheOtherWayRound() throws IOException {
    Path pem = Files.writeString(dir.resolve("x.pem"), "x");
    var noKey = assertThrows(IllegalArgumentException.class,
        () -> new TemporalConnection("a:7233", "ns", true, null, pem, null, null, null));
    assertTrue(noKey.getMessage().contains("FARRIER_TEMPORAL_TLS_KEY_FILE (--temporal-tls-key)"), noKey.getMessage());
    var noCert = assertThrows(IllegalArgumentException.class,
        () -> new TemporalConnection("a:7233", "ns", true, null, null, pem, null, null));
    assertTrue(noCert.getMessage().contains("FARRIER_TEMPORAL_TLS_CERT_FILE (--temporal-tls-cert)"), noCert.getMessage());
  }

  @Test
  void aMissingFileIsNamedWithItsSetting() {
    Path missing = dir.resolve("ca.pem");
    var failure = assertThrows(IllegalArgumentException.class,
        () -> new TemporalConnection("a:7233", "ns", true, missing, null, null, null, null));
    assertEquals("FARRIER_TEMPORAL_TLS_CA_FILE (--temporal-tls-ca): cannot read " + missing + " (no such file)", failure.getMessage());
  }

  @Test
  void emptySettingsAreNoSettings() {
    var connection = new TemporalConnection("a:7233", "ns", false, Path.of(""), null, null, " ", Path.of(""));
    assertFalse(connection.tls());
    assertNull(connection.caFile());
    assertNull(connection.serverName());
  }

  @Test
  void aServerNameOrCaTurnsTlsOn() throws IOException {
    assertTrue(new TemporalConnection("a:7233", "ns", false, null, null, null, "temporal.example", null).tls());
    Path ca = Files.writeString(dir.resolve("ca.pem"), "x");
    assertTrue(new TemporalConnection("a:7233", "ns", false, ca, null, null, null, null).tls());
  }

  @Test
  void addressAndNamespaceAreRequired() {
    assertThrows(IllegalArgumentException.class, () -> plaintext(" ", "ns"));
    assertThrows(IllegalArgumentException.class, () -> plaintext("a:7233", ""));
  }

  private static TemporalConnection plaintext(String address, String namespace) {
    return new TemporalConnection(address, namespace, false, null, null, null, null, null);
  }
}
