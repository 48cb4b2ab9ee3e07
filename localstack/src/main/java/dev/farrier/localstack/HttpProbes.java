package dev.farrier.localstack;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** HTTP readiness checks against components that trust, and serve with, the local cluster CA. */
final class HttpProbes implements AutoCloseable {
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(3);
  private final HttpClient client;

  /** {@code caPem} null: plain HTTP probes only (or the JVM's default trust). */
  HttpProbes(String caPem) {
    HttpClient.Builder builder = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(REQUEST_TIMEOUT);
    if (caPem != null) {
      builder.sslContext(trusting(caPem));
    }
    this.client = builder.build();
  }

  /** True when {@code url} answers 200; {@code bearerToken} may be null. */
  boolean ok(String url, String bearerToken) throws Exception {
    return get(url, bearerToken).statusCode() == 200;
  }

  HttpResponse<String> get(String url, String bearerToken) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(REQUEST_TIMEOUT).GET();
    if (bearerToken != null) {
      request.header("Authorization", "Bearer " + bearerToken);
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  static SSLContext trusting(String caPem) {
    try {
      KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
      trust.load(null, null);
      trust.setCertificateEntry("farrier-local-ca", CertificateFactory.getInstance("X.509")
          .generateCertificate(new ByteArrayInputStream(caPem.getBytes(StandardCharsets.US_ASCII))));
      TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(trust);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, factory.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new IllegalStateException("cannot build a trust store from the cluster CA", e);
    }
  }

  @Override
  public void close() {
    client.close();
  }
}
