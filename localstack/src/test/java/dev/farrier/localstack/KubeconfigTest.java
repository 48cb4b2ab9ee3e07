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
  @Test
  void aKubernetesClientReadsServerTokenAndEmbeddedCa() {
    String caPem = Pki.pem(Pki.certificateAuthority("test-ca", Duration.ofDays(1)).certificate());
    String yaml = new Kubeconfig("https://127.0.0.1:6443", caPem, "farrier-admin", "s3cret").render();

    Config config = Config.fromKubeconfig(yaml);

    assertEquals("https://127.0.0.1:6443/", config.getMasterUrl());
    assertEquals("s3cret", config.getAutoOAuthToken());
    assertEquals(caPem, new String(Base64.getDecoder().decode(config.getCaCertData()), StandardCharsets.US_ASCII));
    assertEquals(Kubeconfig.CLUSTER, config.getCurrentContext().getName());
    assertEquals("farrier-admin", config.getCurrentContext().getContext().getUser());
  }

  @Test
  void valuesThatNeedQuotingInYamlReadBackAsWritten() {
    String caPem = Pki.pem(Pki.certificateAuthority("test-ca", Duration.ofDays(1)).certificate());
    String yaml = new Kubeconfig("https://127.0.0.1:6443", caPem, "system:kube-scheduler", "#not: a comment").render();

    Config config = Config.fromKubeconfig(yaml);

    assertEquals("#not: a comment", config.getAutoOAuthToken());
    assertEquals("system:kube-scheduler", config.getCurrentContext().getContext().getUser());
  }

  @Test
  void tokenFileLinesQuoteTheGroupList() {
    StaticToken token = new StaticToken("abc", "kwok", List.of("system:masters", "extra"));
    assertEquals("abc,kwok,kwok,\"system:masters,extra\"", token.csvLine());
    assertEquals("def,system:kube-scheduler,system:kube-scheduler,\"\"",
        new StaticToken("def", "system:kube-scheduler", List.of()).csvLine());
  }

  @Test
  void tokenFileRejectsValuesThatWouldBreakTheCsv() {
    assertThrows(IllegalArgumentException.class, () -> new StaticToken("a,b", "user", List.of()));
  }

  @Test
  void randomTokensDiffer() {
    assertEquals(48, StaticToken.random("u", List.of()).token().length());
    assertEquals(false, StaticToken.random("u", List.of()).token().equals(StaticToken.random("u", List.of()).token()));
  }
}
