package dev.farrier.sandbox;

import dev.farrier.activities.cloud.simulated.AmiCatalog;

/**
 * The blueprint's AMI lookup, {@code aws ssm get-parameter --name
 * /aws/service/eks/optimized-ami/<version>/amazon-linux-2[-arm64]/recommended/image_id}, against the simulated
 * cloud's public parameters.
 */
public final class BlueprintAmis {
  private final AmiCatalog catalog;

  public BlueprintAmis(AmiCatalog catalog) {
    this.catalog = catalog;
  }

  public String al2(String kubernetesVersion, String arch) {
    var flavour = "arm64".equals(arch) ? "amazon-linux-2-arm64" : "amazon-linux-2";
    var name = "/aws/service/eks/optimized-ami/" + kubernetesVersion + "/" + flavour + "/recommended/image_id";
    return catalog.ssmParameter(name)
        .orElseThrow(() -> new IllegalArgumentException("no SSM parameter " + name + " in the simulated cloud"));
  }
}
