package dev.farrier.client;

import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How the worker and the {@code farrier} CLI reach Temporal: a self-hosted frontend in plain text or over TLS (with a
 * client certificate for mTLS), or Temporal Cloud with an API key or a client certificate. Both read the same
 * environment variables, which the messages name (the CLI's flags are given too).
 *
 * <p>TLS is on when asked for, and also whenever a CA, client certificate, server name or API key is given: Temporal
 * Cloud accepts API keys only over TLS, and a certificate given with TLS left off is a forgotten switch, not a wish to
 * send it nowhere. Without a CA file the JDK's trusted roots are used (what Temporal Cloud needs).
 *
 * @param caFile      PEM CA bundle the frontend's certificate must chain to; null = the JDK's trusted roots
 * @param certFile    PEM client certificate (chain) for mTLS; needs {@code keyFile}
 * @param keyFile     its private key, unencrypted PEM PKCS#8 ({@code BEGIN PRIVATE KEY}); a PKCS#1 or SEC1 key
 *                    ({@code BEGIN RSA PRIVATE KEY}, {@code BEGIN EC PRIVATE KEY}) is refused with the command that
 *                    converts it, as the TLS stack reads those only with BouncyCastle on the class path
 * @param serverName  the name the frontend's certificate is checked against (and SNI), when it differs from the
 *                    address's host (a port-forward, an IP); null = the address's host
 * @param apiKeyFile  a file holding the API key, read again on every call so a rotated Secret takes effect at once
 */
public record TemporalConnection(String address, String namespace, boolean tls, Path caFile, Path certFile,
    Path keyFile, String serverName, Path apiKeyFile) {

  public TemporalConnection {
    require(address, "the Temporal address (FARRIER_TEMPORAL_ADDRESS, --address)");
    require(namespace, "the Temporal namespace (FARRIER_TEMPORAL_NAMESPACE, --namespace)");
    serverName = serverName == null || serverName.isBlank() ? null : serverName.strip();
    caFile = given(caFile);
    certFile = given(certFile);
    keyFile = given(keyFile);
    apiKeyFile = given(apiKeyFile);
    if ((certFile == null) != (keyFile == null)) {
      throw new IllegalArgumentException(certFile == null
          ? "a TLS client key needs its certificate: set FARRIER_TEMPORAL_TLS_CERT_FILE (--temporal-tls-cert) too"
          : "a TLS client certificate needs its key: set FARRIER_TEMPORAL_TLS_KEY_FILE (--temporal-tls-key) too");
    }
    readable(caFile, "FARRIER_TEMPORAL_TLS_CA_FILE (--temporal-tls-ca)");
    readable(certFile, "FARRIER_TEMPORAL_TLS_CERT_FILE (--temporal-tls-cert)");
    readable(keyFile, "FARRIER_TEMPORAL_TLS_KEY_FILE (--temporal-tls-key)");
    readable(apiKeyFile, "FARRIER_TEMPORAL_API_KEY_FILE (--temporal-api-key-file)");
    tls = tls || caFile != null || certFile != null || serverName != null || apiKeyFile != null;
  }

  /**
   * Options for {@code WorkflowServiceStubs}: the target, TLS and the API key. A builder, so a caller can add its own
   * (a metrics scope). Reads the certificate files now, so a bad one fails here, naming the file.
   */
  public WorkflowServiceStubsOptions.Builder serviceStubsOptions() {
    var options = WorkflowServiceStubsOptions.newBuilder().setTarget(address);
    if (tls) {
      options.setSslContext(sslContext());
    }
    if (serverName != null) {
      options.setChannelInitializer(channel -> channel.overrideAuthority(serverName));
    }
    if (apiKeyFile != null) {
      options.addApiKey(this::apiKey);
    }
    return options;
  }

  public WorkflowClientOptions clientOptions() {
    return WorkflowClientOptions.newBuilder().setNamespace(namespace).build();
  }

  /** How the connection is made, for a log line or an error message: never the key itself. */
  public String describe() {
    String how = !tls ? "plain text" : certFile != null ? "mTLS" : "TLS";
    return address + " (namespace " + namespace + ", " + how + (apiKeyFile != null ? ", API key" : "") + ")";
  }

  /** The key as the file holds it now, without surrounding white space (a Secret written with a trailing newline). */
  String apiKey() {
    String key;
    try {
      key = Files.readString(apiKeyFile, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the Temporal API key file " + apiKeyFile + " (FARRIER_TEMPORAL_API_KEY_FILE)", e);
    }
    if (key.isEmpty()) {
      throw new IllegalStateException("the Temporal API key file " + apiKeyFile + " (FARRIER_TEMPORAL_API_KEY_FILE) is empty");
    }
    return key;
  }

  private SslContext sslContext() {
    SslContextBuilder builder = GrpcSslContexts.forClient();
    if (caFile != null) {
      try {
        builder.trustManager(caFile.toFile());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("FARRIER_TEMPORAL_TLS_CA_FILE " + caFile + " holds no PEM certificate: " + rootMessage(e), e);
      }
    }
    if (certFile != null) {
      refuseTraditionalKey();
      try {
        builder.keyManager(certFile.toFile(), keyFile.toFile());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("FARRIER_TEMPORAL_TLS_CERT_FILE " + certFile + " and FARRIER_TEMPORAL_TLS_KEY_FILE " + keyFile
            + " are not a PEM certificate and its unencrypted PEM private key: " + rootMessage(e), e);
      }
    }
    try {
      return builder.build();
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot set up TLS to Temporal with " + describe() + ": " + rootMessage(e), e);
    }
  }

  private void refuseTraditionalKey() {
    String pem;
    try {
      pem = Files.readString(keyFile, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read FARRIER_TEMPORAL_TLS_KEY_FILE " + keyFile, e);
    }
    if (pem.contains("-----BEGIN RSA PRIVATE KEY-----") || pem.contains("-----BEGIN EC PRIVATE KEY-----")) {
      throw new IllegalArgumentException("FARRIER_TEMPORAL_TLS_KEY_FILE " + keyFile + " is a PKCS#1 or SEC1 key; the TLS stack"
          + " reads PKCS#8 (BEGIN PRIVATE KEY): convert it with openssl pkcs8 -topk8 -nocrypt -in " + keyFile + " -out key.pem");
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return root == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + root + ")";
  }

  private static void require(String value, String name) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + " is required");
    }
  }

  /** An empty path (an environment variable set to "") is no path. */
  private static Path given(Path file) {
    return file == null || file.toString().isBlank() ? null : file;
  }

  private static void readable(Path file, String setting) {
    if (file != null && !Files.isReadable(file)) {
      throw new IllegalArgumentException(setting + ": cannot read " + file
          + (Files.exists(file) ? " (no permission)" : " (no such file)"));
    }
  }
}
