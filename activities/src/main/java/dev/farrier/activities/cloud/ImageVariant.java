package dev.farrier.activities.cloud;

import dev.farrier.model.Requirement;
import dev.farrier.model.WellKnown;
import java.util.List;
import java.util.Map;

/**
 * Which instance types an EKS-optimized image of an alias is for, as Karpenter's AWS provider tells them apart: the
 * standard image for types with neither GPUs nor accelerators, the NVIDIA one for GPU types, the Neuron one for
 * Inferentia and Trainium types. An image an {@code id}, {@code name}, {@code tags} or {@code ssmParameter} term
 * selects has no variant and is for every type of its architecture.
 */
public enum ImageVariant {
  STANDARD(List.of(Requirement.doesNotExist(WellKnown.INSTANCE_ACCELERATOR_COUNT_LABEL),
      Requirement.doesNotExist(WellKnown.INSTANCE_GPU_COUNT_LABEL))),
  NVIDIA(List.of(Requirement.exists(WellKnown.INSTANCE_GPU_COUNT_LABEL))),
  NEURON(List.of(Requirement.exists(WellKnown.INSTANCE_ACCELERATOR_COUNT_LABEL)));

  private final List<Requirement> requirements;

  ImageVariant(List<Requirement> requirements) {
    this.requirements = requirements;
  }

  /** What a type's labels must say for the variant to be its image (written into the class's {@code status.amis}). */
  public List<Requirement> requirements() {
    return requirements;
  }

  /** Whether a type with these {@code karpenter.k8s.aws/instance-*} labels takes this variant. */
  public boolean fits(Map<String, String> typeLabels) {
    return requirements.stream().allMatch(r -> "Exists".equals(r.operator()) == typeLabels.containsKey(r.key()));
  }
}
