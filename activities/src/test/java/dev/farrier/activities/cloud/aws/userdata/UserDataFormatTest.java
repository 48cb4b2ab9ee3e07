package dev.farrier.activities.cloud.aws.userdata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.farrier.activities.crd.KubeletConfiguration;
import dev.farrier.model.Taint;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UserDataFormatTest {
  static JsonNode yaml(String text) {
    try {
      return new YAMLMapper().readTree(text);
    } catch (Exception e) {
      throw new AssertionError("not YAML: " + text, e);
    }
  }

  static JsonNode toml(String text) {
    try {
      return new TomlMapper().readTree(text);
    } catch (Exception e) {
      throw new AssertionError("not TOML: " + text, e);
    }
  }

  static Map<String, String> strings(JsonNode object) {
    Map<String, String> values = new java.util.TreeMap<>();
    object.fields().forEachRemaining(e -> values.put(e.getKey(), e.getValue().asText()));
    return values;
  }

  private static NodeBootstrap node(String userData) {
    var kubelet = new KubeletConfiguration(List.of("10.100.0.10"), 110, null, null, null, null, null, null, null, null, null, null);
    return new NodeBootstrap("prod", "https://api.example", "Q0E=", "10.100.0.0/16",
        Map.of("karpenter.sh/nodepool", "default", "intent", "apps"),
        List.of(new Taint("dedicated", "apps", "NoSchedule"), new Taint("gpu", "", "NoExecute")), kubelet, null, userData, false);
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
    JsonNode spec = yaml(parts.get(1).body()).get("spec");
    assertEquals("prod", spec.at("/cluster/name").asText());
    assertEquals("https://api.example", spec.at("/cluster/apiServerEndpoint").asText());
    assertEquals("Q0E=", spec.at("/cluster/certificateAuthority").asText());
    assertEquals("10.100.0.0/16", spec.at("/cluster/cidr").asText());
    assertEquals(110, spec.at("/kubelet/config/maxPods").asInt());
    assertEquals("10.100.0.10", spec.at("/kubelet/config/clusterDNS/0").asText());
    assertEquals("{\"key\":\"dedicated\",\"value\":\"apps\",\"effect\":\"NoSchedule\"}", spec.at("/kubelet/config/registerWithTaints/0").toString());
    assertEquals("{\"key\":\"gpu\",\"effect\":\"NoExecute\"}", spec.at("/kubelet/config/registerWithTaints/1").toString());
    assertEquals("--node-labels=intent=apps,karpenter.sh/nodepool=default", spec.at("/kubelet/flags/0").asText());
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

        [[settings.host-containers.extra]]
        enabled = true
        """;
    JsonNode kubernetes = toml(UserDataFormat.of("Bottlerocket").render(node(user))).at("/settings/kubernetes");
    assertEquals("prod", kubernetes.get("cluster-name").asText());
    assertEquals(85, kubernetes.get("image-gc-high-threshold-percent").asInt(), "the user's own settings stay");
    assertEquals("https://api.example", kubernetes.get("api-server").asText());
    assertEquals("Q0E=", kubernetes.get("cluster-certificate").asText());
    assertEquals(110, kubernetes.get("max-pods").asInt());
    assertEquals("10.100.0.10", kubernetes.get("cluster-dns-ip").asText());
    assertEquals(Map.of("team", "a", "intent", "apps", "karpenter.sh/nodepool", "default"), strings(kubernetes.get("node-labels")));
    assertEquals("{\"dedicated\":[\"apps:NoSchedule\"],\"gpu\":[\":NoExecute\"]}", kubernetes.get("node-taints").toString());
    assertTrue(toml(UserDataFormat.of("Bottlerocket").render(node(user))).at("/settings/host-containers/extra/0/enabled").asBoolean(),
        "an array of tables of the user is kept");
  }

  @Test
  void bottlerocketRejectsUserDataThatIsNotToml() {
    var error = assertThrows(IllegalArgumentException.class, () -> UserDataFormat.of("Bottlerocket").render(node("[settings\na = 1\n")));
    assertTrue(error.getMessage().contains("not valid TOML"), error.getMessage());
    var notATable = assertThrows(IllegalArgumentException.class, () -> UserDataFormat.of("Bottlerocket").render(node("settings = 1\n")));
    assertTrue(notATable.getMessage().contains("settings must be a table"), notATable.getMessage());
  }

  @Test
  void customPassesTheUsersUserDataThroughAndUnknownFamiliesAreRefused() {
    assertEquals("anything at all\n", UserDataFormat.of("Custom").render(node("anything at all\n")));
    assertEquals("", UserDataFormat.of("Custom").render(node(null)));
    var error = assertThrows(IllegalArgumentException.class, () -> UserDataFormat.of("Ubuntu"));
    assertTrue(error.getMessage().contains("Ubuntu"), error.getMessage());
  }

  @Test
  void windowsIsOnePowerShellScriptRunningTheUsersCommandsThenTheEksBootstrap() {
    String rendered = UserDataFormat.of("Windows2022").render(node("Write-Host \"custom\""));
    assertEquals("""
        <powershell>
        Write-Host "custom"
        [string]$EKSBootstrapScriptFile = "$env:ProgramFiles\\Amazon\\EKS\\Start-EKSBootstrap.ps1"
        & $EKSBootstrapScriptFile -EKSClusterName 'prod' -APIServerEndpoint 'https://api.example' -Base64ClusterCA 'Q0E=' \
        -KubeletExtraArgs '--node-labels=intent=apps,karpenter.sh/nodepool=default \
        --register-with-taints=dedicated=apps:NoSchedule,gpu:NoExecute --max-pods=110' -DNSClusterIP '10.100.0.10'
        </powershell>""", rendered);
  }

  @Test
  void windowsWithoutUserDataOrClusterDnsLeavesThemOutAndEscapesQuotesForPowerShell() {
    var kubelet = new KubeletConfiguration(null, null, null, null, null, null, null, null, null, null, null, null);
    var node = new NodeBootstrap("o'brien", "https://api.example", "Q0E=", "10.100.0.0/16", Map.of(), List.of(), kubelet, null, null, false);
    for (String family : List.of("Windows2019", "windows2022", "WINDOWS2025")) {
      assertEquals("""
          <powershell>
          [string]$EKSBootstrapScriptFile = "$env:ProgramFiles\\Amazon\\EKS\\Start-EKSBootstrap.ps1"
          & $EKSBootstrapScriptFile -EKSClusterName 'o''brien' -APIServerEndpoint 'https://api.example' -Base64ClusterCA 'Q0E='
          </powershell>""", UserDataFormat.of(family).render(node), family);
    }
  }

  @Test
  void windowsPassesReservesAndEvictionAsKubeletFlags() {
    var kubelet = new KubeletConfiguration(null, null, null, Map.of("memory", "1Gi"), null, Map.of("memory.available", "5%"),
        null, null, null, null, null, null);
    var node = new NodeBootstrap("prod", "https://api.example", "Q0E=", "10.100.0.0/16", Map.of(), List.of(), kubelet,
        new dev.farrier.planner.NodeKubelet(110, new dev.farrier.model.Resources(80, 1465L << 20, 0, 0, Map.of())), null, false);
    String rendered = UserDataFormat.of("Windows2022").render(node);
    assertTrue(rendered.contains("-KubeletExtraArgs '--max-pods=110 --kube-reserved=cpu=80m,memory=1465Mi --system-reserved=memory=1Gi "
        + "--eviction-hard=memory.available<5%'"), rendered);
  }

  @Test
  void theSameNodeRendersTheSameBytes() {
    assertEquals(UserDataFormat.of("AL2023").render(node(null)), UserDataFormat.of("AL2023").render(node(null)));
  }
}
