package dev.farrier.localstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fabric8.kubernetes.client.Config;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class KubeconfigTest {
  private static final String CA_PEM = Pki.pem(Pki.certificateAuthority("test-ca", Duration.ofDays(1)).certificate());

  /** What a Kubernetes client reads from the kubeconfig rendered for this user and token. */
  private static Config readBack(String user, String token) {
    return Config.fromKubeconfig(new Kubeconfig("https://127.0.0.1:6443", CA_PEM, user, token).render());
  }

  @Test
  void aKubernetesClientReadsServerTokenAndEmbeddedCa() {
    Config config = readBack("farrier-admin", "s3cret");

    assertEquals("https://127.0.0.1:6443/", config.getMasterUrl());
    assertEquals("s3cret", config.getAutoOAuthToken());
    assertEquals(CA_PEM, new String(Base64.getDecoder().decode(config.getCaCertData()), StandardCharsets.US_ASCII));
    assertEquals(Kubeconfig.CLUSTER, config.getCurrentContext().getName());
    assertEquals("farrier-admin", config.getCurrentContext().getContext().getUser());
  }

  @Test
  void valuesThatNeedQuotingInYamlReadBackAsWritten() {
    Config config = readBack("system:kube-scheduler", "#not: a comment");

    assertEquals("#not: a comment", config.getAutoOAuthToken());
    assertEquals("system:kube-scheduler", config.getCurrentContext().getContext().getUser());
  }

  @Test
  void theTokenFileIsOneCsvLinePerTokenWithTheGroupsInOneQuotedColumn() {
    String csv = StaticToken.csv(List.of(new StaticToken("abc", "kwok", List.of("system:masters", "extra")),
        new StaticToken("def", "system:kube-scheduler", List.of()), new StaticToken("ghi", "o'brien, ann", List.of("dev"))));

    assertEquals("""
        abc,kwok,kwok,"system:masters,extra"
        def,system:kube-scheduler,system:kube-scheduler,
        ghi,"o'brien, ann","o'brien, ann",dev
        """, csv);
  }

  @Test
  void aGroupWithACommaIsRefusedTheApiServerWouldSplitIt() {
    assertThrows(IllegalArgumentException.class, () -> new StaticToken("abc", "user", List.of("a,b")));
  }

  @Test
  void randomTokensDiffer() {
    assertEquals(48, StaticToken.random("u", List.of()).token().length());
    assertEquals(false, StaticToken.random("u", List.of()).token().equals(StaticToken.random("u", List.of()).token()));
  }
}
