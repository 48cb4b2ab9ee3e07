package dev.farrier.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;

/**
 * Everything the control plane reads from disk: a CA, one serving certificate that every component uses on
 * 127.0.0.1, the service-account signing key pair, the static token file and one kubeconfig per client. Written
 * fresh at every start, so a reused run directory never carries keys from another run.
 *
 * @param adminToken bearer token of the cluster admin (group {@code system:masters})
 */
record ClusterFiles(
    Path caCert,
    Path caKey,
    Path servingCert,
    Path servingKey,
    Path serviceAccountKey,
    Path serviceAccountPublicKey,
    Path tokenFile,
    Path adminKubeconfig,
    Path controllerManagerKubeconfig,
    Path schedulerKubeconfig,
    Path kwokKubeconfig,
    String adminToken,
    String caPem) {

  static final Duration VALIDITY = Duration.ofDays(365);
  /** The first address of the service range; in-cluster clients reach the API server's Service there. */
  static final String KUBERNETES_SERVICE_IP = "10.96.0.1";
  static final String SERVICE_CLUSTER_IP_RANGE = "10.96.0.0/16";

  static ClusterFiles write(Path runDir, String apiServerUrl) {
    Path pki = runDir.resolve("pki");
    Path kubeconfigs = runDir.resolve("kubeconfigs");
    try {
      Files.createDirectories(pki);
      Files.createDirectories(kubeconfigs);

      Pki.Issued ca = Pki.certificateAuthority("farrier-local-ca", VALIDITY);
      Pki.Issued serving = Pki.servingCertificate(ca, "farrier-local",
          List.of("localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc",
              "kubernetes.default.svc.cluster.local"),
          List.of("127.0.0.1", KUBERNETES_SERVICE_IP), VALIDITY);
      var serviceAccount = Pki.keyPair();
      String caPem = Pki.pem(ca.certificate());

      Path caCert = write(pki.resolve("ca.crt"), caPem, false);
      Path caKey = write(pki.resolve("ca.key"), Pki.pem(ca.keyPair().getPrivate()), true);
      Path servingCert = write(pki.resolve("serving.crt"), Pki.pem(serving.certificate()), false);
      Path servingKey = write(pki.resolve("serving.key"), Pki.pem(serving.keyPair().getPrivate()), true);
      Path saKey = write(pki.resolve("sa.key"), Pki.pem(serviceAccount.getPrivate()), true);
      Path saPub = write(pki.resolve("sa.pub"), Pki.pem(serviceAccount.getPublic()), false);

      StaticToken admin = StaticToken.random("farrier-admin", List.of("system:masters"));
      // The bootstrap RBAC policy already binds these two user names to the roles their components need.
      StaticToken controllerManager = StaticToken.random("system:kube-controller-manager", List.of());
      StaticToken scheduler = StaticToken.random("system:kube-scheduler", List.of());
      // kwok writes node and pod status, leases and deletes pods; no role for it exists in a bare cluster, and
      // a local stack gains nothing from writing one, so it acts as an admin.
      StaticToken kwok = StaticToken.random("kwok", List.of("system:masters"));
      Path tokenFile = write(pki.resolve("tokens.csv"),
          StaticToken.csv(List.of(admin, controllerManager, scheduler, kwok)), true);

      Path adminKubeconfig = write(runDir.resolve("kubeconfig"),
          new Kubeconfig(apiServerUrl, caPem, admin.user(), admin.token()).render(), true);
      Path cmKubeconfig = write(kubeconfigs.resolve("kube-controller-manager.kubeconfig"),
          new Kubeconfig(apiServerUrl, caPem, controllerManager.user(), controllerManager.token()).render(), true);
      Path schedulerKubeconfig = write(kubeconfigs.resolve("kube-scheduler.kubeconfig"),
          new Kubeconfig(apiServerUrl, caPem, scheduler.user(), scheduler.token()).render(), true);
      Path kwokKubeconfig = write(kubeconfigs.resolve("kwok.kubeconfig"),
          new Kubeconfig(apiServerUrl, caPem, kwok.user(), kwok.token()).render(), true);

      return new ClusterFiles(caCert, caKey, servingCert, servingKey, saKey, saPub, tokenFile, adminKubeconfig,
          cmKubeconfig, schedulerKubeconfig, kwokKubeconfig, admin.token(), caPem);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the cluster files under " + runDir, e);
    }
  }

  private static Path write(Path file, String content, boolean secret) throws IOException {
    Files.writeString(file, content);
    if (secret && file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }
    return file;
  }
}
