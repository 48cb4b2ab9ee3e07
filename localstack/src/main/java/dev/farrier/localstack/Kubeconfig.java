package dev.farrier.localstack;

import io.fabric8.kubernetes.api.model.ConfigBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
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

  /** The file's YAML, written by fabric8's kubeconfig model and serializer. */
  String render() {
    String caData = Base64.getEncoder().encodeToString(caPem.getBytes(StandardCharsets.US_ASCII));
    var config = new ConfigBuilder()
        .withApiVersion("v1")
        .withKind("Config")
        .addNewCluster().withName(CLUSTER)
            .withNewCluster().withServer(server).withCertificateAuthorityData(caData).endCluster()
        .endCluster()
        .addNewUser().withName(user).withNewUser().withToken(token).endUser().endUser()
        .addNewContext().withName(CLUSTER).withNewContext().withCluster(CLUSTER).withUser(user).endContext().endContext()
        .withCurrentContext(CLUSTER)
        .build();
    return Serialization.asYaml(config);
  }
}
