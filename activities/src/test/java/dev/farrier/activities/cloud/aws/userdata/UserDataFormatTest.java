package dev.farrier.activities.cloud.aws.userdata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.crd.KubeletConfiguration;
import dev.farrier.workflows.model.Taint;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UserDataFormatTest {
  private static NodeBootstrap node(String userData) {
    var kubelet = new KubeletConfiguration(List.of("10.100.0.10"), 110, null, null, null, null, null, null, null, null, null, null);
    return new NodeBootstrap("prod", "https://api.example", "Q0E=", "10.100.0.0/16",
        Map.of("karpenter.sh/nodepool", "default", "intent", "apps"),
        List.of(new Taint("dedicated", "apps", "NoSchedule"), new Taint("gpu", "", "NoExecute")), kubelet, userData);
  }

  @Test
  void al2023IsAMultipartWithTheUsersPartsFirstAndTheNodeConfigLast() {
    String userData = """
        MIME-Version: 1.0
        Content-Type: multipart/mixed; boundary="BOUNDARY"

        --BOUNDARY
        Content-Type: text/x-shellscript

        #!/bin/bash
        echo user
        --BOUNDARY--
        """;
    String rendered = UserDataFormat.of("AL2023").render(node(userData));
    var parts = MimeMultipart.parse(rendered);
    assertEquals(2, parts.size());
    assertEquals("text/x-shellscript", parts.get(0).contentType());
    assertEquals("#!/bin/bash\necho user", parts.get(0).body());
    assertEquals("application/node.eks.aws", parts.get(1).contentType());
    assertEquals("""
        apiVersion: node.eks.aws/v1alpha1
        kind: NodeConfig
        spec:
          cluster:
            name: "prod"
            apiServerEndpoint: "https://api.example"
            certificateAuthority: "Q0E="
            cidr: "10.100.0.0/16"
          kubelet:
            config:
              maxPods: 110
              clusterDNS:
                - "10.100.0.10"
              registerWithTaints:
                - key: "dedicated"
                  value: "apps"
                  effect: "NoSchedule"
                - key: "gpu"
                  effect: "NoExecute"
            flags:
              - "--node-labels=intent=apps,karpenter.sh/nodepool=default"
        """, parts.get(1).body() + "\n");
  }

  @Test
  void al2023TakesAPlainNodeConfigOfTheUserAsItsOwnPart() {
    var parts = MimeMultipart.parse(UserDataFormat.of("al2023").render(node("apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\n")));
    assertEquals(List.of("application/node.eks.aws", "application/node.eks.aws"), parts.stream().map(MimeMultipart.Part::contentType).toList());
    assertTrue(parts.getFirst().body().startsWith("apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig"));
  }

  @Test
  void al2RunsBootstrapWithKubeletExtraArgsAfterTheUsersScript() {
    String rendered = UserDataFormat.of("AL2").render(node("#!/bin/bash\necho it's me\n"));
    var parts = MimeMultipart.parse(rendered);
    assertEquals("#!/bin/bash\necho it's me", parts.get(0).body());
    assertEquals("""
        #!/bin/bash -xe
        exec > >(tee /var/log/user-data.log|logger -t user-data -s 2>/dev/console) 2>&1
        /etc/eks/bootstrap.sh 'prod' --apiserver-endpoint 'https://api.example' --b64-cluster-ca 'Q0E=' --service-ipv4-cidr '10.100.0.0/16' \
        --dns-cluster-ip '10.100.0.10' --use-max-pods false --kubelet-extra-args '--node-labels=intent=apps,karpenter.sh/nodepool=default \
        --register-with-taints=dedicated=apps:NoSchedule,gpu:NoExecute --max-pods=110'
        """, parts.get(1).body() + "\n");
  }

  @Test
  void bottlerocketMergesTheUsersTomlAndFarriersKubernetesSettingsWin() {
    String user = """
        [settings.kubernetes]
        cluster-name = "wrong"
        image-gc-high-threshold-percent = 85

        [settings.kubernetes.node-labels]
        "team" = "a"
        "intent" = "theirs"
        """;
    assertEquals("""
        [settings.kubernetes]
        cluster-name = "prod"
        image-gc-high-threshold-percent = 85
        api-server = "https://api.example"
        cluster-certificate = "Q0E="
        max-pods = 110
        cluster-dns-ip = "10.100.0.10"

        [settings.kubernetes.node-labels]
        "team" = "a"
        "intent" = "apps"
        "karpenter.sh/nodepool" = "default"

        [settings.kubernetes.node-taints]
        "dedicated" = ["apps:NoSchedule"]
        "gpu" = [":NoExecute"]
        """, UserDataFormat.of("Bottlerocket").render(node(user)));
  }

  @Test
  void bottlerocketRejectsTomlItCannotMergeSafely() {
    var error = assertThrows(IllegalArgumentException.class, () -> UserDataFormat.of("Bottlerocket").render(node("[[settings.x]]\na = 1\n")));
    assertTrue(error.getMessage().contains("arrays of tables"), error.getMessage());
    assertThrows(IllegalArgumentException.class, () -> UserDataFormat.of("Bottlerocket").render(node("[settings]\nlist = [\n  1,\n]\n")));
  }

  @Test
  void customPassesTheUsersUserDataThroughAndUnknownFamiliesAreRefused() {
    assertEquals("anything at all\n", UserDataFormat.of("Custom").render(node("anything at all\n")));
    assertEquals("", UserDataFormat.of("Custom").render(node(null)));
    var error = assertThrows(IllegalArgumentException.class, () -> UserDataFormat.of("Windows2022"));
    assertTrue(error.getMessage().contains("Windows2022"));
  }

  @Test
  void theSameNodeRendersTheSameBytes() {
    assertEquals(UserDataFormat.of("AL2023").render(node(null)), UserDataFormat.of("AL2023").render(node(null)));
  }
}
