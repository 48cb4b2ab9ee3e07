package dev.farrier.activities.cloud.aws.userdata;

/**
 * Windows2019, Windows2022, Windows2025: one PowerShell script ({@code <powershell>...</powershell>}, which EC2Launch
 * runs at first boot) that runs the user's own PowerShell first, as written inside the same script, and then the EKS
 * image's {@code Start-EKSBootstrap.ps1} with the cluster name, API endpoint and CA, kubelet's labels, taints, max
 * pods, reserved resources and eviction settings in {@code -KubeletExtraArgs} (the flags AL2 passes, {@link
 * Al2UserData#kubeletArgs}) and the first cluster DNS address in {@code -DNSClusterIP}, as Karpenter's Windows
 * families do. Like Karpenter it passes no service CIDR (the bootstrap script picks one from the node's address) and
 * ignores {@code instanceStorePolicy}.
 */
final class WindowsUserData implements UserDataFormat {
  /** Where the EKS-optimized Windows images keep their bootstrap script. */
  static final String BOOTSTRAP_SCRIPT = "$env:ProgramFiles\\Amazon\\EKS\\Start-EKSBootstrap.ps1";

  @Override
  public String render(NodeBootstrap node) {
    KubeletValues kubelet = node.kubeletValues();
    StringBuilder s = new StringBuilder("<powershell>\n");
    String userData = node.userData();
    if (userData != null && !userData.isBlank()) {
      s.append(userData.endsWith("\n") ? userData : userData + "\n");
    }
    s.append("[string]$EKSBootstrapScriptFile = \"").append(BOOTSTRAP_SCRIPT).append("\"\n");
    s.append("& $EKSBootstrapScriptFile -EKSClusterName ").append(quoted(node.clusterName()))
        .append(" -APIServerEndpoint ").append(quoted(node.apiServerEndpoint()));
    if (node.caBundle() != null) {
      s.append(" -Base64ClusterCA ").append(quoted(node.caBundle()));
    }
    String args = Al2UserData.kubeletArgs(node, kubelet);
    if (!args.isEmpty()) {
      s.append(" -KubeletExtraArgs ").append(quoted(args));
    }
    if (!kubelet.clusterDns().isEmpty()) {
      s.append(" -DNSClusterIP ").append(quoted(kubelet.clusterDns().getFirst()));
    }
    return s.append("\n</powershell>").toString();
  }

  /** Single-quoted for PowerShell, where a single quote inside is written twice. */
  private static String quoted(String value) {
    return "'" + String.valueOf(value).replace("'", "''") + "'";
  }
}
