package dev.farrier.activities.cloud.aws;

import dev.farrier.activities.cloud.AmiAlias;
import dev.farrier.activities.cloud.AmiSelectorTerm;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.cloud.ImageVariant;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.ec2.model.DescribeImagesRequest;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ssm.model.Parameter;
import software.amazon.awssdk.services.ssm.model.ParameterNotFoundException;

/**
 * {@code amiSelectorTerms} against EC2 and SSM, as Karpenter resolves them:
 * <ul>
 *   <li>{@code id}, {@code name} ({@code *}/{@code ?} wildcards) and {@code tags} ({@code *} = any value) become
 *       DescribeImages filters, ANDed within a term; {@code owner} (comma-separated ids or aliases, {@code self})
 *       becomes the Owners parameter and defaults to {@code self,amazon} when a name is given, so a name never
 *       matches a stranger's public image.</li>
 *   <li>{@code ssmParameter} reads the image id the parameter holds (a public one, such as an EKS-optimized image's, or
 *       the account's own), then describes it.</li>
 *   <li>{@code alias} {@code family@version} reads the image ids from the SSM public parameters under
 *       {@code parameterRoot} ({@link AmiAlias#parameter}) for the cluster's Kubernetes minor version, one per
 *       architecture the family has images for (Windows: x86_64 only), then describes them.</li>
 * </ul>
 * Only available images count. Per term the newest image (creation date, then name) of each architecture wins;
 * terms are ORed. A term that sets nothing matches nothing (never "every image"). Read-only.
 */
public final class AwsImageResolver {
  private static final List<String> DEFAULT_OWNERS = List.of("self", "amazon");
  private final AwsClients aws;
  private final Supplier<String> kubernetesVersion;
  private final String parameterRoot;

  /**
   * @param kubernetesVersion the cluster's minor version (e.g. {@code 1.34}), read when an alias is resolved
   * @param parameterRoot     {@link AmiAlias#AWS_PARAMETER_ROOT} in AWS; a writable prefix in tests
   */
  public AwsImageResolver(AwsClients aws, Supplier<String> kubernetesVersion, String parameterRoot) {
    this.aws = aws;
    this.kubernetesVersion = kubernetesVersion;
    this.parameterRoot = parameterRoot;
  }

  public AwsImageResolver(AwsClients aws, Supplier<String> kubernetesVersion) {
    this(aws, kubernetesVersion, AmiAlias.AWS_PARAMETER_ROOT);
  }

  public List<Image> resolve(List<AmiSelectorTerm> terms) {
    AmiAlias.validate(terms);
    Map<String, Image> resolved = new LinkedHashMap<>();
    for (AmiSelectorTerm term : terms) {
      for (Image image : Image.newestPerKind(resolve(term))) {
        resolved.putIfAbsent(image.id(), image);
      }
    }
    return List.copyOf(resolved.values());
  }

  private List<Image> resolve(AmiSelectorTerm term) {
    if (term.alias() != null) {
      return resolveAlias(AmiAlias.parse(term.alias()));
    }
    if (term.ssmParameter() != null) {
      return resolveParameter(term.ssmParameter());
    }
    if (term.id() == null && term.name() == null && term.tags().isEmpty()) {
      return List.of();
    }
    List<Filter> filters = new ArrayList<>();
    filters.add(Ec2Filters.of("state", "available"));
    if (term.id() != null) {
      filters.add(Ec2Filters.of("image-id", term.id()));
    }
    if (term.name() != null) {
      filters.add(Ec2Filters.of("name", term.name()));
    }
    filters.addAll(Ec2Filters.tags(term.tags()));
    List<String> owners = term.owner() != null
        ? Arrays.stream(term.owner().split(",")).map(String::trim).filter(o -> !o.isEmpty()).toList()
        : term.name() != null ? DEFAULT_OWNERS : List.of();
    return describe(DescribeImagesRequest.builder().filters(filters).owners(owners).build(), null, "amiSelectorTerms " + term);
  }

  /**
   * The image whose id the parameter holds, as Karpenter reads an {@code ssmParameter} term: a parameter that does not
   * exist, or whose value is not an image id, resolves to nothing (the class's AMIsReady condition then says the terms
   * matched no image), any other SSM failure is the call's.
   */
  private List<Image> resolveParameter(String name) {
    String value;
    try {
      value = aws.ssm().getParameter(b -> b.name(name)).parameter().value();
    } catch (ParameterNotFoundException e) {
      return List.of();
    } catch (AwsServiceException e) {
      throw AwsCallFailures.translate("SSM parameter " + name, e);
    }
    if (value == null || !value.startsWith("ami-")) {
      return List.of();
    }
    return describe(DescribeImagesRequest.builder().filters(Ec2Filters.of("state", "available"), Ec2Filters.of("image-id", value)).build(),
        null, "ssmParameter " + name + " (" + value + ")");
  }

  /**
   * The alias's images: the ids its parameters hold ({@link AmiAlias#parameters}: standard and accelerated), each
   * described and marked with the kinds of instance type its parameters say it is for. A parameter AWS does not
   * publish (an accelerated flavour for an old version) is left out, as upstream does.
   */
  private List<Image> resolveAlias(AmiAlias alias) {
    String k8s = kubernetesVersion.get();
    alias.requireImagesFor(k8s);
    Map<String, List<ImageVariant>> variantsByName = new LinkedHashMap<>();
    alias.parameters(parameterRoot, k8s).forEach(p -> variantsByName.put(p.name(), p.variants()));
    Map<String, Set<ImageVariant>> variantsById = new LinkedHashMap<>();
    try {
      for (Parameter parameter : aws.ssm().getParameters(b -> b.names(variantsByName.keySet())).parameters()) {
        variantsById.computeIfAbsent(parameter.value(), id -> new TreeSet<>()).addAll(variantsByName.get(parameter.name()));
      }
    } catch (AwsServiceException e) {
      throw AwsCallFailures.translate("SSM parameters of alias " + alias.family() + "@" + alias.version(), e);
    }
    if (variantsById.isEmpty()) {
      return List.of();
    }
    return describe(DescribeImagesRequest.builder().filters(Ec2Filters.of("state", "available"),
        Filter.builder().name("image-id").values(variantsById.keySet()).build()).build(), k8s, "alias images " + variantsById.keySet())
        .stream().map(i -> i.withVariants(List.copyOf(variantsById.getOrDefault(i.id(), Set.of())))).toList();
  }

  private List<Image> describe(DescribeImagesRequest request, String k8s, String what) {
    try {
      return aws.ec2().describeImagesPaginator(request).images().stream()
          .map(i -> new Image(i.imageId(), i.name(), i.architectureAsString(), i.ownerId(), k8s, null,
              i.creationDate() == null ? Instant.EPOCH : Instant.parse(i.creationDate())))
          .toList();
    } catch (AwsServiceException e) {
      throw AwsCallFailures.translate("DescribeImages for " + what, e);
    }
  }
}
