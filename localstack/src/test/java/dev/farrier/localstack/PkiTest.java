package dev.farrier.localstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.ByteArrayInputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.SignatureException;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;

class PkiTest {
  private static final Pki.Issued CA = Pki.certificateAuthority("test-ca", Duration.ofDays(1));
  private static final Pki.Issued SERVING = Pki.servingCertificate(CA, "test-serving",
      List.of("localhost", "kubernetes.default.svc"), List.of("127.0.0.1", "10.96.0.1"), Duration.ofDays(1));

  @Test
  void caIsASelfSignedCertificateAuthority() throws Exception {
    X509Certificate ca = CA.certificate();
    ca.verify(ca.getPublicKey());
    assertTrue(ca.getBasicConstraints() >= 0, "basicConstraints CA:true");
    assertTrue(ca.getKeyUsage()[5], "keyCertSign");
  }

  @Test
  void servingCertificateIsSignedByTheCaForLoopbackNames() throws Exception {
    X509Certificate cert = SERVING.certificate();
    cert.verify(CA.certificate().getPublicKey());
    assertEquals(-1, cert.getBasicConstraints(), "not a CA");
    assertTrue(cert.getExtendedKeyUsage().contains("1.3.6.1.5.5.7.3.1"), "serverAuth");
    Set<String> names = cert.getSubjectAlternativeNames().stream()
        .map(entry -> entry.get(1).toString()).collect(Collectors.toSet());
    assertEquals(Set.of("localhost", "kubernetes.default.svc", "127.0.0.1", "10.96.0.1"), names);
  }

  @Test
  void servingCertificateIsNotSignedByAnotherCa() {
    Pki.Issued other = Pki.certificateAuthority("other-ca", Duration.ofDays(1));
    assertThrows(SignatureException.class, () -> SERVING.certificate().verify(other.certificate().getPublicKey()));
  }

  @Test
  void pemRoundTripsAndUsesTheHeadersKubernetesReads() throws Exception {
    String certPem = Pki.pem(SERVING.certificate());
    Certificate parsed = CertificateFactory.getInstance("X.509")
        .generateCertificate(new ByteArrayInputStream(certPem.getBytes(StandardCharsets.US_ASCII)));
    assertEquals(SERVING.certificate(), parsed);
    assertTrue(Pki.pem(SERVING.keyPair().getPrivate()).startsWith("-----BEGIN PRIVATE KEY-----"));
    assertTrue(Pki.pem(SERVING.keyPair().getPublic()).startsWith("-----BEGIN PUBLIC KEY-----"));
  }

  /** The whole chain as a TLS client sees it: a client trusting only the CA accepts https://127.0.0.1. */
  @Test
  void aClientTrustingTheCaCompletesATlsHandshakeWith127001() throws Exception {
    KeyStore keys = KeyStore.getInstance("PKCS12");
    keys.load(null, null);
    char[] password = "test".toCharArray();
    keys.setKeyEntry("serving", SERVING.keyPair().getPrivate(), password,
        new Certificate[] {SERVING.certificate(), CA.certificate()});
    KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keyManagers.init(keys, password);
    SSLContext serverContext = SSLContext.getInstance("TLS");
    serverContext.init(keyManagers.getKeyManagers(), null, null);

    HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(serverContext));
    server.createContext("/readyz", exchange -> {
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    server.start();
    try (HttpProbes probes = new HttpProbes(Pki.pem(CA.certificate()))) {
      assertTrue(probes.ok("https://127.0.0.1:" + server.getAddress().getPort() + "/readyz", null));
    } finally {
      server.stop(0);
    }
  }
}
