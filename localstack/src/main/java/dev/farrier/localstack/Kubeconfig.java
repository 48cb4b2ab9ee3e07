package dev.farrier.localstack;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A single-cluster, single-user kubeconfig that authenticates with a bearer token and trusts the cluster CA
 * embedded as {@code certificate-authority-data}, so the file works on its own wherever it is copied.
 *
 * @param server the API server URL, {@code https://127.0.0.1:<port>}
 * @param caPem the cluster CA certificate in PEM
 * @param user the user entry's name (for people reading the file; the token decides who the caller is)
 * @param token the bearer token
 */
record Kubeconfig(String server, String caPem, String user, String token) {
  static final String CLUSTER = "farrier-local";

  String render() {
    String caData = Base64.getEncoder().encodeToString(caPem.getBytes(StandardCharsets.US_ASCII));
    return """
        apiVersion: v1
        kind: Config
        clusters:
        - name: %1$s
          cluster:
            server: %2$s
            certificate-authority-data: %3$s
        users:
        - name: %4$s
          user:
            token: %5$s
        contexts:
        - name: %1$s
          context:
            cluster: %1$s
            user: %4$s
        current-context: %1$s
        """.formatted(CLUSTER, server, caData, user, token);
  }
}
