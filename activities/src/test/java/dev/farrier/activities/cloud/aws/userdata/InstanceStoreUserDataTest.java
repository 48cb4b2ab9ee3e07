package dev.farrier.activities.cloud.aws.userdata;

import static dev.farrier.activities.cloud.aws.userdata.UserDataFormatTest.toml;
import static dev.farrier.activities.cloud.aws.userdata.UserDataFormatTest.yaml;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code instanceStorePolicy: RAID0} in each family's user data, as Karpenter's AWS provider (v1.14) writes it. */
class InstanceStoreUserDataTest {
  private static NodeBootstrap node(String userData, boolean raid0) {
    return new NodeBootstrap("prod", "https://api.example", "Q0E=", "10.100.0.0/16", Map.of("intent", "apps"), List.of(), null, null,
        userData, raid0);
  }

  private static String render(String family, String userData, boolean raid0) {
    return UserDataFormat.of(family).render(node(userData, raid0));
  }

  @Test
  void al2023AsksNodeadmForARaid0LocalStorage() {
    var spec = yaml(MimeMultipart.parse(render("AL2023", null, true)).getLast().body()).get("spec");
    assertEquals("RAID0", spec.at("/instance/localStorage/strategy").asText());
    assertEquals("prod", spec.at("/cluster/name").asText(), "beside the cluster, not instead of it");
    assertTrue(yaml(MimeMultipart.parse(render("AL2023", null, false)).getLast().body()).at("/spec/instance").isMissingNode());
  }

  @Test
  void al2PassesLocalDisksRaid0ToBootstrap() {
    String script = MimeMultipart.parse(render("AL2", "#!/bin/bash\necho user\n", true)).getLast().body();
    assertTrue(script.startsWith("#!/bin/bash -xe"), script);
    assertTrue(script.contains("/etc/eks/bootstrap.sh 'prod' ") && script.strip().endsWith(" --local-disks raid0"), script);
    assertFalse(render("AL2", null, false).contains("--local-disks"));
  }

  @Test
  void bottlerocketMountsTheInstanceStorageWithABootstrapCommand() {
    var user = """
        [settings.bootstrap-commands.001-user]
        commands = [["echo", "hi"]]
        mode = "once"
        """;
    var commands = toml(render("Bottlerocket", user, true)).at("/settings/bootstrap-commands");
    var mount = commands.get("000-mount-instance-storage");
    assertEquals("[[\"apiclient\",\"ephemeral-storage\",\"init\"],[\"apiclient\",\"ephemeral-storage\",\"bind\",\"--dirs\","
        + "\"/var/lib/containerd\",\"/var/lib/kubelet\",\"/var/log/pods\"]]", mount.get("commands").toString());
    assertTrue(mount.get("essential").asBoolean());
    assertEquals("always", mount.get("mode").asText());
    assertEquals("once", commands.at("/001-user/mode").asText(), "the user's own commands are kept");
    assertFalse(render("Bottlerocket", null, false).contains("bootstrap-commands"));
  }

  @Test
  void customAddsNothing() {
    assertEquals("#!/bin/bash\n/opt/join.sh\n", render("Custom", "#!/bin/bash\n/opt/join.sh\n", true));
  }
}
