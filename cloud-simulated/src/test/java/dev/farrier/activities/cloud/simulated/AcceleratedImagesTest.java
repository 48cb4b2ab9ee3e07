package dev.farrier.activities.cloud.simulated;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.activities.cloud.AmiSelectorTerm;
import dev.farrier.activities.cloud.Image;
import dev.farrier.catalog.InstanceTypeCatalog;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An alias resolves its accelerated images beside its standard ones, and each instance type of the real catalogue
 * launches from the image built for it, as Karpenter's AWS provider picks them: NVIDIA for GPU types, Neuron for
 * Inferentia and Trainium, standard for the rest; none for a type its family publishes no image for.
 */
class AcceleratedImagesTest {
  private static final InstanceTypeCatalog TYPES = InstanceTypeCatalog.load("us-east-1");
  private static final AmiCatalog AMIS = AmiCatalog.load("1.34");

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("al2023@latest", "m5.large", "amazon-eks-node-al2023-x86_64-standard-1.34-v20251103"),
        Arguments.of("al2023@latest", "m6g.large", "amazon-eks-node-al2023-arm64-standard-1.34-v20251103"),
        Arguments.of("al2023@latest", "g5.xlarge", "amazon-eks-node-al2023-x86_64-nvidia-1.34-v20251103"),
        Arguments.of("al2023@latest", "g4ad.xlarge", "amazon-eks-node-al2023-x86_64-nvidia-1.34-v20251103"),
        Arguments.of("al2023@latest", "g5g.xlarge", "amazon-eks-node-al2023-arm64-nvidia-1.34-v20251103"),
        Arguments.of("al2023@latest", "inf2.xlarge", "amazon-eks-node-al2023-x86_64-neuron-1.34-v20251103"),
        Arguments.of("al2023@latest", "trn1.2xlarge", "amazon-eks-node-al2023-x86_64-neuron-1.34-v20251103"),
        Arguments.of("al2@latest", "g5.xlarge", "amazon-eks-gpu-node-1.34-v20251103"),
        Arguments.of("al2@latest", "inf2.xlarge", "amazon-eks-gpu-node-1.34-v20251103"),
        Arguments.of("al2@latest", "m5.large", "amazon-eks-node-1.34-v20251103"),
        Arguments.of("al2@latest", "g5g.xlarge", null),
        Arguments.of("bottlerocket@latest", "g5g.xlarge", "bottlerocket-aws-k8s-1.34-nvidia-aarch64-v1.50.0-42061c38"),
        Arguments.of("bottlerocket@latest", "inf2.xlarge", "bottlerocket-aws-k8s-1.34-x86_64-v1.50.0-42061c38"),
        Arguments.of("bottlerocket@latest", "m5.large", "bottlerocket-aws-k8s-1.34-x86_64-v1.50.0-42061c38"));
  }

  @ParameterizedTest(name = "{0} on {1}")
  @MethodSource("cases")
  void eachTypeLaunchesFromTheImageBuiltForIt(String alias, String type, String expected) {
    List<Image> images = AMIS.resolve(List.of(new AmiSelectorTerm(null, null, null, Map.of(), alias)));

    var chosen = Image.newestFor(images, TYPES.find(type).orElseThrow()).map(Image::name).orElse(null);

    assertEquals(expected, chosen);
  }

  @ParameterizedTest(name = "{0} on {1}")
  @MethodSource("cases")
  void anImageAnotherTermSelectsIsForEveryTypeOfItsArchitecture(String alias, String type, String expected) {
    var standard = AMIS.images().stream().filter(i -> i.name().equals("amazon-eks-node-al2023-x86_64-standard-1.34-v20251103")).toList();
    var instanceType = TYPES.find(type).orElseThrow();

    var chosen = Image.newestFor(standard, instanceType).map(Image::name);

    assertEquals("x86_64".equals(instanceType.arch()), chosen.isPresent(), "by id, name or tags: no variant, any type of its arch");
  }
}
