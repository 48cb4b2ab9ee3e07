package dev.farrier.activities.cloud.simulated;

import dev.farrier.activities.cloud.AmiAlias;
import dev.farrier.activities.cloud.AmiSelectorTerm;
import dev.farrier.activities.cloud.CsvResource;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.cloud.ImageVariant;
import dev.farrier.activities.cloud.SelectorTags;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The simulated EKS-optimized AMIs ({@code amis/eks-optimized.csv}, described in {@code amis/README.md}) and the
 * SSM parameters AWS publishes for them, with EC2NodeClass {@code amiSelectorTerms} resolution as Karpenter does it:
 * <ul>
 *   <li>{@code id}: that image.</li>
 *   <li>{@code name} with {@code *} and {@code ?} wildcards, filtered by {@code owner} (comma-separated; each an
 *       account id, an owner alias such as {@code amazon}, or {@code self}); owner defaults to {@code self,amazon}.</li>
 *   <li>{@code tags}: every tag must match; the value {@code *} matches any value.</li>
 *   <li>{@code alias} {@code family@version} ({@code al2023}, {@code al2}, {@code bottlerocket}; {@code latest} or a
 *       release such as {@code v20251103} / {@code v1.50.0}; {@code windows2019}, {@code windows2022},
 *       {@code windows2025} only {@code latest}) for the cluster's Kubernetes version, looked up in the same SSM
 *       parameters the aws provider reads.</li>
 * </ul>
 * Per term only the newest image (by creation date, then name) of each architecture survives; terms are ORed.
 *
 * <p>Besides Amazon's images the catalogue holds the simulated account's own (owner {@link #SELF_ACCOUNT_ID}, no
 * owner alias): broken custom AMIs whose instances never join ({@link #neverJoins}). SSM parameters, hence aliases,
 * only ever point at Amazon's images.
 */
public final class AmiCatalog {
  public static final String AMAZON_OWNER_ID = "602401143452";
  public static final String AMAZON_OWNER_ALIAS = "amazon";
  /** The simulated account's own id: what {@code owner: self} means. */
  public static final String SELF_ACCOUNT_ID = "111122223333";
  private static final String RESOURCE = "amis/eks-optimized.csv";

  private final String clusterKubernetesVersion;
  private final List<CatalogImage> images;
  private final Map<String, CatalogImage> byId;
  private final Map<String, String> ssmParameters;

  private AmiCatalog(String clusterKubernetesVersion, List<CatalogImage> images) {
    this.clusterKubernetesVersion = clusterKubernetesVersion;
    this.images = List.copyOf(images);
    this.byId = images.stream().collect(Collectors.toUnmodifiableMap(i -> i.image().id(), i -> i));
    this.ssmParameters = SsmParameters.derive(images);
  }

  /**
   * Loads the catalogue for a cluster at {@code clusterKubernetesVersion} (e.g. 1.34); throws
   * {@link IllegalArgumentException} when no image exists for that version, since aliases could never resolve.
   */
  public static AmiCatalog load(String clusterKubernetesVersion) {
    List<CatalogImage> images = new ArrayList<>();
    for (Map<String, String> row : CsvResource.read(RESOURCE)) {
      Image image = new Image(
          row.get("id"),
          row.get("name"),
          row.get("arch"),
          row.get("owner_id"),
          row.get("kubernetes_version"),
          row.get("kubelet_version"),
          Instant.parse(row.get("creation_date")));
      images.add(new CatalogImage(image, row.get("owner_alias"), row.get("family"), row.get("flavour"), row.get("release"),
          tags(row.get("tags"))));
    }
    TreeSet<String> versions = images.stream().map(i -> i.image().kubernetesVersion()).collect(Collectors.toCollection(TreeSet::new));
    if (!versions.contains(clusterKubernetesVersion)) {
      throw new IllegalArgumentException("the simulated AMI catalogue has no images for Kubernetes "
          + clusterKubernetesVersion + "; it has " + versions);
    }
    return new AmiCatalog(clusterKubernetesVersion, images);
  }

  private static Map<String, String> tags(String cell) {
    Map<String, String> tags = new HashMap<>();
    for (String pair : cell.split("\\|")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        tags.put(pair.substring(0, eq), pair.substring(eq + 1));
      }
    }
    return tags;
  }

  public String clusterKubernetesVersion() {
    return clusterKubernetesVersion;
  }

  /** Every image in the catalogue. */
  public List<Image> images() {
    return images.stream().map(CatalogImage::image).toList();
  }

  public Optional<Image> findById(String id) {
    return Optional.ofNullable(byId.get(id)).map(CatalogImage::image);
  }

  /**
   * Whether instances of the image run without their kubelet ever registering a Node (a broken custom AMI, see
   * {@code amis/README.md}); false for an id the catalogue does not know.
   */
  public boolean neverJoins(String imageId) {
    CatalogImage image = byId.get(imageId);
    return image != null && image.neverJoins();
  }

  /** Value of an SSM parameter such as {@code /aws/service/eks/optimized-ami/1.34/amazon-linux-2/recommended/image_id}. */
  public Optional<String> ssmParameter(String name) {
    return Optional.ofNullable(ssmParameters.get(name));
  }

  /** Every SSM parameter, sorted by name. */
  public Map<String, String> ssmParameters() {
    return new TreeMap<>(ssmParameters);
  }

  /**
   * Resolves the terms (ORed), newest image per architecture per term; an empty list when nothing matches. An alias
   * mixed with other terms or of an unknown family is an INVALID_REQUEST ({@link AmiAlias#validate}).
   */
  public List<Image> resolve(List<AmiSelectorTerm> terms) {
    AmiAlias.validate(terms);
    Map<String, Image> resolved = new LinkedHashMap<>();
    for (AmiSelectorTerm term : terms) {
      for (Image image : resolve(term)) {
        resolved.putIfAbsent(image.id(), image);
      }
    }
    return List.copyOf(resolved.values());
  }

  private List<Image> resolve(AmiSelectorTerm term) {
    List<CatalogImage> matches;
    if (term.alias() != null) {
      matches = resolveAlias(term.alias());
    } else if (term.ssmParameter() != null) {
      // The simulated account publishes no parameters of its own: AWS's public ones (the EKS-optimized images') resolve.
      matches = ssmParameter(term.ssmParameter()).map(byId::get).stream().toList();
    } else if (term.id() == null && term.name() == null && term.tags().isEmpty()) {
      matches = List.of();
    } else {
      matches = images.stream().filter(image -> matches(term, image)).toList();
    }
    return Image.newestPerKind(matches.stream().map(CatalogImage::image).toList());
  }

  private boolean matches(AmiSelectorTerm term, CatalogImage candidate) {
    Image image = candidate.image();
    if (term.id() != null && !term.id().equals(image.id())) {
      return false;
    }
    if (term.name() != null) {
      if (!glob(term.name()).matcher(image.name()).matches()) {
        return false;
      }
      String owners = term.owner() == null ? "self," + AMAZON_OWNER_ALIAS : term.owner();
      if (!ownedByAnyOf(owners, candidate)) {
        return false;
      }
    } else if (term.owner() != null && !ownedByAnyOf(term.owner(), candidate)) {
      return false;
    }
    return SelectorTags.match(term.tags(), candidate.tags());
  }

  private static boolean ownedByAnyOf(String owners, CatalogImage candidate) {
    for (String owner : owners.split(",")) {
      String o = owner.trim();
      if (o.isEmpty()) {
        continue; // the account's own images have no owner alias; an empty entry must not select them
      }
      boolean match = "self".equals(o)
          ? SELF_ACCOUNT_ID.equals(candidate.image().owner())
          : o.equals(candidate.image().owner()) || o.equals(candidate.ownerAlias());
      if (match) {
        return true;
      }
    }
    return false;
  }

  /** EC2 filter wildcards: {@code *} any run of characters, {@code ?} exactly one; everything else literal. */
  static Pattern glob(String pattern) {
    StringBuilder regex = new StringBuilder();
    StringBuilder literal = new StringBuilder();
    for (char c : pattern.toCharArray()) {
      if (c == '*' || c == '?') {
        if (!literal.isEmpty()) {
          regex.append(Pattern.quote(literal.toString()));
          literal.setLength(0);
        }
        regex.append(c == '*' ? ".*" : ".");
      } else {
        literal.append(c);
      }
    }
    if (!literal.isEmpty()) {
      regex.append(Pattern.quote(literal.toString()));
    }
    return Pattern.compile(regex.toString());
  }

  /** The alias's images, each marked with the kinds of instance type its parameters say it is for. */
  private List<CatalogImage> resolveAlias(String text) {
    AmiAlias alias = AmiAlias.parse(text);
    alias.requireImagesFor(clusterKubernetesVersion);
    Map<String, Set<ImageVariant>> variantsById = new LinkedHashMap<>();
    for (AmiAlias.Parameter parameter : alias.parameters(AmiAlias.AWS_PARAMETER_ROOT, clusterKubernetesVersion)) {
      ssmParameter(parameter.name()).filter(byId::containsKey)
          .ifPresent(id -> variantsById.computeIfAbsent(id, i -> new TreeSet<>()).addAll(parameter.variants()));
    }
    List<CatalogImage> found = new ArrayList<>();
    variantsById.forEach((id, variants) -> found.add(byId.get(id).withVariants(List.copyOf(variants))));
    return found;
  }
}
